import LeamojiNN
import Testing

/// Determinism, optimizers and a tiny end-to-end training run.
@Suite("Training")
struct TrainingTests {
  /// `steps` AdamW steps on a fixed random batch; returns the network and per-step results.
  func train(threads: Int, steps: Int, seed: UInt64 = 7) throws -> (Network, [BatchResult]) {
    var net = try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 8, 8], seed: seed)
    let batch = TestSupport.random([5, 3, 8, 8], seed: 100)
    let labels = [0, 1, 2, 1, 0]
    var adam = AdamW(learningRate: 1e-2, weightDecay: 1e-2)
    var results: [BatchResult] = []
    for _ in 0..<steps {
      results.append(try net.trainStep(batch, labels: labels, optimizer: &adam, threads: threads))
    }
    return (net, results)
  }

  @Test func oneAndTwoThreadsGiveBitIdenticalWeights() throws {
    let (a, ra) = try train(threads: 1, steps: 3)
    let (b, rb) = try train(threads: 2, steps: 3)
    let (c, _) = try train(threads: 3, steps: 3)
    #expect(TestSupport.bits(a.parameters) == TestSupport.bits(b.parameters))
    #expect(TestSupport.bits(a.parameters) == TestSupport.bits(c.parameters))
    #expect(ra.map(\.meanLoss.bitPattern) == rb.map(\.meanLoss.bitPattern))
    let initial = try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 8, 8], seed: 7)
    #expect(TestSupport.bits(a.parameters) != TestSupport.bits(initial.parameters), "training changed nothing")

    let batch = TestSupport.random([3, 3, 8, 8], seed: 200)
    #expect(try a.logits(batch, threads: 1) == a.logits(batch, threads: 2))
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

  @Test func snapshotRestoresParameters() throws {
    let (trained, _) = try train(threads: 2, steps: 1)
    let saved = trained.snapshot()
    var net = trained
    var sgd = SGD(learningRate: 0.1)
    try net.trainStep(TestSupport.random([2, 3, 8, 8], seed: 1), labels: [0, 1], optimizer: &sgd, threads: 2)
    #expect(net.snapshot() != saved)
    try net.restore(saved)
    #expect(TestSupport.bits(net.parameters) == TestSupport.bits(trained.parameters))
    let other = try Network(specs: TestSupport.smallSpecs(classes: 4), inputShape: [3, 8, 8], seed: 1)
    #expect(throws: NNError.self) { try net.restore(other.snapshot()) }
  }

  @Test func optimizersFollowTheirFormulas() {
    let g = [Tensor(shape: [1, 2], data: [0.5, -2]), Tensor(shape: [1], data: [1])]
    var p = [Tensor(shape: [1, 2], data: [1, 1]), Tensor(shape: [1], data: [3])]
    var sgd = SGD(learningRate: 0.1, momentum: 0.9, weightDecay: 0.5)
    sgd.update(&p, gradients: g)
    // v = g + 0.5·p (weights only), p -= 0.1·v
    let lr: Float = 0.1
    let weights: [Float] = [1 - lr * (0.5 + 0.5), 1 - lr * (-2 + 0.5)]
    let biases: [Float] = [3 - lr * 1]
    #expect(p[0].data == weights)
    #expect(p[1].data == biases)

    var q = [Tensor(shape: [1, 2], data: [1, 1]), Tensor(shape: [1], data: [3])]
    var adam = AdamW(learningRate: 0.1, weightDecay: 0.5)
    adam.update(&q, gradients: g)
    // First step: m̂ = g, v̂ = g², so the step is lr·sign(g) (up to ε); decay first.
    #expect(abs(q[0].data[0] - (1 * (1 - 0.05) - 0.1)) < 1e-6)
    #expect(abs(q[0].data[1] - (1 * (1 - 0.05) + 0.1)) < 1e-6)
    #expect(abs(q[1].data[0] - (3 - 0.1)) < 1e-6)
    #expect(adam.step == 1)
  }

  /// Six random 3x16x16 images with three labels are memorised: 100% training accuracy.
  @Test func overfitsAFewImages() throws {
    var net = try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 16, 16], seed: 3)
    let batch = TestSupport.random([6, 3, 16, 16], seed: 4)
    let labels = [0, 1, 2, 0, 1, 2]
    var adam = AdamW(learningRate: 2e-2, weightDecay: 0)
    var first: BatchResult? = nil
    var result = try net.evaluate(batch, labels: labels, threads: 2)
    var steps = 0
    while result.correct < 6 && steps < 150 {
      let r = try net.trainStep(batch, labels: labels, optimizer: &adam, threads: 2)
      if first == nil { first = r }
      steps += 1
      if steps % 5 == 0 { result = try net.evaluate(batch, labels: labels, threads: 2) }
    }
    #expect(result.correct == 6, "only \(result.correct)/6 after \(steps) steps")
    #expect(result.meanLoss < (first?.meanLoss ?? 0))
  }

  @Test func modelPredictionsAreProbabilities() throws {
    let model = try Model.makeDefault(labels: ["happy", "neutral", "scary"], width: 16, height: 16, seed: 9)
    var rgb = [UInt8](repeating: 0, count: 16 * 16 * 3)
    for i in rgb.indices { rgb[i] = UInt8(i % 251) }
    let x = try model.preprocess(rgb: rgb, width: 16, height: 16)
    let predictions = try model.predict(Tensor.stack([x, x]), threads: 2)
    #expect(predictions.count == 2)
    #expect(predictions[0] == predictions[1])
    #expect(abs(predictions[0].probabilities.reduce(0, +) - 1) < 1e-5)
    #expect(predictions[0].label == model.labels[predictions[0].classIndex])
    let probs = try model.network.probabilities(Tensor.stack([x]), threads: 1)
    #expect(probs.data == predictions[0].probabilities)
    #expect(throws: NNError.self) { try model.preprocess(rgb: rgb, width: 8, height: 32) }
  }
}
