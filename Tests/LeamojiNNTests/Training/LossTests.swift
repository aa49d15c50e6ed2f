import LeamojiNN
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Softmax cross-entropy: its gradient and its stability.
@Suite("Softmax cross-entropy")
struct LossTests {
  @Test func softmaxCrossEntropy() {
    let z = TestSupport.random([5], seed: 24, range: -3...3)
    for label in 0..<5 {
      let (_, g) = SoftmaxCrossEntropy.lossAndGradient(logits: z, label: label, scale: 0.5)
      let numeric = TestSupport.numericGradient(of: z, eps: 1e-2) {
        0.5 * Double(SoftmaxCrossEntropy.lossAndGradient(logits: $0, label: label).loss)
      }
      #expect(TestSupport.worstError(g, numeric) <= 0)
    }
  }

  @Test func softmaxCrossEntropyIsStableForHugeLogits() {
    let z = Tensor(shape: [3], data: [1000, -1000, 999])
    let (loss, g) = SoftmaxCrossEntropy.lossAndGradient(logits: z, label: 2)
    let expected = Float(1 + log1p(exp(-1.0)))  // log(e^1000 + e^999) - 999
    #expect(abs(loss - expected) < 1e-5)
    #expect(g.isFinite)
    let p = SoftmaxCrossEntropy.softmax(z)
    #expect(p.isFinite)
    #expect(abs(p.data.reduce(0, +) - 1) < 1e-6)
    #expect(abs(SoftmaxCrossEntropy.logSumExp(z) - (1000 + log1p(exp(-1.0)))) < 1e-9)
  }
}
