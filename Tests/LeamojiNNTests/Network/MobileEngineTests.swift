import LeamojiCore
import Testing

@testable import LeamojiNN

/// The engine's MobileNet-style steps (pointwise GEMM with pre-packed weights, the im2col stem,
/// depthwise kernels, ReLU6 and residual adds, a sample split over lanes) give the logits of
/// the layers' own forward passes, the same bits for any thread count, and such networks still
/// train (layer by layer).
@Suite("Engine: MobileNet-style networks")
struct MobileEngineTests {
  /// A small EfficientNet-Lite-like network: "same" stem, two inverted-residual blocks (one
  /// with a skip), 3x3 and 5x5 depthwise at strides 1 and 2, a 1x1 head.
  static func specs(classes: Int = 5) -> [LayerSpec] {
    func pw(_ name: String, _ i: Int, _ o: Int) -> LayerSpec {
      .conv2d(name: name, inChannels: i, outChannels: o, kernel: 1, stride: 1, padding: 0)
    }
    func dw(_ name: String, _ c: Int, _ k: Int, _ s: Int) -> LayerSpec {
      .convolution(
        name: name, inChannels: c, outChannels: c, kernel: k, stride: s, padding: .same, groups: c)
    }
    return [
      .convolution(
        name: "stem", inChannels: 3, outChannels: 8, kernel: 3, stride: 2, padding: .same,
        groups: 1),
      .relu6,
      dw("b0_dw", 8, 3, 1), .relu6, pw("b0_project", 8, 8),
      .residual(layers: [
        pw("b1_expand", 8, 24), .relu6, dw("b1_dw", 24, 5, 1), .relu6, pw("b1_project", 24, 8),
      ]),
      pw("b2_expand", 8, 24), .relu6, dw("b2_dw", 24, 5, 2), .relu6, pw("b2_project", 24, 12),
      .residual(layers: [
        pw("b3_expand", 12, 36), .relu6, dw("b3_dw", 36, 3, 1), .relu6, pw("b3_project", 36, 12),
      ]),
      pw("head", 12, 40), .relu6, .globalAvgPool,
      .linear(name: "fc", inFeatures: 40, outFeatures: classes),
    ]
  }

  /// The network with non-zero biases, so that every fused bias is exercised.
  static func network(size: Int = 23) throws -> Network {
    var net = try Network(specs: specs(), inputShape: [3, size, size], seed: 7)
    let params = net.parameters.enumerated().map { i, t in
      t.rank == 1 ? TestSupport.random(t.shape, seed: UInt64(100 + i), range: -0.3...0.3) : t
    }
    try net.setParameters(params)
    return net
  }

  @Test(arguments: [23, 32])
  func engineMatchesLayers(size: Int) throws {
    let net = try Self.network(size: size)
    #expect(net.engine?.mobile == true)
    #expect(net.engine?.canBackprop == false)
    let batch = TestSupport.random([5, 3, size, size], seed: 9, range: -2...2)
    let engine = try net.logits(batch, threads: 2)
    for i in 0..<5 {
      let reference = net.forwardSample(batch.slice(i))
      #expect(TestSupport.worstError(engine.slice(i), reference, rel: 1e-4, abs: 1e-4) <= 0)
    }
  }

  /// One sample split over two lanes, five samples on one or two threads, and a training
  /// context's buffers: the same bits.
  @Test func sameBitsForAnyThreadsAndBuffers() throws {
    let net = try Self.network()
    let batch = TestSupport.random([5, 3, 23, 23], seed: 19, range: -2...2)
    let one = try net.logits(batch, threads: 1)
    #expect(TestSupport.bits([try net.logits(batch, threads: 2)]) == TestSupport.bits([one]))
    #expect(
      TestSupport.bits([try net.logits(batch, threads: 1, mode: .training)])
        == TestSupport.bits([one]))
    for i in 0..<5 {
      let single = Tensor.stack([batch.slice(i)])
      #expect(
        TestSupport.bits([try net.logits(single, threads: 2)])
          == TestSupport.bits([one.slice(i).reshaped([1, 5])]))
    }
  }

  /// The steps read the weights in place: a copy with changed parameters runs on its own
  /// weights, and the original still on its own.
  @Test func changedWeightsAreUsed() throws {
    let net = try Self.network()
    let x = TestSupport.random([1, 3, 23, 23], seed: 29)
    let before = try net.logits(x, threads: 1)
    var changed = net
    try changed.setParameters(
      changed.parameters.map { t in
        Tensor(shape: t.shape, data: t.data.map { $0 * 0.5 })
      })
    let after = try changed.logits(x, threads: 1)
    #expect(TestSupport.worstError(after.slice(0), changed.forwardSample(x.slice(0))) <= 0)
    #expect(after != before)
    #expect(try net.logits(x, threads: 1) == before)
  }

  /// Such a network trains layer by layer: the loss on a fixed batch falls.
  @Test func trainsLayerByLayer() throws {
    let net = try Self.network(size: 16)
    #expect(net.trainsLayerByLayer)
    let batch = TestSupport.random([6, 3, 16, 16], seed: 39)
    let labels = [0, 1, 2, 3, 4, 0]
    let session = TrainingSession(network: net, optimizer: AdamW(learningRate: 0.01))
    let first = try session.step(batch, labels: labels, threads: 2)
    var last = first
    for _ in 0..<15 { last = try session.step(batch, labels: labels, threads: 2) }
    #expect(last.meanLoss < first.meanLoss * 0.7, "\(first.meanLoss) -> \(last.meanLoss)")
  }
}

/// `Network.features`: the last (linear) layer's input, engine or layer by layer.
@Suite("Network features")
struct NetworkFeatureTests {
  @Test func featuresAreTheLastLayersInput() throws {
    let net = try MobileEngineTests.network()
    let batch = TestSupport.random([3, 3, 23, 23], seed: 61, range: -2...2)
    let features = try net.features(batch, threads: 2)
    #expect(features.shape == [3, 40])
    let logits = try net.logits(batch, threads: 2)
    for i in 0..<3 {
      var reference = batch.slice(i)
      for layer in net.layers.dropLast() { reference = layer.forward(reference) }
      #expect(TestSupport.worstError(features.slice(i), reference, rel: 1e-4, abs: 1e-5) <= 0)
      let head = net.layers.last!.forward(features.slice(i))
      #expect(TestSupport.worstError(head, logits.slice(i), rel: 1e-4, abs: 1e-5) <= 0)
    }
    // The default network (old engine steps) too.
    let small = try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 8, 8], seed: 3)
    let x = TestSupport.random([2, 3, 8, 8], seed: 62)
    let f = try small.features(x, threads: 1)
    #expect(f.shape == [2, 16])
    #expect(
      TestSupport.worstError(
        small.layers.last!.forward(f.slice(1)), try small.logits(x, threads: 1).slice(1)) <= 0)
  }
}
