import LeamojiCore
import LeamojiNN
import Testing

/// The batch engine (compiled steps, fused convolution + ReLU, reused buffers) against the
/// layer-by-layer path and against finite differences of the network's loss.
@Suite("Network engine")
struct EngineTests {
  /// A layer the engine does not know: it makes the network run layer by layer.
  struct PassThrough: Layer {
    var spec: LayerSpec { .flatten }
    var parameters: [Tensor] {
      get { [] }
      set {}
    }
    func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] { s }
    func forward(_ input: Tensor) -> Tensor { input }
    func backward(
      input: Tensor, output: Tensor, outputGradient: Tensor,
      parameterGradients: inout [Tensor], needsInputGradient: Bool
    ) -> Tensor? { needsInputGradient ? outputGradient : nil }
  }

  /// Specs covering every step kind: fused and unfused ReLU, stride 2, max pooling, global
  /// pooling, flatten and linear layers, with sizes that leave GEMM edge tiles.
  static let specs: [LayerSpec] = [
    .conv2d(name: "a", inChannels: 3, outChannels: 5, kernel: 3, stride: 1, padding: 1),
    .relu, .maxPool2d(kernel: 2, stride: 2),
    .conv2d(name: "b", inChannels: 5, outChannels: 6, kernel: 3, stride: 2, padding: 1),
    .relu, .relu,
    .conv2d(name: "c", inChannels: 6, outChannels: 7, kernel: 1, stride: 1, padding: 0),
    .globalAvgPool, .flatten,
    .linear(name: "fc", inFeatures: 7, outFeatures: 4),
  ]

  @Test func engineMatchesLayerByLayer() throws {
    let fast = try Network(specs: Self.specs, inputShape: [3, 13, 11], seed: 3)
    let slow = try Network(layers: fast.layers + [PassThrough()], inputShape: [3, 13, 11])
    let batch = TestSupport.random([5, 3, 13, 11], seed: 4)
    let labels = [0, 3, 1, 2, 3]
    let zFast = try fast.logits(batch, threads: 2)
    let zSlow = try slow.logits(batch, threads: 2)
    #expect(TestSupport.worstError(zFast, zSlow, rel: 1e-5, abs: 1e-6) <= 0)
    let (rFast, gFast) = try fast.gradients(batch, labels: labels, threads: 2)
    let (rSlow, gSlow) = try slow.gradients(batch, labels: labels, threads: 1)
    #expect(abs(rFast.meanLoss - rSlow.meanLoss) < 1e-5)
    #expect(rFast.correct == rSlow.correct)
    #expect(gFast.count == gSlow.count)
    for (a, b) in zip(gFast, gSlow) {
      #expect(TestSupport.worstError(a, b, rel: 1e-4, abs: 1e-6) <= 0)
    }
  }

  /// The same on rows of 32 and 16 positions, the shapes of the default network: there the
  /// engine takes its vector paths (im2col panel by panel, 2x2 pooling eight windows at a
  /// time), the layers their plain ones.
  @Test func engineMatchesLayerByLayerOnRowsOfSixteen() throws {
    let specs: [LayerSpec] = [
      .conv2d(name: "a", inChannels: 3, outChannels: 8, kernel: 3, stride: 1, padding: 1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .conv2d(name: "b", inChannels: 8, outChannels: 12, kernel: 3, stride: 1, padding: 1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .globalAvgPool, .flatten,
      .linear(name: "fc", inFeatures: 12, outFeatures: 3),
    ]
    let fast = try Network(specs: specs, inputShape: [3, 6, 32], seed: 5)
    let slow = try Network(layers: fast.layers + [PassThrough()], inputShape: [3, 6, 32])
    let batch = TestSupport.random([4, 3, 6, 32], seed: 6)
    let labels = [0, 2, 1, 2]
    let zFast = try fast.logits(batch, threads: 2)
    let zSlow = try slow.logits(batch, threads: 2)
    #expect(TestSupport.worstError(zFast, zSlow, rel: 1e-5, abs: 1e-6) <= 0)
    let (_, gFast) = try fast.gradients(batch, labels: labels, threads: 2)
    let (_, gSlow) = try slow.gradients(batch, labels: labels, threads: 1)
    for (a, b) in zip(gFast, gSlow) {
      #expect(TestSupport.worstError(a, b, rel: 1e-4, abs: 1e-6) <= 0)
    }
  }

  /// ∂(mean loss)/∂parameters from the engine against central differences of the loss.
  @Test func networkGradientMatchesFiniteDifferences() throws {
    let specs: [LayerSpec] = [
      .conv2d(name: "a", inChannels: 2, outChannels: 3, kernel: 3, stride: 1, padding: 1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .flatten, .linear(name: "fc", inFeatures: 27, outFeatures: 3),
    ]
    let network = try Network(specs: specs, inputShape: [2, 6, 6], seed: 11)
    let batch = TestSupport.random([3, 2, 6, 6], seed: 12)
    let labels = [2, 0, 1]
    let (_, analytic) = try network.gradients(batch, labels: labels, threads: 2)
    TestSupport.checkNetworkGradients(network, analytic, rel: 1e-2, abs: 1e-3) { changed in
      Double(try! changed.evaluate(batch, labels: labels, threads: 1).meanLoss)
    }
  }

  /// Repeated calls reuse the engine's buffers: results must not depend on what ran before
  /// (another batch size, another network copy with other weights).
  @Test func reusedBuffersGiveTheSameResults() throws {
    var network = try Network(specs: Self.specs, inputShape: [3, 13, 11], seed: 5)
    let batch = TestSupport.random([4, 3, 13, 11], seed: 6)
    let first = try network.gradients(batch, labels: [0, 1, 2, 3], threads: 2)
    let copy = network
    var sgd = SGD(learningRate: 0.5)
    try network.trainStep(
      TestSupport.random([9, 3, 13, 11], seed: 7), labels: Array(repeating: 1, count: 9),
      optimizer: &sgd, threads: 2)
    let again = try copy.gradients(batch, labels: [0, 1, 2, 3], threads: 1)
    #expect(first.result == again.result)
    #expect(TestSupport.bits(first.gradients) == TestSupport.bits(again.gradients))
  }

  /// Inference contexts (forward-only buffers reused from step to step, weights read in place
  /// from the layers) give the same logits, bit for bit, as a training context's forward pass:
  /// networks with GEMM edge tiles and stride 2, batch norm and dropout, no convolution at
  /// all, and the shipped model's shape; batches of 1 to 9 on one and two threads, the two
  /// kinds of context checked out in turn from the same pool.
  @Test func inferenceBuffersGiveTheSameBits() throws {
    let networks: [Network] = [
      try Network(specs: Self.specs, inputShape: [3, 13, 11], seed: 21),
      try Network(
        specs: LayerSpec.architecture(
          classes: 3, widths: [4, 8, 6], batchNorm: true, dropout: 0.5),
        inputShape: [3, 16, 16], seed: 22),
      try Network(
        specs: [.flatten, .linear(name: "fc", inFeatures: 48, outFeatures: 5)],
        inputShape: [3, 4, 4], seed: 23),
      try Network(
        specs: LayerSpec.architecture(
          classes: 3, widths: [24, 48, 96, 128], batchNorm: false, dropout: 0),
        inputShape: [3, 64, 64], seed: 24),
    ]
    for (k, network) in networks.enumerated() {
      for (n, threads) in [(1, 1), (2, 2), (5, 2), (9, 1), (9, 2)] {
        let batch = TestSupport.random(
          [n] + network.inputShape, seed: UInt64(100 * k + n), range: -3...3)
        let training = try network.logits(batch, threads: threads, mode: .training)
        let inference = try network.logits(batch, threads: threads)
        #expect(training.shape == [n, network.classCount])
        #expect(
          TestSupport.bits([training]) == TestSupport.bits([inference]),
          "network \(k), batch \(n), \(threads) threads")
      }
    }
  }
}
