import Foundation
import LeamojiCore
import LeamojiNN
import Testing

/// The host-independent maths of the training path against the platform's, and the cheap
/// noise generator's distribution.
@Suite("Portable maths")
struct PortableMathTests {
  func relativeError(_ a: Double, _ b: Double) -> Double {
    b == 0 ? abs(a) : abs(a - b) / abs(b)
  }

  @Test func expAndLogMatchThePlatform() {
    var rng = SplitMix64(seed: 1)
    var worstExp = 0.0
    var worstLog = 0.0
    for _ in 0..<20_000 {
      let x = -80 * rng.nextUnitDouble() + 10  // softmax arguments are ≤ 0; a few above
      worstExp = max(worstExp, relativeError(PortableMath.exp(x), Foundation.exp(x)))
      let y = Foundation.exp(60 * rng.nextUnitDouble() - 30)
      worstLog = max(
        worstLog, abs(PortableMath.log(y) - Foundation.log(y)) / max(1, abs(Foundation.log(y))))
    }
    #expect(worstExp < 1e-15, "exp relative error \(worstExp)")
    #expect(worstLog < 1e-15, "log error \(worstLog)")
    #expect(PortableMath.exp(0) == 1)
    #expect(PortableMath.exp(-800) == 0)
    #expect(PortableMath.exp(-740) > 0 && PortableMath.exp(-740) < 1e-320)
    #expect(PortableMath.exp(800) == .infinity)
    #expect(PortableMath.log(1) == 0)
    #expect(PortableMath.log(0) == -.infinity)
    #expect(PortableMath.log(-1).isNaN)
  }

  @Test func cosAndPowerMatchThePlatform() {
    for i in 0...1000 {
      let x = Double(i) / 1000 * 2 * Double.pi
      #expect(abs(PortableMath.cos(x) - Foundation.cos(x)) < 1e-14)
    }
    for step in [0, 1, 2, 7, 100, 1000, 12_345] {
      let p = PortableMath.power(0.999, step)
      #expect(relativeError(p, Foundation.pow(0.999, Double(step))) < 1e-12)
    }
  }

  @Test func fastNormalHasUnitVarianceAndBoundedTails() {
    var rng = SplitMix64(seed: 42)
    let n = 200_000
    var sum = 0.0
    var squares = 0.0
    var fourth = 0.0
    var largest: Float = 0
    for _ in 0..<n {
      let x = rng.nextFastNormal()
      sum += Double(x)
      squares += Double(x) * Double(x)
      fourth += pow(Double(x), 4)
      largest = max(largest, abs(x))
    }
    let mean = sum / Double(n)
    let variance = squares / Double(n) - mean * mean
    #expect(abs(mean) < 0.01)
    #expect(abs(variance - 1) < 0.01)
    #expect(abs(fourth / Double(n) - 2.7) < 0.05, "kurtosis of four summed uniforms")
    #expect(largest <= 3.47)
    // Same seed, same bits.
    var a = SplitMix64(seed: 9)
    var b = SplitMix64(seed: 9)
    #expect(
      (0..<100).map { _ in a.nextFastNormal().bitPattern }
        == (0..<100).map { _ in b.nextFastNormal().bitPattern })
  }
}
