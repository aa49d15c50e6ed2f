/// Format-blind mutations of a byte buffer: bit flips, interesting values, arithmetic on
/// integers, random bytes, chunk deletion, duplication and insertion, and truncation.
/// Positions are drawn from the seed's structure fields part of the time, else anywhere;
/// interesting values and arithmetic go to its 32-bit numbers half of the time.
struct ByteMutator {
  let map: FieldMap

  /// Applies one random mutation to `bytes` and returns what it did, for the case report.
  func mutate(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    if bytes.isEmpty {
      let count = rng.smallLength(upTo: 64)
      bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      return "fill empty input with \(count) random bytes"
    }
    switch rng.below(100) {
    case 0..<22: return flipBits(&bytes, &rng)
    case 22..<44: return writeInteresting(&bytes, &rng)
    case 44..<54: return addToInteger(&bytes, &rng)
    case 54..<62: return overwriteRandom(&bytes, &rng)
    case 62..<72: return deleteChunk(&bytes, &rng)
    case 72..<80: return duplicateChunk(&bytes, &rng)
    case 80..<86: return insertRandom(&bytes, &rng)
    case 86..<93: return copyOver(&bytes, &rng)
    default: return truncate(&bytes, &rng)
    }
  }

  /// A position in `bytes`: a structure field 40 % of the time, else uniform.
  private func position(in bytes: [UInt8], _ rng: inout SeededRandom) -> Int {
    let fields = map.fields.filter { $0 < bytes.count }
    if !fields.isEmpty, rng.chance(40) { return rng.pick(fields) }
    return rng.below(bytes.count)
  }

  private func flipBits(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let count = rng.pick([1, 1, 1, 2, 4, 8])
    let start = position(in: bytes, &rng)
    for _ in 0..<count {
      let offset =
        rng.chance(50) ? min(start + rng.below(4), bytes.count - 1) : rng.below(bytes.count)
      bytes[offset] ^= 1 << UInt8(rng.below(8))
    }
    return "flip \(count) bit(s) near \(start)"
  }

  /// A big-endian 32-bit number of the seed (still inside `bytes`), half of the time.
  private func number(in bytes: [UInt8], _ rng: inout SeededRandom) -> Int? {
    let numbers = map.numbers.filter { $0 + 4 <= bytes.count }
    return !numbers.isEmpty && rng.chance(50) ? rng.pick(numbers) : nil
  }

  private func writeInteresting(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let field = number(in: bytes, &rng)
    let width = field == nil ? rng.pick([1, 1, 2, 4, 4, 8]) : 4
    let bigEndian = field != nil || rng.chance(60)
    let value = rng.pick(InterestingValues.values(width: width, fileSize: bytes.count))
    let offset = field ?? position(in: bytes, &rng)
    write(value, width: width, bigEndian: bigEndian, at: offset, in: &bytes)
    return
      "write \(width)-byte \(bigEndian ? "BE" : "LE") 0x\(String(value, radix: 16)) at \(offset)"
  }

  private func addToInteger(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let field = number(in: bytes, &rng)
    let width = field == nil ? rng.pick([1, 2, 4]) : 4
    let bigEndian = field != nil || rng.chance(60)
    let offset = field ?? position(in: bytes, &rng)
    guard offset + width <= bytes.count else { return flipBits(&bytes, &rng) }
    let delta = UInt64(1 + rng.below(35))
    let old = read(width: width, bigEndian: bigEndian, at: offset, in: bytes)
    let subtract = rng.chance(50)
    let new = subtract ? old &- delta : old &+ delta
    write(new, width: width, bigEndian: bigEndian, at: offset, in: &bytes)
    return
      "\(subtract ? "subtract" : "add") \(delta) to \(width)-byte \(bigEndian ? "BE" : "LE") at \(offset)"
  }

  private func overwriteRandom(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let offset = position(in: bytes, &rng)
    let count = min(rng.smallLength(upTo: 256), bytes.count - offset)
    for index in offset..<offset + count { bytes[index] = UInt8(truncatingIfNeeded: rng.next()) }
    return "overwrite \(count) random byte(s) at \(offset)"
  }

