/// Where a seed's structure is: the offsets the byte mutator hits more often than the rest.
struct FieldMap {
  /// Structure bytes of any kind: box and chunk headers, versions, codec configuration, NAL headers.
  var fields: [Int] = []
  /// Big-endian 32-bit numbers that drive the reader: box sizes, timescales, durations, edit
  /// lists, sample table entries, the display matrix, picture sizes, chunk lengths. Interesting
  /// values and arithmetic go here half of the time, and `--sweep` tries each of them.
  var numbers: [Int] = []

  /// The map of an MP4 file.
  static func mp4(_ bytes: [UInt8]) -> FieldMap {
    var map = FieldMap()
    map.walkBoxes(bytes, from: 0, to: bytes.count)
    return map
  }

  /// The map of a PNG file: each chunk's length, type, first data bytes and CRC, and the IHDR fields.
  static func png(_ bytes: [UInt8]) -> FieldMap {
    var map = FieldMap()
    var offset = 8
    while offset + 12 <= bytes.count {
      let length = Int(BigEndian.read32(bytes, at: offset))
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      map.fields += [offset, offset + 4, offset + 8, offset + 9]
      map.numbers.append(offset)
      if type == "IHDR" {
        map.fields += [0, 4, 8, 9, 10, 11, 12].map { offset + 8 + $0 }
        map.numbers += [offset + 8, offset + 12]
      }
      let crc = offset + 8 + length
      guard crc + 4 <= bytes.count else { break }
      map.fields.append(crc)
      offset = crc + 4
    }
    return map
  }

  /// Payload offsets of the 32-bit numbers of version-0 boxes (tables: count and first entries).
  private static let numberOffsets: [String: [Int]] = [
    "mvhd": [12, 16], "mdhd": [12, 16], "tkhd": [20] + Array(stride(from: 40, through: 80, by: 4)),
    "elst": [4, 8, 12, 16, 20, 24], "stts": Array(stride(from: 4, through: 28, by: 4)),
    "ctts": Array(stride(from: 4, through: 28, by: 4)), "stss": [4, 8, 12],
    "stsz": [4, 8, 12, 16, 20],
    "stsc": [4, 8, 12, 16], "stco": [4, 8], "pasp": [0, 4], "avc1": [24],
  ]

  private static let fullBoxes: Set = [
    "mvhd", "tkhd", "mdhd", "elst", "stts", "ctts", "stss", "stsz", "stsc", "stco", "co64", "hdlr",
    "stsd",
  ]

  private mutating func walkBoxes(_ bytes: [UInt8], from start: Int, to end: Int) {
    var offset = start
    while offset + 8 <= end {
      let size = Int(BigEndian.read32(bytes, at: offset))
      let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
      guard size >= 8, offset + size <= end else { return }
      fields += [offset, offset + 4]
      numbers.append(offset)
      if Self.fullBoxes.contains(type) {
        fields += stride(from: offset + 8, through: offset + 28, by: 4).filter {
          $0 < offset + size
        }
      }
      numbers += (Self.numberOffsets[type] ?? []).map { offset + 8 + $0 }.filter {
        $0 + 4 <= offset + size
      }
      switch type {
      case _ where MP4Box.containers.contains(type):
        walkBoxes(bytes, from: offset + 8, to: offset + size)
      case "stsd": walkBoxes(bytes, from: offset + 16, to: offset + size)
      case "avc1", "hvc1", "hev1", "mp4v":
        fields += [24, 26, 28, 32, 40, 48, 74].map { offset + 8 + $0 }
        walkBoxes(bytes, from: offset + 86, to: offset + size)
      case "avcC", "hvcC", "esds", "pasp", "clap", "colr":
        fields += Array(offset + 8..<offset + size)
      case "mdat": nalLengths(bytes, from: offset + 8, to: offset + size)
      default: break
      }
      offset += size
    }
  }

  /// The 4-byte NAL unit lengths (and NAL headers) of the first few samples in `mdat`.
  private mutating func nalLengths(_ bytes: [UInt8], from start: Int, to end: Int) {
    var offset = start
    var units = 0
    while offset + 5 <= end, units < 64 {
      let length = Int(BigEndian.read32(bytes, at: offset))
      guard length > 0, offset + 4 + length <= end else { return }
      fields += [offset, offset + 4, offset + 5]
      offset += 4 + length
      units += 1
    }
  }
}
