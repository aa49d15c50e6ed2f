import FoundationEssentials
import LeamojiCore

extension SplitMix64 {
  /// A uniform double in `[0, 1)` built from the top 53 bits (exactly reproducible).
  public mutating func nextUnitDouble() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A standard normal sample (mean 0, variance 1) by the Box-Muller transform.
  ///
  /// Uses one pair of uniforms per call and discards the second normal so that the sequence
  /// does not depend on hidden cached state. `log` and `cos` are `PortableMath`'s, so the
  /// samples are the same bits on every host.
  public mutating func nextGaussian() -> Double {
    let u1 = 1.0 - nextUnitDouble()  // (0, 1]: log is finite
    let u2 = nextUnitDouble()
    return (-2.0 * PortableMath.log(u1)).squareRoot() * PortableMath.cos(2.0 * Double.pi * u2)
  }

  /// An approximately standard normal sample (mean 0, variance 1), cheap and exact: the sum
  /// of the four 16-bit parts of one 64-bit draw (Irwin–Hall with n = 4), centred and scaled.
  ///
  /// Integer sums and one exact-input `Float` multiply, so the same bits on every host and
  /// far cheaper than `nextGaussian` (no `log`, `cos` or `sqrt`). The shape is close
  /// to a normal's (kurtosis 2.7 instead of 3) and the tails stop at ±3.46: right for noise
  /// augmentation, not for statistics that need exact normal tails.
  @inline(__always)
  public mutating func nextFastNormal() -> Float {
    let x = next()
    let sum = (x & 0xFFFF) + ((x >> 16) & 0xFFFF) + ((x >> 32) & 0xFFFF) + (x >> 48)
    // Mean 4 · 65535 / 2; standard deviation √((65536² − 1) / 3) = 37837.23…
    return (Float(Int(sum)) - 131_070) * SplitMix64.fastNormalScale
  }

  /// `1 / √((65536² − 1) / 3)`: the reciprocal standard deviation of four 16-bit uniforms.
  static let fastNormalScale = Float(1 / ((65536.0 * 65536.0 - 1) / 3).squareRoot())
}

/// Weight initialisation schemes.
public enum Initializer {
  /// He (Kaiming) normal initialisation for layers followed by ReLU: each weight is drawn from
  /// N(0, 2 / fanIn), so activations keep their variance through ReLU layers.
  /// - Parameters:
  ///   - shape: the weight's shape.
  ///   - fanIn: inputs feeding one output unit (`in * kh * kw` for a convolution).
  ///   - rng: the seeded generator; draws happen in element order.
  public static func heNormal(shape: [Int], fanIn: Int, rng: inout SplitMix64) -> Tensor {
    let std = (2.0 / Double(max(fanIn, 1))).squareRoot()
    var t = Tensor(shape: shape)
    for i in 0..<t.count { t.data[i] = Float(rng.nextGaussian() * std) }
    return t
  }
}
