import LeamojiNN
import Testing

/// Training steps: bit-identical with any thread count, snapshots, and a tiny run that
/// memorises its images.
@Suite("Network training")
struct NetworkTrainingTests {
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
    #expect(
      TestSupport.bits(a.parameters) != TestSupport.bits(initial.parameters),
      "training changed nothing")

    let batch = TestSupport.random([3, 3, 8, 8], seed: 200)
    #expect(try a.logits(batch, threads: 1) == a.logits(batch, threads: 2))
  }

  @Test func snapshotRestoresParameters() throws {
    let (trained, _) = try train(threads: 2, steps: 1)
    let saved = trained.snapshot()
    var net = trained
    var sgd = SGD(learningRate: 0.1)
    try net.trainStep(
      TestSupport.random([2, 3, 8, 8], seed: 1), labels: [0, 1], optimizer: &sgd, threads: 2)
    #expect(net.snapshot() != saved)
    try net.restore(saved)
    #expect(TestSupport.bits(net.parameters) == TestSupport.bits(trained.parameters))
    let other = try Network(
      specs: TestSupport.smallSpecs(classes: 4), inputShape: [3, 8, 8], seed: 1)
    #expect(throws: NNError.self) { try net.restore(other.snapshot()) }
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
}
