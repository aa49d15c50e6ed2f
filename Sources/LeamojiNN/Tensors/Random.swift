import Foundation
import LeamojiCore

extension SplitMix64 {
  /// A uniform double in `[0, 1)` built from the top 53 bits (exactly reproducible).
  public mutating func nextUnitDouble() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  /// A standard normal sample (mean 0, variance 1) by the Box-Muller transform.
  ///
  /// Uses one pair of uniforms per call and discards the second normal so that the sequence
  /// does not depend on hidden cached state.
  public mutating func nextGaussian() -> Double {
    let u1 = 1.0 - nextUnitDouble()  // (0, 1]: log is finite
    let u2 = nextUnitDouble()
    return (-2.0 * log(u1)).squareRoot() * cos(2.0 * Double.pi * u2)
  }
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
