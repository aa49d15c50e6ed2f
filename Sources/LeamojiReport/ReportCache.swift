import FoundationEssentials
import LeamojiCore

/// What the last report wrote into a site folder (`.leamoji-report.json`): a hash of each file
/// it wrote, and the identity (path, size, time, inode) of the source each copied file or
/// thumbnail was made from. A later report skips every file whose content or source is
/// unchanged and still there, and removes the files it wrote before that no film needs now.
/// Its presence also marks the folder as a report, which a later run may overwrite.
struct ReportCache: Codable, Equatable {
  /// The manifest's name in the site folder.
  static let fileName = ".leamoji-report.json"
  /// Changes whenever pages would come out differently for the same input.
  static let currentVersion = 1

  var version = currentVersion
  /// Site-relative path → FNV-1a hash of the bytes written.
  var files: [String: String] = [:]
  /// Site-relative path → identity of the file it was made from (posters, videos, thumbnails).
  var sources: [String: String] = [:]

  /// The manifest in `site`, or an empty one (missing, unreadable or of another version:
  /// everything is made again).
  static func read(site: String) -> ReportCache {
    let path = PathText.appending(fileName, to: site)
    guard let bytes = try? DurableFile(path).readIfPresent(),
      let cache = try? JSONDecoder().decode(ReportCache.self, from: Data(bytes)),
      cache.version == currentVersion
    else { return ReportCache() }
    return cache
  }

  /// The manifest as written: sorted keys, one entry a line.
  func encoded() throws -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return Array(try encoder.encode(self)) + [10]
  }

  /// Every path the manifest names.
  var paths: Set<String> { Set(files.keys).union(sources.keys) }
}
