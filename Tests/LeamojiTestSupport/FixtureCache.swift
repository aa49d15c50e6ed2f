import Foundation
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// Files the tests make with an outside tool (the ffmpeg CLI's test videos, stills and tones),
/// kept between test runs so that a second run copies them instead of making them again.
///
/// An entry is named by the SHA-256 of its key: everything that determines the file's bytes (for
/// the ffmpeg CLI, `FFmpegFixtures.cacheKey`: the first line of `ffmpeg -version` and the whole
/// argument list). A different key is a different entry, so a test that makes a broken or
/// hostile file gets exactly the file its arguments make. Entries are written to a temporary
/// file and renamed into place, so two test processes never see half of one, and each starts
/// with its size and a checksum of its bytes: an entry that is missing, cut short or damaged is
/// made again. The folder is `.build/test-fixtures` in the package (`rm -rf .build/test-fixtures`
/// empties it), or `$LEAMOJI_FIXTURE_CACHE`. When the folder cannot be written, files are made
/// as if there were no cache.
public struct FixtureCache: Sendable {
  /// Where the entries are.
  public let folder: URL

  public init(folder: URL) { self.folder = folder }

  /// The cache of the test run: `$LEAMOJI_FIXTURE_CACHE`, or `.build/test-fixtures` in the
  /// package (found from this file's path, as `Repository.root` is).
  public static let shared = FixtureCache(
    folder: ProcessInfo.processInfo.environment["LEAMOJI_FIXTURE_CACHE"].flatMap {
      $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true)
    } ?? Repository.url(".build/test-fixtures"))

  /// The name of the entry for `key`: the SHA-256 of its parts, as hex.
  public static func entryName(_ key: [String]) -> String {
    // Each part with its length first, so that no two lists of parts read the same.
    var text = "leamoji test fixture 1\n"
    for part in key { text += "\(part.utf8.count):\(part)\n" }
    return SHA256.hex(Array(text.utf8))
  }

  /// The entry's path for `key`.
  public func entry(_ key: [String]) -> URL {
    folder.appendingPathComponent(Self.entryName(key))
  }

  /// Puts at `file` the bytes made for `key`: the cached ones when the cache holds them intact,
  /// otherwise `make` writes `file` and the cache keeps a copy of it. Returns whether the bytes
  /// came from the cache. Errors are `make`'s; a cache that cannot be read or written only
  /// makes the file every time.
  @discardableResult
  public func file(_ file: URL, key: [String], make: () throws -> Void) throws -> Bool {
    let entry = entry(key)
    if let bytes = Self.payload(of: entry) {
      do {
        try bytes.write(to: file)
        return true
      } catch {
        // Made below instead, as without a cache.
      }
    }
    try make()
    if let bytes = try? Data(contentsOf: file) { store(bytes, at: entry) }
    return false
  }

  /// The first line of an entry: a name for the format, the byte count and the checksum.
  private static func header(for bytes: Data) -> String {
    "leamoji-fixture 1 \(bytes.count) \(String(checksum(bytes), radix: 16))\n"
  }

  /// The bytes kept in `entry`, or nil when it is missing, cut short or damaged.
  static func payload(of entry: URL) -> Data? {
    guard let data = try? Data(contentsOf: entry),
      let newline = data.prefix(200).firstIndex(of: 0x0A)
    else { return nil }
    let bytes = data[(newline + 1)...]
    guard data[...newline].elementsEqual(header(for: bytes).utf8) else { return nil }
    return Data(bytes)
  }

  /// Writes `bytes` to `entry` through a temporary file in the same folder, renamed into place.
  private func store(_ bytes: Data, at entry: URL) {
    let temporary = folder.appendingPathComponent(
      ".\(entry.lastPathComponent).\(getpid()).\(UUID().uuidString.prefix(8)).tmp")
    var record = Data(Self.header(for: bytes).utf8)
    record.append(bytes)
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try record.write(to: temporary)
      guard rename(temporary.path, entry.path) == 0 else {
        throw HarnessError("rename: \(String(cString: strerror(errno)))")
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
    }
  }

  /// A 64-bit checksum of `bytes` (FNV-1a over 8-byte words): any changed word changes it.
  /// Not LeamojiCore's SHA-256: this runs over every byte of every entry, input file and piped
  /// frame (hundreds of MB a run), and even unoptimised it is about 4 times faster (650 MB/s
  /// against 170 MB/s for the optimised SHA-256, measured on 64 MB in a debug build).
  public static func checksum(_ bytes: Data) -> UInt64 {
    let prime: UInt64 = 0x100_0000_01b3
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    bytes.withUnsafeBytes { raw in
      let words = raw.count / 8
      var index = 0
      while index < words {
        hash = (hash ^ raw.loadUnaligned(fromByteOffset: index &* 8, as: UInt64.self)) &* prime
        index &+= 1
      }
      index = words &* 8
      while index < raw.count {
        hash = (hash ^ UInt64(raw[index])) &* prime
        index &+= 1
      }
    }
    return hash ^ UInt64(bytes.count)
  }
}
