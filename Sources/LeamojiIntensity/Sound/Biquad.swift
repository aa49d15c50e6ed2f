import LeamojiCore

/// One second-order IIR section (direct form I) with its state: K-weighting's two stages are
/// one each. Coefficients are normalised so that `a0 = 1`.
struct Biquad: Sendable, Equatable {
  /// Feed-forward coefficients `b0, b1, b2`.
  let b: (Double, Double, Double)
  /// Feedback coefficients `a1, a2` (`a0 = 1`).
  let a: (Double, Double)
  private var x1 = 0.0
  private var x2 = 0.0
  private var y1 = 0.0
  private var y2 = 0.0

  init(b: (Double, Double, Double), a: (Double, Double)) {
    self.b = b
    self.a = a
  }

  /// The next output for input `x`: `y = b0 x + b1 x₋₁ + b2 x₋₂ − a1 y₋₁ − a2 y₋₂`.
  mutating func process(_ x: Double) -> Double {
    let y = b.0 * x + b.1 * x1 + b.2 * x2 - a.0 * y1 - a.1 * y2
    x2 = x1
    x1 = x
    y2 = y1
    y1 = y
    return y
  }

  /// The squared magnitude of the frequency response at `hertz` for `sampleRate`:
  /// `|B(e^{jω})|² / |A(e^{jω})|²`, for tests and docs (what a tone's level is changed by).
  func powerGain(atHertz hertz: Double, sampleRate: Double) -> Double {
    let w = PortableMath.twoPi * hertz / sampleRate
    let (c1, s1) = (PortableMath.cos(w), PortableMath.sin(w))
    let (c2, s2) = (PortableMath.cos(2 * w), PortableMath.sin(2 * w))
    let nr = b.0 + b.1 * c1 + b.2 * c2
    let ni = -(b.1 * s1 + b.2 * s2)
    let dr = 1 + a.0 * c1 + a.1 * c2
    let di = -(a.0 * s1 + a.1 * s2)
    return (nr * nr + ni * ni) / (dr * dr + di * di)
  }

  static func == (lhs: Biquad, rhs: Biquad) -> Bool {
    lhs.b == rhs.b && lhs.a == rhs.a && lhs.x1 == rhs.x1 && lhs.x2 == rhs.x2
      && lhs.y1 == rhs.y1 && lhs.y2 == rhs.y2
  }
}
