/// One ISO base media (MP4) box: its four-character type and either its payload bytes or,
/// for the containers the clipper walks through, its child boxes.
struct MP4Box {
  /// The boxes whose payload is nothing but child boxes.
  static let containers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts"]

  var type: String
  var payload: [UInt8]
  var children: [MP4Box]

  init(type: String, payload: [UInt8] = [], children: [MP4Box] = []) {
    self.type = type
    self.payload = payload
    self.children = children
  }

  /// The boxes of `bytes`, descending into `containers`.
  static func parse(_ bytes: ArraySlice<UInt8>) throws(FuzzError) -> [MP4Box] {
    var boxes: [MP4Box] = []
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
      guard bytes.endIndex - offset >= 8 else {
        throw FuzzError("MP4 box header cut short at byte \(offset)")
      }
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      var headerSize = 8
      var size = Int(BigEndian.read32(bytes, at: offset))
      if size == 1 {
        guard bytes.endIndex - offset >= 16 else { throw FuzzError("MP4 box '\(type)' cut short") }
        size = Int(BigEndian.read64(bytes, at: offset + 8))
        headerSize = 16
      } else if size == 0 {
        size = bytes.endIndex - offset
      }
      guard size >= headerSize, size <= bytes.endIndex - offset else {
        throw FuzzError("MP4 box '\(type)' at byte \(offset) has a bad size \(size)")
      }
      let body = bytes[offset + headerSize..<offset + size]
      if containers.contains(type) {
        boxes.append(MP4Box(type: type, children: try parse(body)))
      } else {
        boxes.append(MP4Box(type: type, payload: Array(body)))
      }
      offset += size
    }
    return boxes
  }

  /// The box as bytes, with a 32-bit size.
  func serialized() -> [UInt8] {
    let body = payload + children.flatMap { $0.serialized() }
    return BigEndian.bytes32(UInt32(8 + body.count)) + Array(type.utf8) + body
  }

  /// The first child of type `type`.
  func child(_ type: String) -> MP4Box? { children.first { $0.type == type } }

  /// The box reached by following child types, e.g. `["mdia", "minf", "stbl"]`.
  func descendant(_ path: [String]) -> MP4Box? {
    path.reduce(Optional(self)) { box, type in box?.child(type) }
  }

  /// Replaces the box at `path` (child types from this box) by `transform` of it.
  mutating func update(_ path: [String], _ transform: (inout MP4Box) -> Void) {
    guard let first = path.first else { return transform(&self) }
    for index in children.indices where children[index].type == first {
      children[index].update(Array(path.dropFirst()), transform)
      return
    }
  }
}

/// Big-endian integers in byte arrays, as MP4 and PNG store them.
enum BigEndian {
  static func read32<C: RandomAccessCollection<UInt8>>(_ bytes: C, at offset: C.Index) -> UInt32
  where C.Index == Int {
    (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[offset + $1]) }
  }

  static func read64<C: RandomAccessCollection<UInt8>>(_ bytes: C, at offset: C.Index) -> UInt64
  where C.Index == Int {
    (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
  }

  static func bytes32(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }
  }

  static func bytes64(_ value: UInt64) -> [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
  }

  static func write32(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
    bytes.replaceSubrange(offset..<offset + 4, with: bytes32(value))
  }

  static func write64(_ value: UInt64, into bytes: inout [UInt8], at offset: Int) {
    bytes.replaceSubrange(offset..<offset + 8, with: bytes64(value))
  }
}

/// Why the fuzzer cannot go on (a seed it cannot read, a program it cannot start); one line.
struct FuzzError: Error, CustomStringConvertible {
  let description: String
  /// The fuzzer's exit status for it: 65 an unusable seed, 66 a missing file.
  let status: Int32
  init(_ description: String, status: Int32 = 65) {
    self.description = description
    self.status = status
  }
}