  private func deleteChunk(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let offset = position(in: bytes, &rng)
    let count = min(rng.smallLength(upTo: max(1, bytes.count / 4)), bytes.count - offset)
    bytes.removeSubrange(offset..<offset + count)
    return "delete \(count) byte(s) at \(offset)"
  }

  private func duplicateChunk(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let source = rng.below(bytes.count)
    let count = min(rng.smallLength(upTo: 8192), bytes.count - source)
    let target = position(in: bytes, &rng)
    bytes.insert(contentsOf: Array(bytes[source..<source + count]), at: target)
    return "duplicate \(count) byte(s) from \(source) at \(target)"
  }

  private func insertRandom(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let target = rng.chance(10) ? bytes.count : position(in: bytes, &rng)
    let count = rng.smallLength(upTo: 256)
    let filler: [UInt8] =
      rng.chance(30)
      ? Array(repeating: rng.pick([0x00, 0xFF, 0x41]), count: count)
      : (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    bytes.insert(contentsOf: filler, at: target)
    return "insert \(count) byte(s) at \(target)"
  }

  private func copyOver(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let source = rng.below(bytes.count)
    let target = position(in: bytes, &rng)
    let count = min(rng.smallLength(upTo: 512), bytes.count - source, bytes.count - target)
    let chunk = Array(bytes[source..<source + count])
    bytes.replaceSubrange(target..<target + count, with: chunk)
    return "copy \(count) byte(s) from \(source) over \(target)"
  }

  private func truncate(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let length =
      rng.chance(30)
      ? max(0, bytes.count - rng.smallLength(upTo: bytes.count)) : rng.below(bytes.count)
    bytes.removeSubrange(length...)
    return "truncate to \(length) byte(s)"
  }

  /// Reads an unsigned integer of `width` bytes at `offset` (bytes past the end read as 0).
  private func read(width: Int, bigEndian: Bool, at offset: Int, in bytes: [UInt8]) -> UInt64 {
    var value: UInt64 = 0
    for index in 0..<width {
      let byte = offset + index < bytes.count ? UInt64(bytes[offset + index]) : 0
      value |= byte << UInt64(8 * (bigEndian ? width - 1 - index : index))
    }
    return value
  }

  /// Writes the low `width` bytes of `value` at `offset`, clipped at the end of the buffer.
  private func write(
    _ value: UInt64, width: Int, bigEndian: Bool, at offset: Int, in bytes: inout [UInt8]
  ) {
    for index in 0..<width where offset + index < bytes.count {
      let shift = UInt64(8 * (bigEndian ? width - 1 - index : index))
      bytes[offset + index] = UInt8(truncatingIfNeeded: value >> shift)
    }
  }
}

/// Values that tend to break parsers: zero, sign boundaries, all ones, powers of two, common
/// timescales, the display matrix's fixed-point -1 and 1 (16.16 and 2.30), float NaN and
/// infinity, and sizes near the file's own length.
enum InterestingValues {
  static func values(width: Int, fileSize: Int) -> [UInt64] {
    let size = UInt64(fileSize)
    switch width {
    case 1: return [0, 1, 0x10, 0x20, 0x40, 0x64, 0x7F, 0x80, 0x81, 0xFE, 0xFF]
    case 2: return [0, 1, 0x80, 0xFF, 0x100, 0x400, 0x1000, 0x7FFF, 0x8000, 0xFFFF, 0xFFFE]
    case 4:
      return [
        0, 1, 2, 8, 0x7F, 0x80, 0xFF, 1000, 0xFFFF, 0x10000, 90000, 0x7FFF_FFFF, 0x8000_0000,
        0xFFFF_FFFF,
        0xFFFF_FFFE, 0xFFFF_0000, 0x4000_0000, 0x7F80_0000, 0x7FC0_0000, size, size &+ 1, size &- 1,
      ]
    default:
      return [
        0, 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000, 0x7FFF_FFFF_FFFF_FFFF,
        0x8000_0000_0000_0000, UInt64.max, size, size &+ 1,
      ]
    }
  }
}
