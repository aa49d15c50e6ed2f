/// The deterministic stage (`--sweep`): one case per number field, boundary value and command,
/// on the first seed of each target — every 32-bit number of the MP4 clip and the PNG (box
/// sizes, timescales, durations, display matrix, sample tables, picture sizes) and every number
/// in the model's JSON header. Random stacking rarely puts one exact value in one exact field;
/// this tries them all.
struct Sweep {
  /// Values written over a 32-bit big-endian number: zero, tiny, fixed-point one, sign
  /// boundaries, fixed-point minus one, all ones.
  static let binaryValues: [UInt32] = [
    0, 1, 2, 0x7FFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_0000, 0xFFFF_FFFE, 0xFFFF_FFFF,
  ]
  /// Texts put in place of a number of the model's header.
  static let textValues = [
    "0", "-1", "1", "2", "65", "4294967296", "99999999999999999999999", "1e309", "0.5", "",
  ]

  /// One case of the sweep: the `field`-th number of the target's first seed set to value `value`.
  struct Item {
    let target: Target
    let command: Command
    let field: Int
    let value: Int
  }

  let seeds: SeedSet
  private(set) var items: [Item] = []

  init(seeds: SeedSet, targets: [Target]) {
    self.seeds = seeds
    for target in targets {
      let fields = Self.fields(of: seeds.seeds(for: target)[0], target: target)
      let values = target == .model ? Self.textValues.indices : Self.binaryValues.indices
      for field in fields.indices {
        for value in values {
          for command in target.commands {
            items.append(Item(target: target, command: command, field: field, value: value))
          }
        }
      }
    }
  }

  func make(_ index: Int) -> FuzzCase {
    let item = items[index % items.count]
    let seed = seeds.seeds(for: item.target)[0]
    var bytes = seed.bytes
    let description: String
    let field = Self.fields(of: seed, target: item.target)[item.field]
    if item.target == .model, let header = ModelMutator.headerRange(of: bytes) {
      let range = JSONTokens.numberRanges(in: Array(bytes[header]))[field]
      let absolute = (header.lowerBound + range.lowerBound)..<(header.lowerBound + range.upperBound)
      let text = Self.textValues[item.value]
      let old = String(decoding: bytes[absolute], as: UTF8.self)
      bytes.replaceSubrange(absolute, with: Array(text.utf8))
      ModelMutator.writeLength(UInt64(header.count - range.count + text.utf8.count), into: &bytes)
      description =
        "header number \(old) at header byte \(range.lowerBound) -> \(text) (length updated)"
    } else {
      let offset = field
      let value = Self.binaryValues[item.value]
      BigEndian.write32(value, into: &bytes, at: offset)
      description =
        "number at \(offset) -> 0x\(String(value, radix: 16))"
        + (item.target == .image
          ? "; repair the CRC of \(PNGChecksums.repair(&bytes)) chunk(s)" : "")
    }
    return FuzzCase(
      index: index, target: item.target, command: item.command, seedName: seed.name, bytes: bytes,
      mutations: [description])
  }

  /// The number fields the sweep walks in a seed: offsets of 32-bit numbers, or for the model
  /// the indices of its header's number tokens.
  private static func fields(of seed: Seed, target: Target) -> [Int] {
    guard target == .model else { return seed.map.numbers.filter { $0 + 4 <= seed.bytes.count } }
    guard let header = ModelMutator.headerRange(of: seed.bytes) else { return [] }
    return Array(JSONTokens.numberRanges(in: Array(seed.bytes[header])).indices)
  }
}
