import LeamojiCore

/// The fuzzer's random choices, drawn from LeamojiCore's SplitMix64: the same seed gives the
/// same sequence on every machine, so a fuzz case is replayed from its (seed, case index) alone.
struct SeededRandom: RandomNumberGenerator {
  private var bits: SplitMix64

  init(seed: UInt64) { bits = SplitMix64(seed: seed) }

  /// The generator of one case: the run's seed mixed with the case index.
  init(runSeed: UInt64, caseIndex: Int) {
    var mixer = SplitMix64(seed: runSeed ^ 0x9E37_79B9_7F4A_7C15)
    for _ in 0..<2 { _ = mixer.next() }
    bits = SplitMix64(seed: mixer.next() &+ UInt64(caseIndex) &* 0xD1B5_4A32_D192_ED03)
  }

  mutating func next() -> UInt64 { bits.next() }

  /// A number in `0..<bound` (0 when `bound` is not positive).
  mutating func below(_ bound: Int) -> Int {
    bound <= 0 ? 0 : Int(next() % UInt64(bound))
  }

  /// True with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// One element of a non-empty array.
  mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

  /// A length in `1...limit` that is usually small: half the time at most 8, rarely near `limit`.
  mutating func smallLength(upTo limit: Int) -> Int {
    guard limit > 1 else { return 1 }
    let ceiling = pick([8, 64, 512, 4096, limit])
    return 1 + below(min(ceiling, limit))
  }
}
