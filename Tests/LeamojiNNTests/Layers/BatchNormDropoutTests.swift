import Foundation
import LeamojiCore
import LeamojiNN
import Testing

/// Batch normalisation and dropout: gradients in training and inference mode against finite
/// differences, the training statistics against a direct computation, the engine's inference
/// form against the layer-by-layer path and an independent implementation, deterministic
/// training, and model files that keep the running statistics.
@Suite("Batch norm and dropout")
struct BatchNormDropoutTests {
  /// conv-bn-relu-pool, conv-bn-relu, global pooling, dropout, linear.
  static func specs(dropout: Double = 0.3) -> [LayerSpec] {
    [
      .conv2d(name: "conv1", inChannels: 3, outChannels: 4, kernel: 3, stride: 1, padding: 1),
      .batchNorm2d(name: "bn1", features: 4, eps: 1e-5, momentum: 0.1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .conv2d(name: "conv2", inChannels: 4, outChannels: 5, kernel: 3, stride: 1, padding: 1),
      .batchNorm2d(name: "bn2", features: 5, eps: 1e-5, momentum: 0.1),
      .relu, .globalAvgPool, .dropout(p: dropout),
      .linear(name: "fc", inFeatures: 5, outFeatures: 3),
    ]
  }

  /// A batch norm with non-trivial parameters and running statistics.
  static func batchNorm(features: Int, seed: UInt64) -> BatchNorm2D {
    BatchNorm2D(
      name: "bn", eps: 1e-5, momentum: 0.1,
      weight: TestSupport.random([features], seed: seed, range: 0.5...1.5),
      bias: TestSupport.random([features], seed: seed + 1),
      runningMean: TestSupport.random([features], seed: seed + 2),
      runningVar: TestSupport.random([features], seed: seed + 3, range: 0.5...2),
      batchesTracked: Tensor(shape: [], data: [7]))
  }

  /// A network whose batch norms have trained-looking running statistics.
  static func network(seed: UInt64, dropout: Double = 0.3) throws -> Network {
    var n = try Network(specs: specs(dropout: dropout), inputShape: [3, 8, 8], seed: seed)
    var rng = SplitMix64(seed: seed)
    try n.setBuffers(
      n.buffers.map { t in
        t.shape == []
          ? t : Tensor(shape: t.shape, data: t.data.map { _ in Float(0.5 + rng.nextUnitDouble()) })
      })
    var p = n.parameters
    for i in p.indices where p[i].rank == 1 && n.parameterNames[i].hasPrefix("bn") {
      p[i] = TestSupport.random(p[i].shape, seed: seed &+ UInt64(i), range: 0.5...1.5)
    }
    try n.setParameters(p)
    return n
  }

  @Test func inferenceModeGradients() {
    let bn = Self.batchNorm(features: 3, seed: 11)
    TestSupport.checkGradients(
      bn, input: TestSupport.random([3, 4, 5], seed: 12), eps: 1e-2, seed: 13)
    TestSupport.checkGradients(
      Dropout(p: 0.5), input: TestSupport.random([6], seed: 1), eps: 1e-2, seed: 2)
  }

  /// Training mode over a whole batch: L = Σ_j r_j · y_j against central differences of the
  /// inputs of every sample and of γ, β.
  @Test func trainingModeGradients() {
    let bn = Self.batchNorm(features: 2, seed: 21)
    let xs = (0..<3).map { TestSupport.random([2, 3, 2], seed: 30 + UInt64($0)) }
    let rs = (0..<3).map { TestSupport.random([2, 3, 2], seed: 40 + UInt64($0)) }
    func loss(_ layer: BatchNorm2D, _ inputs: [Tensor]) -> Double {
      zip(layer.trainingForward(inputs).outputs, rs).reduce(0) { $0 + TestSupport.dot($1.0, $1.1) }
    }
    let (_, cache, _) = bn.trainingForward(xs)
    var grads = bn.parameters.map { Tensor(shape: $0.shape) }
    let dxs = bn.trainingBackward(
      cache: cache, outputGradients: rs, parameterGradients: &grads, needsInputGradient: true)!
    for j in 0..<3 {
      let numeric = TestSupport.numericGradient(of: xs[j], eps: 1e-2) { x in
        var changed = xs
        changed[j] = x
        return loss(bn, changed)
      }
      #expect(TestSupport.worstError(dxs[j], numeric) <= 0, "input gradient of sample \(j)")
    }
    for p in 0..<2 {
      let numeric = TestSupport.numericGradient(of: bn.parameters[p], eps: 1e-2) { v in
        var changed = bn
        changed.parameters[p] = v
        return loss(changed, xs)
      }
      #expect(TestSupport.worstError(grads[p], numeric) <= 0, "parameter \(p)")
    }
  }

  /// Batch statistics and PyTorch's running-statistics update, computed directly.
  @Test func trainingStatisticsAsPyTorch() {
    let bn = Self.batchNorm(features: 2, seed: 5)
    let xs = (0..<4).map { TestSupport.random([2, 3, 3], seed: 50 + UInt64($0), range: -2...3) }
    let (ys, _, buffers) = bn.trainingForward(xs)
    for c in 0..<2 {
      let values = xs.flatMap { Array($0.data[(c * 9)..<((c + 1) * 9)]) }.map(Double.init)
      let mean = values.reduce(0, +) / Double(values.count)
      let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)
      let unbiased = variance * Double(values.count) / Double(values.count - 1)
      for j in 0..<4 {
        for i in (c * 9)..<((c + 1) * 9) {
          let expected =
            (Double(xs[j].data[i]) - mean) / (variance + 1e-5).squareRoot()
            * Double(bn.weight.data[c]) + Double(bn.bias.data[c])
          #expect(abs(Double(ys[j].data[i]) - expected) < 1e-5)
        }
      }
      #expect(
        abs(Double(buffers[0].data[c]) - (0.9 * Double(bn.runningMean.data[c]) + 0.1 * mean)) < 1e-6
      )
      #expect(
        abs(Double(buffers[1].data[c]) - (0.9 * Double(bn.runningVar.data[c]) + 0.1 * unbiased))
          < 1e-6)
    }
    #expect(buffers[2].data == [8])
  }

  /// The whole network's training-mode gradient (batch norms on batch statistics, dropout
  /// masks fixed by the seed) against central differences of its training-mode loss.
  @Test func networkTrainingGradients() throws {
    let network = try Self.network(seed: 3, dropout: 0.4)
    let batch = TestSupport.random([4, 3, 8, 8], seed: 9)
    let labels = [0, 2, 1, 2]
    let (_, grads) = try network.gradients(batch, labels: labels, threads: 2, seed: 77)
    TestSupport.checkNetworkGradients(network, grads, rel: 2e-2, abs: 2e-3) { changed in
      Double(changed.batchGradients(batch, labels: labels, threads: 1, seed: 77).result.meanLoss)
    }
  }

  @Test func dropoutMasks() {
    let d = Dropout(p: 0.25)
    let a = d.mask(count: 4000, seed: 1)
    #expect(a == d.mask(count: 4000, seed: 1))
    #expect(a != d.mask(count: 4000, seed: 2))
    #expect(Set(a.data) == [0, Float(1 / 0.75)])
    let dropped = Double(a.data.filter { $0 == 0 }.count) / 4000
    #expect(abs(dropped - 0.25) < 0.03)
    // Inference: the identity.
    let x = TestSupport.random([7], seed: 3)
    #expect(d.forward(x) == x)
  }

  /// The engine's inference form (batch norm as a per-channel affine step fused with the ReLU,
  /// dropout as the identity) against the layer-by-layer path and against an independent
  /// implementation written here (naive convolution, PyTorch's batch norm formula).
  @Test func engineLogitsMatchLayerByLayerAndIndependent() throws {
    let fast = try Self.network(seed: 4)
    let slow = try Network(
      layers: fast.layers + [EngineTests.PassThrough()], inputShape: [3, 8, 8])
    let batch = TestSupport.random([3, 3, 8, 8], seed: 6)
    let zFast = try fast.logits(batch, threads: 2)
    let zSlow = try slow.logits(batch, threads: 1)
    #expect(TestSupport.worstError(zFast, zSlow, rel: 0, abs: 1e-4) <= 0)
    let named = fast.namedTensors
    for b in 0..<3 {
      let z = Self.independentLogits(batch.slice(b), named)
      for k in 0..<3 { #expect(abs(Double(zFast.data[b * 3 + k]) - z[k]) < 1e-4) }
    }
  }

  /// The network of `specs()` computed directly in Double from its named tensors.
  static func independentLogits(_ x: Tensor, _ t: [String: Tensor]) -> [Double] {
    func conv(_ x: [Double], _ c: Int, _ h: Int, _ w: Int, _ name: String) -> [Double] {
      let weight = t["\(name).weight"]!
      let out = weight.shape[0]
      var y = [Double](repeating: 0, count: out * h * w)
      for o in 0..<out {
        for i in 0..<h {
          for j in 0..<w {
            var s = Double(t["\(name).bias"]!.data[o])
            for ci in 0..<c {
              for ki in 0..<3 {
                for kj in 0..<3 {
                  let (yy, xx) = (i + ki - 1, j + kj - 1)
                  guard yy >= 0, yy < h, xx >= 0, xx < w else { continue }
                  s +=
                    Double(weight.data[((o * c + ci) * 3 + ki) * 3 + kj])
                    * x[(ci * h + yy) * w + xx]
                }
              }
            }
            y[(o * h + i) * w + j] = s
          }
        }
      }
      return y
    }
    func bnRelu(_ x: [Double], _ c: Int, _ name: String) -> [Double] {
      let area = x.count / c
      return x.indices.map { i in
        let ch = i / area
        let m = Double(t["\(name).running_mean"]!.data[ch])
        let v = Double(t["\(name).running_var"]!.data[ch])
        let y =
          (x[i] - m) / (v + 1e-5).squareRoot() * Double(t["\(name).weight"]!.data[ch])
          + Double(t["\(name).bias"]!.data[ch])
        return max(y, 0)
      }
    }
    var a = bnRelu(conv(x.data.map(Double.init), 3, 8, 8, "conv1"), 4, "bn1")
    var pooled = [Double](repeating: 0, count: 4 * 16)
    for c in 0..<4 {
      for i in 0..<4 {
        for j in 0..<4 {
          pooled[(c * 4 + i) * 4 + j] = [0, 1].flatMap { di in
            [0, 1].map { dj in a[(c * 8 + 2 * i + di) * 8 + 2 * j + dj] }
          }.max()!
        }
      }
    }
    a = bnRelu(conv(pooled, 4, 4, 4, "conv2"), 5, "bn2")
    let features = (0..<5).map { c in a[(c * 16)..<((c + 1) * 16)].reduce(0, +) / 16 }
    let fc = t["fc.weight"]!
    return (0..<3).map { o in
      (0..<5).reduce(Double(t["fc.bias"]!.data[o])) {
        $0 + Double(fc.data[o * 5 + $1]) * features[$1]
      }
    }
  }

  /// Training with batch norms and dropout: the same bits for 1 and 2 threads, running
  /// statistics that move, and a different dropout seed giving different weights.
  @Test func trainingIsDeterministic() throws {
    let batch = TestSupport.random([6, 3, 8, 8], seed: 60)
    let labels = [0, 1, 2, 1, 0, 2]
    func train(threads: Int, seed: UInt64) throws -> Network {
      let session = TrainingSession(
        network: try Network(specs: Self.specs(), inputShape: [3, 8, 8], seed: 8),
        optimizer: AdamW(learningRate: 1e-2, weightDecay: 1e-4), seed: seed)
      for _ in 0..<3 { try session.step(batch, labels: labels, threads: threads) }
      return session.network
    }
    let one = try train(threads: 1, seed: 5)
    let two = try train(threads: 2, seed: 5)
    #expect(TestSupport.bits(one.parameters) == TestSupport.bits(two.parameters))
    #expect(TestSupport.bits(one.buffers) == TestSupport.bits(two.buffers))
    let fresh = try Network(specs: Self.specs(), inputShape: [3, 8, 8], seed: 8)
    #expect(TestSupport.bits(one.buffers) != TestSupport.bits(fresh.buffers))
    #expect(one.buffers[2].data == [3])
    let other = try train(threads: 2, seed: 6)
    #expect(TestSupport.bits(one.parameters) != TestSupport.bits(other.parameters))
    // Network.trainStep does the same as the session.
    var reference = try Network(specs: Self.specs(), inputShape: [3, 8, 8], seed: 8)
    var adam = AdamW(learningRate: 1e-2, weightDecay: 1e-4)
    let session = TrainingSession(network: reference, optimizer: adam, seed: 5)
    for _ in 0..<2 {
      let seed = 5 ^ (session.steps &* 0xA076_1D64_78BD_642F)
      let r = try reference.trainStep(
        batch, labels: labels, optimizer: &adam, threads: 2, seed: seed)
      #expect(try session.step(batch, labels: labels, threads: 1) == r)
    }
    #expect(TestSupport.bits(session.network.parameters) == TestSupport.bits(reference.parameters))
    #expect(TestSupport.bits(session.network.buffers) == TestSupport.bits(reference.buffers))
  }

  /// The file keeps everything (running statistics included, `num_batches_tracked` as I64),
  /// is version 2, reads back to the same logits and bytes; version 1 stays for the old kinds.
  @Test func modelFileKeepsBatchNormState() throws {
    let network = try Self.network(seed: 12)
    let contents = ModelFile.contents(of: network, metadata: [:])
    #expect(contents.metadata["version"] == "2")
    #expect(contents.integerTensors == ["bn1.num_batches_tracked", "bn2.num_batches_tracked"])
    let bytes = contents.encoded()
    let headerLength = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
    let header = String(decoding: bytes[8..<(8 + headerLength)], as: UTF8.self)
    #expect(header.contains(#""bn1.num_batches_tracked":{"data_offsets":"#))
    #expect(
      header.contains(
        #""bn2.num_batches_tracked":{"data_offsets":[92,100],"dtype":"I64","shape":[]}"#))
    #expect(
      header.contains(
        #"{\"eps\":1e-05,\"features\":4,\"momentum\":0.1,\"name\":\"bn1\",\"type\":\"batchnorm2d\"}"#
      ))
    let file = try ModelFile.open(bytes, path: "bn.safetensors")
    let loaded = try file.network(
      specs: try file.layers(), inputShape: try file.inputShape(channels: 3))
    #expect(TestSupport.bits(loaded.parameters) == TestSupport.bits(network.parameters))
    #expect(TestSupport.bits(loaded.buffers) == TestSupport.bits(network.buffers))
    #expect(ModelFile.contents(of: loaded, metadata: [:]).encoded() == bytes)
    let x = TestSupport.random([2, 3, 8, 8], seed: 1)
    #expect(try loaded.logits(x, threads: 1) == network.logits(x, threads: 1))

    // A version-1 file may not hold the new layer kinds.
    var old = contents
    old.metadata["version"] = "1"
    let file1 = try ModelFile.open(old.encoded(), path: "old.safetensors")
    #expect(throws: ModelFileError.self) {
      try file1.network(specs: try file1.layers(), inputShape: [3, 8, 8])
    }
    // Missing running statistics are named.
    var missing = contents
    missing.tensors["bn2.running_var"] = nil
    let file2 = try ModelFile.open(missing.encoded(), path: "m.safetensors")
    #expect(
      throws: ModelFileError(
        path: "m.safetensors", problem: .missingTensor(name: "bn2.running_var"))
    ) {
      try file2.network(specs: try file2.layers(), inputShape: [3, 8, 8])
    }
  }

  @Test func architectureOptions() throws {
    #expect(
      LayerSpec.architecture(classes: 3, widths: [16, 32, 64], batchNorm: false, dropout: 0)
        == LayerSpec.defaultArchitecture(classes: 3))
    let specs = LayerSpec.architecture(classes: 2, widths: [8, 16], batchNorm: true, dropout: 0.2)
    #expect(
      specs == [
        .conv2d(name: "conv1", inChannels: 3, outChannels: 8, kernel: 3, stride: 1, padding: 1),
        .batchNorm2d(name: "bn1", features: 8, eps: 1e-5, momentum: 0.1), .relu,
        .maxPool2d(kernel: 2, stride: 2),
        .conv2d(name: "conv2", inChannels: 8, outChannels: 16, kernel: 3, stride: 1, padding: 1),
        .batchNorm2d(name: "bn2", features: 16, eps: 1e-5, momentum: 0.1), .relu,
        .maxPool2d(kernel: 2, stride: 2), .globalAvgPool, .dropout(p: 0.2),
        .linear(name: "fc", inFeatures: 16, outFeatures: 2),
      ])
    #expect(LayerSpec.batchNorm2d(name: "b", features: 3, eps: 0, momentum: 0.1).problem != nil)
    #expect(LayerSpec.dropout(p: 1).problem != nil)
    let decoded = try JSONDecoder().decode(
      [LayerSpec].self,
      from: Data(
        #"[{"type":"batchnorm2d","name":"bn","features":4},{"type":"dropout","p":0.5}]"#.utf8))
    #expect(
      decoded == [
        .batchNorm2d(name: "bn", features: 4, eps: 1e-5, momentum: 0.1), .dropout(p: 0.5),
      ])
  }
}
