import FoundationEssentials
import LeamojiCore
import LeamojiTimeline

#if canImport(Glibc)
  import Glibc
#endif

/// File-system work of the report: paths relative to the site, finding each film's video,
/// telling whether a source file changed (its identity), and writing and copying files the
/// durable way (`DurableFile`: a reader sees the old file or the new one, never half of one).
enum SiteFiles {
  /// Video file extensions looked for beside the catalogue (lower case).
  static let videoExtensions: Set<String> = [
    "mp4", "m4v", "mov", "mkv", "webm", "ogv", "ogg", "avi", "mpg", "mpeg", "ts",
  ]
  /// Poster formats copied into the site (lower case; browsers show all of them).
  static let posterExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "gif"]

  /// `path` as an absolute path with `.` and `..` steps resolved (lexically).
  static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    var parts: [Substring] = []
    for part in full.split(separator: "/", omittingEmptySubsequences: true) {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    return "/" + parts.joined(separator: "/")
  }

  /// The steps from folder `from` to file `to` (both absolute), e.g. `["..", "..", "a", "b.mp4"]`.
  static func relativeSteps(from folder: String, to file: String) -> [String] {
    let a = folder.split(separator: "/").map(String.init)
    let b = file.split(separator: "/").map(String.init)
    var common = 0
    while common < a.count && common < b.count - 1 && a[common] == b[common] { common += 1 }
    return Array(repeating: "..", count: a.count - common) + b[common...]
  }

  /// The video of each id in `folder`: files with a video extension whose name without the
  /// extension, or its slug, is the id (the ids `analyze` gives). The first in name order wins.
  static func videos(in folder: String) -> [String: String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return [:]
    }
    var found: [String: String] = [:]
    for name in names.sorted()
    where videoExtensions.contains(PathText.pathExtension(name).lowercased()) {
      let path = PathText.appending(name, to: folder)
      for id in [PathText.deletingExtension(name), MovieID.slug(fromFileName: name)]
      where found[id] == nil {
        found[id] = path
      }
    }
    return found
  }

  /// What tells a file's version without reading it: its path, size, modification time and
  /// inode, e.g. `/v/a.mp4 1178040 1764075660.123456789 4242`; nil when it is not a file.
  static func identity(of path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
    let time = "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
    return "\(absolute(path)) \(info.st_size) \(time) \(info.st_ino)"
  }

  /// Makes `folder` and its parents.
  static func makeFolder(_ folder: String) throws(ReportError) {
    var isFolder = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) {
      if isFolder { return }
      throw ReportError("\(folder): exists and is not a folder", kind: .cannotWrite)
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw ReportError(
        "\(folder): cannot create the folder (\(ErrorText.describe(error)))", kind: .cannotWrite)
    }
  }

  /// Writes `bytes` to `path` whole (see `DurableFile`).
  static func write(_ bytes: [UInt8], to path: String) throws(ReportError) {
    do {
      try DurableFile(path).write(bytes)
    } catch {
      throw ReportError(error.description, kind: .cannotWrite)
    }
  }

  /// Copies the file `source` to `destination` the durable way (see `DurableFile.copy`).
  static func copy(_ source: String, to destination: String) throws(ReportError) {
    do {
      try DurableFile(destination).copy(from: source)
    } catch {
      throw ReportError(error.description, kind: .cannotWrite)
    }
  }

  /// Removes the file at `path` if it is there (a folder left empty is removed too).
  static func remove(_ path: String) {
    unlink(path)
    let folder = PathText.deletingLastComponent(path)
    if !folder.isEmpty { rmdir(folder) }
  }
}

/// A problem making the report: one line naming the file, and what kind of problem it is
/// (the command's exit status follows the kind).
public struct ReportError: Error, CustomStringConvertible, Sendable {
  /// The line to show: the file, then the problem.
  public let message: String
  /// What kind of problem it is: `noInput`, an input file is missing or unreadable;
  /// `badInput`, an input file is not usable (not a catalogue, ...); `cannotWrite`, the site
  /// cannot be written where asked (or would overwrite what is not a report).
  public let kind: ProblemKind

  /// The problem `message` of kind `kind`.
  public init(_ message: String, kind: ProblemKind) {
    self.message = message
    self.kind = kind
  }

  public var description: String { message }
}
