import LeamojiCore
import LeamojiNN
import Testing

/// Each layer's hand-written backward pass against central finite differences, in float32 with
/// a relative tolerance of 1e-3 (plus 1e-4 absolute, `TestSupport.worstError`). The scalar checked is `L = Σ r ⊙ layer(x)` for a random `r`.
@Suite("Gradient checks")
struct GradientCheckTests {
  /// Checks ∂L/∂input and ∂L/∂parameters of `layer` at `x`.
  func check(_ layer: some Layer, input x: Tensor, eps: Float, seed: UInt64) {
    let y = layer.forward(x)
    let r = TestSupport.random(y.shape, seed: seed)
    var grads = layer.parameters.map { Tensor(shape: $0.shape) }
    let dx = layer.backward(input: x, output: y, outputGradient: r, parameterGradients: &grads,
                            needsInputGradient: true)
    let numericDx = TestSupport.numericGradient(of: x, eps: eps) { TestSupport.dot(layer.forward($0), r) }
    #expect(dx != nil)
    if let dx { #expect(TestSupport.worstError(dx, numericDx) <= 0, "input gradient of \(layer.spec)") }

    for p in 0..<layer.parameters.count {
      let numeric = TestSupport.numericGradient(of: layer.parameters[p], eps: eps) { value in
        var changed = layer
        changed.parameters[p] = value
        return TestSupport.dot(changed.forward(x), r)
      }
      #expect(TestSupport.worstError(grads[p], numeric) <= 0, "parameter \(p) of \(layer.spec)")
    }

    // Gradients accumulate: a second backward pass doubles them.
    var twice = grads
    _ = layer.backward(input: x, output: y, outputGradient: r, parameterGradients: &twice,
                       needsInputGradient: false)
    for p in 0..<grads.count {
      #expect(TestSupport.worstError(twice[p], Tensor(shape: grads[p].shape, data: grads[p].data.map { 2 * $0 }),
                                     rel: 1e-5, abs: 1e-6) <= 0)
    }
  }

  @Test func conv2d3x3Padding1() {
    var rng = SplitMix64(seed: 1)
    var conv = Conv2D(name: "c", inChannels: 2, outChannels: 3, kernel: 3, stride: 1, padding: 1, rng: &rng)
    conv.bias = TestSupport.random([3], seed: 2)
    check(conv, input: TestSupport.random([2, 5, 6], seed: 3), eps: 1e-2, seed: 4)
  }

  @Test func conv2dStride2NoPadding() {
    var rng = SplitMix64(seed: 5)
    let conv = Conv2D(name: "c", inChannels: 3, outChannels: 5, kernel: 3, stride: 2, padding: 0, rng: &rng)
    check(conv, input: TestSupport.random([3, 7, 7], seed: 6), eps: 1e-2, seed: 7)
  }

  @Test func conv2dKernel5Padding2() {
    var rng = SplitMix64(seed: 8)
    let conv = Conv2D(name: "c", inChannels: 1, outChannels: 2, kernel: 5, stride: 1, padding: 2, rng: &rng)
    check(conv, input: TestSupport.random([1, 4, 5], seed: 9), eps: 1e-2, seed: 10)
  }

  @Test func relu() {
    // Keep inputs away from the kink at 0 so the finite difference does not cross it.
    var x = TestSupport.random([2, 3, 4], seed: 11)
    x.data = x.data.map { $0 >= 0 ? $0 + 0.1 : $0 - 0.1 }
    check(ReLU(), input: x, eps: 1e-3, seed: 12)
  }

  @Test func maxPool() {
    // Distinct, well separated values: a small step never changes which element is the maximum.
    var rng = SplitMix64(seed: 13)
    var values = (0..<(2 * 6 * 5)).map { Float($0) * 0.1 }
    values.shuffle(using: &rng)
    check(MaxPool2D(kernel: 2, stride: 2), input: Tensor(shape: [2, 6, 5], data: values), eps: 1e-3, seed: 14)
    check(MaxPool2D(kernel: 3, stride: 1), input: Tensor(shape: [2, 6, 5], data: values), eps: 1e-3, seed: 15)
  }

  @Test func globalAvgPool() {
    check(GlobalAvgPool(), input: TestSupport.random([4, 3, 5], seed: 16), eps: 1e-2, seed: 17)
  }

  @Test func flatten() {
    check(Flatten(), input: TestSupport.random([2, 3, 2], seed: 18), eps: 1e-2, seed: 19)
  }

  @Test func linear() {
    var rng = SplitMix64(seed: 20)
    var fc = Linear(name: "fc", inFeatures: 7, outFeatures: 4, rng: &rng)
    fc.bias = TestSupport.random([4], seed: 21)
    check(fc, input: TestSupport.random([7], seed: 22), eps: 1e-2, seed: 23)
  }

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

  /// The whole network (conv, relu, maxpool, gap, linear and the loss composed) against finite
  /// differences of the batch mean loss, on a few parameters of each tensor.
  @Test func wholeNetwork() throws {
    let net = try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 6, 6], seed: 25)
    let batch = TestSupport.random([2, 3, 6, 6], seed: 26)
    let labels = [0, 2]
    let (_, grads) = try net.gradients(batch, labels: labels, threads: 1)
    // The mean loss in Double, so rounding does not swamp the small finite-difference step.
    func meanLoss(_ parameters: [Tensor]) throws -> Double {
      var n = net
      try n.setParameters(parameters)
      let z = try n.logits(batch, threads: 1)
      return (0..<2).reduce(0.0) { sum, b in
        let row = z.slice(b)
        return sum + SoftmaxCrossEntropy.logSumExp(row) - Double(row.data[labels[b]])
      } / 2
    }
    let params = net.parameters
    let eps: Float = 1e-3
    for t in 0..<params.count {
      for i in stride(from: 0, to: params[t].count, by: max(1, params[t].count / 5)) {
        var plus = params, minus = params
        plus[t].data[i] += eps
        minus[t].data[i] -= eps
        let h = Double(plus[t].data[i]) - Double(minus[t].data[i])
        let numeric = Float((try meanLoss(plus) - meanLoss(minus)) / h)
        let analytic = grads[t].data[i]
        // Looser than the per-layer checks (relative 1e-3): the whole float32 forward pass puts
        // ~1e-6 of rounding noise on the loss, i.e. ~1e-3 on a difference quotient with step 2e-3,
        // and a step can cross a ReLU or max-pool kink somewhere in the network.
        #expect(abs(numeric - analytic) <= 1e-3 + 1e-2 * max(abs(numeric), abs(analytic)),
                "\(net.parameterNames[t])[\(i)]: \(analytic) vs \(numeric)")
      }
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
