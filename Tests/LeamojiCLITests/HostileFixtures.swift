import Foundation
import LeamojiCore
import LeamojiTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// How long a hostile input may keep leamoji busy before the watchdog kills it.
let hostileTimeout = 10.0

/// Every file in `folder` (recursively) with its bytes, to prove a failed run changed nothing.
func snapshot(of folder: URL) -> [String: Data] {
  var files: [String: Data] = [:]
  guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return files }
  while let relative = walker.nextObject() as? String {
    let path = folder.appendingPathComponent(relative).path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
    var info = stat()
    guard lstat(path, &info) == 0,
      info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFDIR
    else {
      files[relative] = Data("special".utf8)
      continue
    }
    files[relative] =
      isDirectory.boolValue
      ? Data("folder".utf8) : (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
  }
  return files
}

/// Deterministic bytes, so "random" fixtures are the same on every run.
func pseudoRandomBytes(count: Int, seed: UInt64) -> [UInt8] {
  var generator = SplitMix64(seed: seed)
  return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next() >> 24) }
}

/// PNG files built byte by byte, so a header can declare anything.
enum HandmadePNG {
  static func file(width: UInt32, height: UInt32, idat: [UInt8]) -> Data {
    var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var header: [UInt8] = []
    header += bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
    bytes += chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
    return Data(bytes)
  }

  /// A stored (uncompressed) zlib stream of `data`.
  static func storedZlib(_ data: [UInt8]) -> [UInt8] {
    precondition(data.count < 65_536)
    let length = UInt16(data.count)
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in data {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    return [
      0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
      UInt8(~length >> 8),
    ]
      + data + bigEndian(b << 16 | a)
  }

  private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + typed + bigEndian(crc32(typed))
  }

  private static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }

  private static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}

/// Edits of the shipped model file: its JSON header as a dictionary, its data section as bytes.
struct ModelSurgery {
  var header: [String: Any]
  var data: [UInt8]

  init(_ file: Data) throws {
    let bytes = [UInt8](file)
    let length = bytes[0..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    let json = try JSONSerialization.jsonObject(with: Data(bytes[8..<8 + length]))
    guard let object = json as? [String: Any] else {
      throw HarnessError("model header is not an object")
    }
    header = object
    data = Array(bytes[(8 + length)...])
  }

  var metadata: [String: String] {
    get { header["__metadata__"] as? [String: String] ?? [:] }
    set { header["__metadata__"] = newValue }
  }

  func tensor(_ name: String) -> [String: Any] { header[name] as? [String: Any] ?? [:] }

  /// The file: 8-byte little-endian header length, header, data.
  func file(headerText: String? = nil) throws -> Data {
    let text =
      try headerText
      ?? String(
        decoding: JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]),
        as: UTF8.self)
    var length = UInt64(text.utf8.count)
    var bytes = withUnsafeBytes(of: &length) { Array($0) }
    bytes += Array(text.utf8) + data
    return Data(bytes)
  }
}
