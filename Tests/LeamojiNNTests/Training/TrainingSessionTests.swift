import LeamojiNN
import MallocCounter
import Testing

/// The flat-buffer training path: the same bits as `Network.trainStep`, frozen tensors left
/// alone, and no heap allocation in a steady-state step.
@Suite("Training session")
struct TrainingSessionTests {
  let batch = TestSupport.random([5, 3, 8, 8], seed: 100)
  let labels = [0, 1, 2, 1, 0]

  func network() throws -> Network {
    try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 8, 8], seed: 7)
  }

  @Test func matchesTrainStepBitForBit() throws {
    var reference = try network()
    var adam = AdamW(learningRate: 1e-2, weightDecay: 1e-2)
    var sgd = SGD(learningRate: 0.05, momentum: 0.9, weightDecay: 1e-3)
    let adamSession = TrainingSession(network: try network(), optimizer: adam)
    var sgdReference = try network()
    let sgdSession = TrainingSession(network: try network(), optimizer: sgd)
    for step in 0..<4 {
      let r = try reference.trainStep(batch, labels: labels, optimizer: &adam, threads: 2)
      let s = try adamSession.step(batch, labels: labels, threads: step % 2 + 1)
      #expect(r == s)
      try sgdReference.trainStep(batch, labels: labels, optimizer: &sgd, threads: 1)
      try sgdSession.step(batch, labels: labels, threads: 2)
      if step == 1 {  // reading the network mid-run must not disturb the run
        #expect(
          TestSupport.bits(adamSession.network.parameters) == TestSupport.bits(reference.parameters)
        )
      }
    }
    #expect(
      TestSupport.bits(adamSession.network.parameters) == TestSupport.bits(reference.parameters))
    #expect(
      TestSupport.bits(sgdSession.network.parameters) == TestSupport.bits(sgdReference.parameters))
    #expect(TestSupport.bits(reference.parameters) != TestSupport.bits(try network().parameters))
  }

  @Test func frozenTensorsStayAsTheyWere() throws {
    let start = try network()
    let session = TrainingSession(
      network: start, optimizer: AdamW(learningRate: 1e-2, weightDecay: 1e-2), frozen: 2)
    for _ in 0..<3 { try session.step(batch, labels: labels, threads: 2) }
    let before = TestSupport.bits(start.parameters)
    let after = TestSupport.bits(session.network.parameters)
    #expect(Array(after.prefix(2)) == Array(before.prefix(2)))
    #expect(Array(after.dropFirst(2)) != Array(before.dropFirst(2)))
  }

  @Test func badBatchesAreRefused() throws {
    let session = TrainingSession(network: try network(), optimizer: SGD())
    #expect(throws: NNError.self) {
      try session.step(TestSupport.random([2, 3, 8, 7], seed: 1), labels: [0, 1])
    }
    #expect(throws: NNError.self) { try session.step(batch, labels: [0, 1, 2, 1, 3]) }
    #expect(throws: NNError.self) { try session.step(batch, labels: [0]) }
  }

  /// Counts the heap allocations of steady-state steps on this thread (`MallocCounter`
  /// interposes malloc in the test executable); the first steps size every buffer.
  /// (Not run under a sanitizer, which owns malloc: the counter is compiled out there.)
  @Test(
    .enabled(if: leamoji_malloc_counter_available() == 1, "no allocation counter in this build"))
  func steadyStateStepsAllocateNothing() throws {
    // The counter works: an array allocates.
    leamoji_malloc_counter_start()
    let probe = [Float](repeating: 1, count: Int(batch.count / 2 + 1))
    #expect(leamoji_malloc_counter_stop() >= 1)
    #expect(probe.count > 0)

    let big = try Network(
      specs: LayerSpec.defaultArchitecture(classes: 3), inputShape: [3, 32, 32], seed: 5)
    let images = TestSupport.random([8, 3, 32, 32], seed: 9)
    let labels = [0, 1, 2, 0, 1, 2, 0, 1]
    for (network, input, threads) in [
      (try network(), batch, 1), (big, images, 1),
    ] {
      let want = input.shape[0] == 5 ? self.labels : labels
      let session = TrainingSession(
        network: network, optimizer: AdamW(learningRate: 1e-3, weightDecay: 1e-4))
      for _ in 0..<2 { try session.step(input, labels: want, threads: threads) }
      var sgdSession = TrainingSession(network: network, optimizer: SGD(learningRate: 0.01))
      for _ in 0..<2 { try sgdSession.step(input, labels: want, threads: threads) }
      leamoji_malloc_counter_start()
      for step in 0..<5 {
        session.optimizer.learningRate = 1e-3 / Float(step + 1)
        try session.step(input, labels: want, threads: threads)
        try sgdSession.step(input, labels: want, threads: threads)
      }
      let allocations = leamoji_malloc_counter_stop()
      #expect(allocations == 0, "\(allocations) allocations in 10 training steps")
      sgdSession = TrainingSession(network: network, optimizer: SGD())
    }
  }
}
