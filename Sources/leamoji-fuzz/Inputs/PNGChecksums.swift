/// Recomputes each PNG chunk's CRC after a mutation, so a changed header field reaches the
/// decoder instead of failing the checksum test first.
enum PNGChecksums {
  /// Rewrites the CRC of every chunk whose data fits in the file; returns how many it changed.
  @discardableResult
  static func repair(_ bytes: inout [UInt8]) -> Int {
    var repaired = 0
    var offset = 8
    while offset + 12 <= bytes.count {
      let length = Int(BigEndian.read32(bytes, at: offset))
      let crcOffset = offset + 8 + length
      guard length >= 0, crcOffset + 4 <= bytes.count else { break }
      let crc = crc32(bytes[offset + 4..<crcOffset])
      if BigEndian.read32(bytes, at: crcOffset) != crc {
        BigEndian.write32(crc, into: &bytes, at: crcOffset)
        repaired += 1
      }
      offset = crcOffset + 4
    }
    return repaired
  }

  private static let table: [UInt32] = (0..<256).map { index in
    (0..<8).reduce(UInt32(index)) { value, _ in
      value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
    }
  }

  /// The CRC-32 (ISO 3309, as PNG uses) of `bytes`.
  static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
    ~bytes.reduce(UInt32.max) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
  }
}
