import LeamojiCore
import LeamojiNN
import Testing

/// Building networks from descriptions: shapes, seeded initialisation, invalid descriptions,
/// and the whole network's gradient.
@Suite("Network")
struct NetworkTests {
  @Test func defaultArchitectureShapes() throws {
    let network = try Network(
      specs: LayerSpec.defaultArchitecture(classes: 3), inputShape: [3, 64, 64], seed: 1)
    #expect(network.classCount == 3)
    #expect(
      network.shapes.map(\.description)
        == [
          [3, 64, 64], [16, 64, 64], [16, 64, 64], [16, 32, 32], [32, 32, 32], [32, 32, 32],
          [32, 16, 16],
          [64, 16, 16], [64, 16, 16], [64, 8, 8], [64], [3],
        ].map(\.description))
    #expect(
      network.parameterNames == [
        "conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias", "conv3.weight", "conv3.bias",
        "fc.weight", "fc.bias",
      ])
    #expect(
      network.parameters.map(\.shape) == [
        [16, 3, 3, 3], [16], [32, 16, 3, 3], [32], [64, 32, 3, 3], [64], [3, 64], [3],
      ])
  }

  @Test func sameSeedSameInitDifferentSeedDifferent() throws {
    let specs = LayerSpec.defaultArchitecture(classes: 3)
    let a = try Network(specs: specs, inputShape: [3, 64, 64], seed: 42)
    let b = try Network(specs: specs, inputShape: [3, 64, 64], seed: 42)
    let c = try Network(specs: specs, inputShape: [3, 64, 64], seed: 43)
    #expect(TestSupport.bits(a.parameters) == TestSupport.bits(b.parameters))
    #expect(TestSupport.bits(a.parameters) != TestSupport.bits(c.parameters))
    // Biases start at zero; weights are He-normal: variance ≈ 2 / fan_in.
    #expect(a.namedParameters["conv2.bias"] == Tensor(shape: [32]))
    let w = a.namedParameters["conv3.weight"]!.data
    let variance = w.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(w.count)
    #expect(abs(variance - 2.0 / 288) < 0.1 * 2.0 / 288)
  }

  @Test func invalidDescriptionsThrow() {
    #expect(
      throws: NNError.shapeMismatch(
        layer: 0, reason: "conv2d conv1 expects [3, H, W] but gets [4, 8, 8]")
    ) {
      try Network(specs: TestSupport.smallSpecs(), inputShape: [4, 8, 8], seed: 1)
    }
    #expect(throws: NNError.self) {
      // No vector output.
      try Network(specs: [.maxPool2d(kernel: 2, stride: 2)], inputShape: [3, 8, 8], seed: 1)
    }
    #expect(throws: NNError.self) {
      try Network(
        specs: [
          .conv2d(name: "a", inChannels: 3, outChannels: 0, kernel: 3, stride: 1, padding: 1)
        ],
        inputShape: [3, 8, 8], seed: 1)
    }
    #expect(throws: NNError.self) {
      try Network(
        specs: [
          .linear(name: "a", inFeatures: 3, outFeatures: 2),
          .linear(name: "a", inFeatures: 2, outFeatures: 2),
        ],
        inputShape: [3], seed: 1)
    }
    #expect(throws: NNError.self) {
      let net = try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 8, 8], seed: 1)
      _ = try net.evaluate(Tensor(shape: [2, 3, 8, 8]), labels: [0, 3], threads: 1)
    }
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
        var plus = params
        var minus = params
        plus[t].data[i] += eps
        minus[t].data[i] -= eps
        let h = Double(plus[t].data[i]) - Double(minus[t].data[i])
        let numeric = Float((try meanLoss(plus) - meanLoss(minus)) / h)
        let analytic = grads[t].data[i]
        // Looser than the per-layer checks (relative 1e-3): the whole float32 forward pass puts
        // ~1e-6 of rounding noise on the loss, i.e. ~1e-3 on a difference quotient with step 2e-3,
        // and a step can cross a ReLU or max-pool kink somewhere in the network.
        #expect(
          abs(numeric - analytic) <= 1e-3 + 1e-2 * max(abs(numeric), abs(analytic)),
          "\(net.parameterNames[t])[\(i)]: \(analytic) vs \(numeric)")
      }
    }
  }
}
