import Foundation

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
    return TestSHA256.hex(Array(text.utf8))
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
  /// Not SHA-256: this runs over every byte of every entry and input file, and the test
  /// support is compiled unoptimised, where this is about 100 times faster.
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

/// SHA-256 (FIPS 180-4), for the cache's keys (a few hundred bytes each). The product's is in
/// LeamojiCore, which this target does not depend on (Foundation only).
enum TestSHA256 {
  private static let k: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// The digest of `bytes` as 64 lower-case hex digits.
  static func hex(_ bytes: [UInt8]) -> String {
    digest(bytes).map { String(format: "%02x", $0) }.joined()
  }

  static func digest(_ bytes: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
      0x5be0_cd19,
    ]
    var message = bytes
    let bitLength = UInt64(bytes.count) * 8
    message.append(0x80)
    while message.count % 64 != 56 { message.append(0) }
    for shift in stride(from: 56, through: 0, by: -8) {
      message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
    }
    func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
    var w = [UInt32](repeating: 0, count: 64)
    for chunk in stride(from: 0, to: message.count, by: 64) {
      for i in 0..<16 {
        let j = chunk + i * 4
        w[i] =
          UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8
          | UInt32(message[j + 3])
      }
      for i in 16..<64 {
        let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
        let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
      }
      var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
      for i in 0..<64 {
        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
        let choice = (e & f) ^ (~e & g)
        let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
        let majority = (a & b) ^ (a & c) ^ (b & c)
        (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ s0 &+ majority)
      }
      for (i, value) in [a, b, c, d, e, f, g, hh].enumerated() { h[i] &+= value }
    }
    return h.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) }
    }
  }
}
