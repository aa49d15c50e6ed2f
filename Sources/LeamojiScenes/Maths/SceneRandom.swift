import LeamojiCore
/// leamoji's own seeded random number generator: xoshiro256** seeded through SplitMix64.
///
/// Why our own: the standard library's generators and its `random(in:using:)` algorithms are
/// not promised to stay the same across Swift versions or platforms, and the training data,
/// the default model and the sample videos must be regenerable bit for bit from a seed.
/// Every helper here uses only integer arithmetic, exact conversions, `sqrt` (correctly rounded
/// by IEEE 754) and `PortableMath`, so the same seed gives the same numbers everywhere.
public struct SceneRandom: RandomNumberGenerator, Sendable {
  private var s0: UInt64
  private var s1: UInt64
  private var s2: UInt64
  private var s3: UInt64

  /// A generator whose whole stream is determined by `seed` (any value, including 0).
  public init(seed: UInt64) {
    var sm = SplitMix64(seed: seed)
    s0 = sm.next()
    s1 = sm.next()
    s2 = sm.next()
    s3 = sm.next()
  }

  /// The next 64 random bits (xoshiro256**).
  public mutating func next() -> UInt64 {
    let result = rotl(s1 &* 5, 7) &* 9
    let t = s1 << 17
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = rotl(s3, 45)
    return result
  }

  /// Uniform in [0, 1) with 53 random bits.
  public mutating func uniform() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// Uniform in [`low`, `high`).
  public mutating func uniform(_ low: Double, _ high: Double) -> Double {
    low + (high - low) * uniform()
  }

  /// Uniform in [`low`, `high`) as a `Float` (drawn as a `Double`, then rounded).
  public mutating func float(_ low: Float, _ high: Float) -> Float {
    Float(uniform(Double(low), Double(high)))
  }

  /// An unbiased integer in `range` (Lemire's multiply-and-reject method).
  public mutating func int(in range: ClosedRange<Int>) -> Int {
    let span = UInt64(bitPattern: Int64(range.upperBound &- range.lowerBound)) &+ 1
    if span == 0 { return Int(truncatingIfNeeded: next()) }  // the full 64-bit range
    var product = next().multipliedFullWidth(by: span)
    if product.low < span {
      let threshold = (0 &- span) % span
      while product.low < threshold {
        product = next().multipliedFullWidth(by: span)
      }
    }
    return range.lowerBound &+ Int(truncatingIfNeeded: product.high)
  }

  /// An unbiased integer in `range`; the range must not be empty.
  public mutating func int(in range: Range<Int>) -> Int {
    precondition(!range.isEmpty, "empty range")
    return int(in: range.lowerBound...(range.upperBound - 1))
  }

  /// True with probability `p`.
  public mutating func chance(_ p: Double) -> Bool {
    uniform() < p
  }

  /// A normally distributed number (Marsaglia's polar method with portable `log`).
  public mutating func normal(mean: Double = 0, deviation: Double = 1) -> Double {
    while true {
      let u = uniform(-1, 1)
      let v = uniform(-1, 1)
      let s = u * u + v * v
      if s > 0 && s < 1 {
        return mean + deviation * u * (-2 * PortableMath.sceneLog(s) / s).squareRoot()
      }
    }
  }

  /// One element of a non-empty array, uniformly.
  public mutating func pick<T>(_ items: [T]) -> T {
    items[int(in: 0..<items.count)]
  }

  /// An index chosen with probability proportional to `weights` (non-negative, not all zero).
  public mutating func weightedIndex(_ weights: [Double]) -> Int {
    let total = weights.reduce(0, +)
    precondition(total > 0, "weights must not all be zero")
    var x = uniform() * total
    for (i, w) in weights.enumerated() {
      if x < w { return i }
      x -= w
    }
    return weights.count - 1
  }

  /// An independent generator for a sub-task, derived from this one's next output and `tag`,
  /// so that adding draws to one part of a scene does not shift the numbers of another.
  public mutating func fork(_ tag: UInt64) -> SceneRandom {
    SceneRandom(seed: SceneRandom.mix(next(), tag))
  }

  /// A well-mixed 64-bit combination of two values (SplitMix64's finaliser over `a ^ f(b)`).
  /// Used to derive seeds for scenes, segments and data-set items.
  public static func mix(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var z = a ^ (b &* 0x9E37_79B9_7F4A_7C15) ^ 0xD6E8_FEB8_6659_FD93
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  @inline(__always) private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 {
    (x << k) | (x >> (64 - k))
  }
}
