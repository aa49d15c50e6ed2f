/// Transcendental functions built only from `+ - * /`, rounding and exact bit-level scaling, so
/// that a model trained from a seed, and a scene generated from one, are the same bits on every
/// host. The one place leamoji computes `exp`, `log`, `sin` and `cos`.
///
/// The platform's libm is not: glibc picks FMA or SSE2 variants of `exp`, `log`, `pow`, `sin`
/// and `cos` at run time (ifunc), and other C libraries use other algorithms; each may differ
/// in the last bit, and training grows such differences epoch by epoch. These are accurate to
/// a few units in the last place of a `Double` over the ranges used here (softmax, Box–Muller,
/// the learning-rate schedule, Adam's bias correction), far below the `Float` they feed.
public enum PortableMath {
  public static let pi = 3.141_592_653_589_793
  public static let twoPi = 6.283_185_307_179_586
  /// ln 2 split in a part with a short significand (so `k * ln2Hi` is exact for |k| < 2^20)
  /// and the rest.
  static let ln2Hi = 0.693_147_180_369_123_816_49
  static let ln2Lo = 1.908_214_929_270_587_700_02e-10
  public static let ln2 = 0.693_147_180_559_945_3

  /// `x` to the power `n ≥ 0` by repeated squaring (a fixed sequence of multiplications).
  public static func power(_ x: Double, _ n: Int) -> Double {
    precondition(n >= 0, "negative exponent")
    var result = 1.0
    var base = x
    var e = n
    while e > 0 {
      if e & 1 == 1 { result *= base }
      base *= base
      e >>= 1
    }
    return result
  }

  /// `e` to the power `x`: `x = k ln 2 + r` with |r| ≤ ln 2 / 2, a degree-13 Taylor polynomial
  /// for `e^r`, then an exact scaling by `2^k`.
  public static func exp(_ x: Double) -> Double {
    if x.isNaN { return x }
    if x > 709.78 { return .infinity }
    if x < -745.2 { return 0 }
    let k = (x / ln2).rounded()
    let r = (x - k * ln2Hi) - k * ln2Lo
    var p = 1.0 / 6_227_020_800.0  // 1/13!
    p = p * r + 1.0 / 479_001_600.0
    p = p * r + 1.0 / 39_916_800.0
    p = p * r + 1.0 / 3_628_800.0
    p = p * r + 1.0 / 362_880.0
    p = p * r + 1.0 / 40_320.0
    p = p * r + 1.0 / 5_040.0
    p = p * r + 1.0 / 720.0
    p = p * r + 1.0 / 120.0
    p = p * r + 1.0 / 24.0
    p = p * r + 1.0 / 6.0
    p = p * r + 0.5
    p = p * r + 1.0
    p = p * r + 1.0
    // Scale in two exact steps so results near the subnormal range round only once.
    let ki = Int(k)
    if ki < -1000 {
      return p * Double(sign: .plus, exponent: ki + 1000, significand: 1) * 0x1p-1000
    }
    return Double(sign: .plus, exponent: ki, significand: p)
  }

  /// Natural logarithm of `x > 0`: exact split into significand and exponent, then the
  /// `atanh` series `log m = 2 (z + z³/3 + z⁵/5 + …)` with `z = (m - 1) / (m + 1)`.
  public static func log(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : (x == .infinity ? x : .nan) }
    let (e, sum) = logParts(x)
    return (e * ln2Hi + 2 * sum) + e * ln2Lo
  }

  /// Sine of `x` (radians): reduced to [-π/2, π/2], then a degree-23 Taylor polynomial.
  public static func sin(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    let r = sineArgument(x)
    let r2 = r * r
    var p = -1.0 / 25_852_016_738_884_976_640_000.0  // -1/23!
    p = p * r2 + 1.0 / 51_090_942_171_709_440_000.0  // 1/21!
    p = p * r2 - 1.0 / 121_645_100_408_832_000.0  // 1/19!
    p = p * r2 + 1.0 / 355_687_428_096_000.0  // 1/17!
    p = p * r2 - 1.0 / 1_307_674_368_000.0
    p = p * r2 + 1.0 / 6_227_020_800.0
    p = p * r2 - 1.0 / 39_916_800.0
    p = p * r2 + 1.0 / 362_880.0
    p = p * r2 - 1.0 / 5_040.0
    p = p * r2 + 1.0 / 120.0
    p = p * r2 - 1.0 / 6.0
    p = p * r2 + 1.0
    return p * r
  }

  /// Cosine of `x` (radians).
  public static func cos(_ x: Double) -> Double { sin(x + pi / 2) }

  // MARK: The scene generator's variants

  /// Sine of `x` (radians) as the scene generator computes it: reduced to [-pi/2, pi/2], then
  /// a degree-17 Taylor polynomial (about 1e-13). Not `sin`: every generated scene, the sample
  /// videos and the models trained on them depend on these exact bits.
  public static func sceneSin(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    let r = sineArgument(x)
    let r2 = r * r
    // Horner form of r - r^3/3! + r^5/5! - ... - r^15/15! + r^17/17!
    var p = 1.0 / 355_687_428_096_000.0  // 1/17!
    p = p * r2 - 1.0 / 1_307_674_368_000.0  // 1/15!
    p = p * r2 + 1.0 / 6_227_020_800.0  // 1/13!
    p = p * r2 - 1.0 / 39_916_800.0  // 1/11!
    p = p * r2 + 1.0 / 362_880.0  // 1/9!
    p = p * r2 - 1.0 / 5_040.0  // 1/7!
    p = p * r2 + 1.0 / 120.0
    p = p * r2 - 1.0 / 6.0
    p = p * r2 + 1.0
    return p * r
  }

  /// Cosine of `x` (radians) as the scene generator computes it (`sceneSin` shifted).
  public static func sceneCos(_ x: Double) -> Double {
    sceneSin(x + pi / 2)
  }

  /// Natural logarithm of `x > 0` as the scene generator computes it (`log` adds ln 2 in two
  /// parts for the last bit; this does not): exact split into significand and exponent, then the
  /// `atanh` series `log m = 2 (z + z^3/3 + z^5/5 + ...)` with `z = (m - 1) / (m + 1)`.
  public static func sceneLog(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    let (e, sum) = logParts(x)
    return e * ln2 + 2 * sum
  }

  // MARK: Shared steps

  /// Finite `x` reduced to [-π/2, π/2] with the same sine: `x - k·2π` in about [-π, π], then
  /// folded about ±π/2.
  private static func sineArgument(_ x: Double) -> Double {
    let k = (x / twoPi).rounded()
    var r = x - k * twoPi
    if r > pi / 2 {
      r = pi - r
    } else if r < -pi / 2 {
      r = -pi - r
    }
    return r
  }

  /// For finite `x > 0`, `e` and `s` with `log x = e·ln 2 + 2s`: an exact split `x = m·2^e`
  /// with m in (√2/2, √2] (subnormals are normalised by `significand`/`exponent`), and `s` the
  /// `atanh` series `z + z³/3 + z⁵/5 + …` (13 terms) with `z = (m - 1) / (m + 1)`, |z| ≤ 0.1716.
  private static func logParts(_ x: Double) -> (exponent: Double, series: Double) {
    var m = x.significand
    var e = Double(Int(x.exponent))
    if m > 1.414_213_562_373_095 {
      m /= 2  // exact
      e += 1
    }
    let z = (m - 1) / (m + 1)
    let z2 = z * z
    var sum = 0.0
    var term = z
    var n = 1.0
    for _ in 0..<13 {
      sum += term / n
      term *= z2
      n += 2
    }
    return (e, sum)
  }
}
