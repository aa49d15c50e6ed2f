import LeamojiCore
import Testing

@testable import LeamojiNN

/// Batch norm and dropout training on the engine (runs between batch norms, seeded dropout
/// masks) against the layer-by-layer reference (`Network.batchGradients`, the layers' tensor
/// forms) and against finite differences of the engine's own loss.
@Suite("Engine: batch norm and dropout training")
struct EngineTrainingTests {
  /// A network whose batch norms have trained-looking parameters and running statistics.
  static func network(dropout: Double = 0.3) throws -> Network {
    try BatchNormDropoutTests.network(seed: 3, dropout: dropout)
  }

  /// The engine trains such networks: three runs (two batch norms), not layer by layer.
  @Test func batchNormNetworksTrainOnTheEngine() throws {
    let network = try Self.network()
    #expect(!network.trainsLayerByLayer)
    #expect(network.engine?.runs.count == 3)
    #expect(network.engine?.norms.count == 2)
  }

  /// A batch-norm network trained on the engine equals the layer-by-layer reference: the same
  /// loss, gradients and running statistics, bit for bit, on 1 and 2 threads.
  @Test(arguments: [1, 2])
  func batchNormEqualsLayerByLayer(threads: Int) throws {
    let network = try Self.network()
    let batch = TestSupport.random([5, 3, 8, 8], seed: 31, range: -2...2)
    let labels = [0, 2, 1, 1, 0]
    let engine = try network.trainingPass(batch, labels: labels, threads: threads, seed: 99)
    let reference = network.batchGradients(batch, labels: labels, threads: 1, seed: 99)
    #expect(engine.result == reference.result)
    #expect(TestSupport.bits(engine.gradients) == TestSupport.bits(reference.gradients))
    #expect(TestSupport.bits(engine.buffers) == TestSupport.bits(reference.buffers))
    #expect(TestSupport.bits(engine.buffers) != TestSupport.bits(network.buffers))
  }

  /// Dropout on the engine (a network without batch norms: one run per sample) drops the same
  /// units as the seeded reference: with `flatten → dropout → linear` and one sample, the
  /// weight gradient's column `i` is zero exactly where the reference mask drops unit `i`.
  @Test func dropoutDropsTheReferenceUnits() throws {
    let network = try Network(
      specs: [.flatten, .dropout(p: 0.5), .linear(name: "fc", inFeatures: 48, outFeatures: 3)],
      inputShape: [3, 4, 4], seed: 4)
    #expect(!network.trainsLayerByLayer)
    let x = TestSupport.random([1, 3, 4, 4], seed: 5, range: 0.5...1.5)
    let (_, gradients) = try network.gradients(x, labels: [1], threads: 1, seed: 123)
    let mask = Dropout(p: 0.5).mask(count: 48, seed: Dropout.seed(123, layer: 1, sample: 0))
    let dropped = (0..<48).filter { mask.data[$0] == 0 }
    #expect(!dropped.isEmpty && dropped.count < 48)
    for i in 0..<48 {
      let column = (0..<3).map { gradients[0].data[$0 * 48 + i] }
      #expect(column.allSatisfy { $0 == 0 } == dropped.contains(i), "unit \(i)")
    }
    // Another seed, other units.
    let (_, other) = try network.gradients(x, labels: [1], threads: 1, seed: 124)
    #expect(TestSupport.bits(other) != TestSupport.bits(gradients))
  }

  /// Dropout without batch norms, on the engine, against the layer-by-layer reference.
  @Test func dropoutEqualsLayerByLayer() throws {
    let network = try Network(
      specs: TestSupport.smallSpecs().dropLast() + [
        .dropout(p: 0.4), .linear(name: "fc", inFeatures: 16, outFeatures: 3),
      ], inputShape: [3, 8, 8], seed: 6)
    #expect(network.engine?.runs.count == 1)
    let batch = TestSupport.random([4, 3, 8, 8], seed: 7)
    let labels = [2, 0, 1, 2]
    let engine = try network.trainingPass(batch, labels: labels, threads: 2, seed: 8)
    let reference = network.batchGradients(batch, labels: labels, threads: 1, seed: 8)
    #expect(engine.result == reference.result)
    #expect(TestSupport.bits(engine.gradients) == TestSupport.bits(reference.gradients))
  }

  /// The engine's gradient of a batch-norm and dropout network against central differences
  /// of the engine's own training-mode loss (same dropout seed), on 2 threads.
  @Test(arguments: [0.0, 0.4])
  func gradientsMatchFiniteDifferencesOfTheEngine(dropout: Double) throws {
    let network = try Self.network(dropout: dropout)
    let batch = TestSupport.random([4, 3, 8, 8], seed: 9)
    let labels = [0, 2, 1, 2]
    let (_, grads) = try network.gradients(batch, labels: labels, threads: 2, seed: 77)
    TestSupport.checkNetworkGradients(network, grads, rel: 2e-2, abs: 2e-3) { changed in
      Double(try! changed.gradients(batch, labels: labels, threads: 2, seed: 77).result.meanLoss)
    }
  }

  /// A session keeps the running statistics in the engine's context and gives them back with
  /// the network: the same as `trainStep`, which takes them from the same pass.
  @Test func sessionKeepsRunningStatistics() throws {
    let batch = TestSupport.random([6, 3, 8, 8], seed: 60)
    let labels = [0, 1, 2, 1, 0, 2]
    var reference = try Self.network()
    var sgd = SGD(learningRate: 0.05, momentum: 0.9)
    let session = TrainingSession(network: reference, optimizer: sgd, seed: 3)
    for _ in 0..<3 {
      let seed = 3 ^ (session.steps &* 0xA076_1D64_78BD_642F)
      let r = try reference.trainStep(
        batch, labels: labels, optimizer: &sgd, threads: 1, seed: seed)
      #expect(try session.step(batch, labels: labels, threads: 2) == r)
    }
    #expect(TestSupport.bits(session.network.buffers) == TestSupport.bits(reference.buffers))
    #expect(TestSupport.bits(session.network.parameters) == TestSupport.bits(reference.parameters))
    #expect(reference.buffers[2].data == [3])
  }
}
