/// SplitMix64: a tiny, fast, seedable pseudo-random generator with a fixed algorithm.
///
/// We use our own generator (not `SystemRandomNumberGenerator`) so that the same seed gives
/// the same weights on every platform and Swift version — a requirement for reproducible
/// training, and replayable test data.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  @usableFromInline var state: UInt64

  /// A generator whose whole sequence is determined by `seed`.
  @inlinable public init(seed: UInt64) { state = seed }

  /// The next 64 random bits. Inlinable: image augmentation draws one per pixel.
  @inlinable public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
