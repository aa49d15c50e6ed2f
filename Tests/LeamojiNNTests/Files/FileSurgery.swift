import Foundation
import LeamojiNN

/// A small network's model file for the file tests, and raw edits of file bytes.
enum FileSurgery {
  static let path = "models/test.safetensors"

  /// A small trained-looking network (non-zero biases) for 3x16x16 input and 4 classes.
  static func network() throws -> Network {
    var net = try Network(
      specs: TestSupport.smallSpecs(classes: 4), inputShape: [3, 16, 16], seed: 5)
    var p = net.parameters
    for i in p.indices where p[i].rank == 1 {
      p[i] = TestSupport.random(p[i].shape, seed: UInt64(i))
    }
    try net.setParameters(p)
    return net
  }

  /// The network's file with one entry of the caller's own.
  static func contents() throws -> SafetensorsFile {
    ModelFile.contents(of: try network(), metadata: ["owner": "tests/ü"])
  }

  /// Splits a file into its header object and data bytes.
  static func split(_ bytes: [UInt8]) throws -> (header: [String: Any], data: [UInt8]) {
    let n = Int(bytes[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    let header = try JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + n)])) as! [String: Any]
    return (header, Array(bytes[(8 + n)...]))
  }

  /// Joins a header text and data into a file (no padding: the format does not require it).
  static func join(_ header: String, _ data: [UInt8]) -> [UInt8] {
    let h = Array(header.utf8)
    return withUnsafeBytes(of: UInt64(h.count).littleEndian) { Array($0) } + h + data
  }

  static func join(_ header: [String: Any], _ data: [UInt8]) throws -> [UInt8] {
    let json = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    return join(String(decoding: json, as: UTF8.self), data)
  }

  /// The test file's bytes after editing its raw header and data.
  static func edited(_ edit: (inout [String: Any], inout [UInt8]) -> Void) throws -> [UInt8] {
    var (header, data) = try split(contents().encoded())
    edit(&header, &data)
    return try join(header, data)
  }

  static func setOffsets(_ header: inout [String: Any], _ name: String, _ begin: Int, _ end: Int) {
    var entry = header[name] as! [String: Any]
    entry["data_offsets"] = [begin, end]
    header[name] = entry
  }

  static func offsets(_ header: [String: Any], _ name: String) -> (Int, Int) {
    let o = (header[name] as! [String: Any])["data_offsets"] as! [Int]
    return (o[0], o[1])
  }
}
