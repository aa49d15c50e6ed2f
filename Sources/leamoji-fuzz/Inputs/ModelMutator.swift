/// Mutations aimed at a safetensors file's JSON header: numbers (shapes, data offsets, layer
/// sizes), dtype and layer-type names, structural characters, metadata values and the 8-byte
/// header length. After a change that resizes the header, the length field is usually kept
/// consistent so the mutation reaches the JSON reader instead of failing the first check.
struct ModelMutator {
  /// Applies one header mutation to the model file `bytes` and describes it.
  func mutate(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    guard let header = Self.headerRange(of: bytes) else {
      return ByteMutator(map: FieldMap(fields: Array(0..<8), numbers: [0, 4])).mutate(&bytes, &rng)
    }
    var text = Array(bytes[header])
    let description: String
    switch rng.below(100) {
    case 0..<30: description = replaceNumber(&text, &rng)
    case 30..<45: description = replaceWord(&text, &rng)
    case 45..<60: description = editStructure(&text, &rng)
    case 60..<75: description = replaceMetadataValue(&text, &rng)
    case 75..<85: description = duplicateSlice(&text, &rng)
    default: return replaceLength(&bytes, &rng)
    }
    bytes.replaceSubrange(header, with: text)
    let oldLength = header.count
    if text.count != oldLength, rng.chance(85) {
      Self.writeLength(UInt64(text.count), into: &bytes)
      return description + " (length updated)"
    }
    return description
  }

  /// The JSON header's bytes, from the 8-byte little-endian length (clipped to the file).
  static func headerRange(of bytes: [UInt8]) -> Range<Int>? {
    guard bytes.count > 8 else { return nil }
    let length = bytes[0..<8].enumerated().reduce(UInt64(0)) {
      $0 | UInt64($1.element) << UInt64(8 * $1.offset)
    }
    let end = 8 + Int(min(length, UInt64(bytes.count - 8)))
    return end > 8 ? 8..<end : nil
  }

  static func writeLength(_ length: UInt64, into bytes: inout [UInt8]) {
    for index in 0..<8 { bytes[index] = UInt8(truncatingIfNeeded: length >> UInt64(8 * index)) }
  }

  private func replaceLength(_ bytes: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let current = bytes[0..<8].enumerated().reduce(UInt64(0)) {
      $0 | UInt64($1.element) << UInt64(8 * $1.offset)
    }
    let size = UInt64(bytes.count)
    let value = rng.pick([
      0, 1, 2, current &- 1, current &+ 1, current / 2, current &* 2, size &- 8, size &- 7, size,
      size &+ 1,
      0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF, 0x1_0000_0000, 0x7FFF_FFFF_FFFF_FFFF,
      0x8000_0000_0000_0000, UInt64.max,
    ])
    Self.writeLength(value, into: &bytes)
    return "header length \(current) -> \(value)"
  }

  /// Replaces one run of digits (with its sign, fraction and exponent) by a boundary number.
  private func replaceNumber(_ text: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let numbers = JSONTokens.numberRanges(in: text)
    guard !numbers.isEmpty else { return editStructure(&text, &rng) }
    let range = rng.pick(numbers)
    let old = String(decoding: text[range], as: UTF8.self)
    let new = rng.chance(20) ? adjacentNumber(old, &rng) : rng.pick(JSONTokens.boundaryNumbers)
    text.replaceSubrange(range, with: Array(new.utf8))
    return "number \(old) -> \(new) at header byte \(range.lowerBound)"
  }

  /// The number one above or below `old`, or its double, keeping the mutation small.
  private func adjacentNumber(_ old: String, _ rng: inout SeededRandom) -> String {
    guard let value = Int(old) else { return "0" }
    return String(rng.pick([value - 1, value + 1, value * 2, -value, value / 2]))
  }

  /// Replaces a dtype, layer type, key or label name by another or a broken variant.
  private func replaceWord(_ text: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let occurrences = JSONTokens.words.flatMap { word in
      JSONTokens.ranges(of: word, in: text).map { (word, $0) }
    }
    guard !occurrences.isEmpty else { return editStructure(&text, &rng) }
    let (old, range) = rng.pick(occurrences)
    let new =
      rng.chance(70) ? rng.pick(JSONTokens.words + JSONTokens.oddWords) : String(old.dropLast())
    text.replaceSubrange(range, with: Array(new.utf8))
    return "word \(old) -> \(new) at header byte \(range.lowerBound)"
  }

  /// Deletes, doubles or swaps one structural character: { } [ ] : , or a quote.
  private func editStructure(_ text: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let structural = Array("{}[]:,\"\\".utf8)
    let positions = text.indices.filter { structural.contains(text[$0]) }
    guard !positions.isEmpty else { return "no structural character to edit" }
    let position = rng.pick(positions)
    let old = Character(UnicodeScalar(text[position]))
    switch rng.below(3) {
    case 0:
      text.remove(at: position)
      return "delete '\(old)' at header byte \(position)"
    case 1:
      text.insert(text[position], at: position)
      return "double '\(old)' at header byte \(position)"
    default:
      let new = rng.pick(structural)
      text[position] = new
      return "replace '\(old)' with '\(Character(UnicodeScalar(new)))' at header byte \(position)"
    }
  }

  /// Replaces a whole `__metadata__` value (input size, labels, mean, std, layers, emoji).
  private func replaceMetadataValue(_ text: inout [UInt8], _ rng: inout SeededRandom) -> String {
    let key = rng.pick(Array(JSONTokens.metadataValues.keys).sorted())
    guard let range = JSONTokens.stringValueRange(of: key, in: text) else {
      return replaceNumber(&text, &rng)
    }
    let new = rng.pick(JSONTokens.metadataValues[key]!)
    text.replaceSubrange(range, with: Array(new.utf8))
    return "metadata \(key) -> \(new)"
  }

  /// Copies a slice of the header to another place in it (a repeated key, a nested fragment).
  private func duplicateSlice(_ text: inout [UInt8], _ rng: inout SeededRandom) -> String {
    guard !text.isEmpty else { return "empty header" }
    let start = rng.below(text.count)
    let count = min(rng.smallLength(upTo: 200), text.count - start)
    let target = rng.below(text.count + 1)
    text.insert(contentsOf: Array(text[start..<start + count]), at: target)
    return "duplicate header bytes \(start)..<\(start + count) at \(target)"
  }
}
