/// Transcendental functions built only from `+ - * /`, `rounded` and exact bit-level
/// decomposition, so that every platform computes bit-identical results.
///
/// The platform's libm (`Foundation.sin`, `log`) may differ in the last bit between glibc,
/// musl and Apple's libm; a scene generated from a seed must not. These are accurate to about
/// 1e-13 over the ranges the generator uses, which is far more than 8-bit pixels need.
enum PortableMath {
  static let pi = 3.141_592_653_589_793
  static let twoPi = 6.283_185_307_179_586
  static let ln2 = 0.693_147_180_559_945_3

  /// Sine of `x` (radians). Reduced to [-pi/2, pi/2], then a degree-17 Taylor polynomial.
  static func sin(_ x: Double) -> Double {
    guard x.isFinite else { return .nan }
    let k = (x / twoPi).rounded()
    var r = x - k * twoPi  // now in about [-pi, pi]
    if r > pi / 2 {
      r = pi - r
    } else if r < -pi / 2 {
      r = -pi - r
    }
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

  /// Cosine of `x` (radians).
  static func cos(_ x: Double) -> Double {
    sin(x + pi / 2)
  }

  /// Natural logarithm of `x > 0`: exact split into significand and exponent, then the
  /// `atanh` series `log m = 2 (z + z^3/3 + z^5/5 + ...)` with `z = (m - 1) / (m + 1)`.
  static func log(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    var m = x.significand  // in [1, 2)
    var e = Double(Int(x.exponent))
    if m > 1.414_213_562_373_095 {
      m /= 2  // exact
      e += 1
    }
    let z = (m - 1) / (m + 1)  // |z| <= 0.1716
    let z2 = z * z
    var sum = 0.0
    var term = z
    var n = 1.0
    for _ in 0..<13 {
      sum += term / n
      term *= z2
      n += 2
    }
    return e * ln2 + 2 * sum
  }
}
