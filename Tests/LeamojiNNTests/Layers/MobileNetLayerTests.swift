import Foundation
import LeamojiCore
import LeamojiNN
import Testing

/// The layers of MobileNet-style networks (model file version 3): grouped and depthwise
/// convolutions with TensorFlow "same" padding, ReLU6 and residual blocks — forward passes
/// against hand-computed values and the plain convolution, backward passes against finite
/// differences, and their descriptions in model files.
@Suite("MobileNet layers")
struct MobileNetLayerTests {
  /// TensorFlow's "same": output `ceil(n / s)`, the odd zero at the bottom / right.
  @Test func samePaddingAmounts() {
    let same = ConvolutionPadding.same
    #expect(same.amounts(size: 224, kernel: 3, stride: 2) == (0, 1))
    #expect(same.amounts(size: 112, kernel: 5, stride: 2) == (1, 2))
    #expect(same.amounts(size: 56, kernel: 5, stride: 1) == (2, 2))
    #expect(same.amounts(size: 14, kernel: 3, stride: 1) == (1, 1))
    #expect(same.amounts(size: 7, kernel: 3, stride: 2) == (1, 1))
    #expect(same.amounts(size: 8, kernel: 1, stride: 2) == (0, 0))
    #expect(ConvolutionPadding.symmetric(2).amounts(size: 9, kernel: 5, stride: 2) == (2, 2))
  }

  /// A depthwise 3x3 stride-2 "same" convolution of a 4x4 plane: padding only at the bottom
  /// and right, so output (0,0) sees rows/columns 0-2 and (1,1) sees 2-3 plus zeros.
  @Test func depthwiseSameHandComputed() throws {
    let x = Tensor(shape: [1, 4, 4], data: (1...16).map(Float.init))
    let conv = GroupedConv2D(
      name: "dw", stride: 2, padding: .same, groups: 1,
      weight: Tensor(shape: [1, 1, 3, 3], repeating: 1), bias: Tensor(shape: [1], data: [0.5]))
    let y = conv.forward(x)
    #expect(y.shape == [1, 2, 2])
    // Sums of the windows rows 0-2 x cols 0-2, rows 0-2 x cols 2-3, rows 2-3 x cols 0-2,
    // rows 2-3 x cols 2-3.
    let expected: [Float] = [54, 45, 72, 54].map { $0 + 0.5 }
    #expect(y.data == expected)
    #expect(try conv.outputShape(for: [1, 4, 4]) == [1, 2, 2])
    #expect(try conv.outputShape(for: [1, 5, 7]) == [1, 3, 4])
  }

  /// One group and symmetric padding compute what the GEMM convolution computes, with no
  /// activation: negative sums stay negative (the layer passes `Activation.none`, the identity,
  /// not a missing activation that the kernel would fill in from its `relu` flag).
  @Test func oneGroupMatchesConv2D() {
    for (k, s, p) in [(3, 1, 1), (3, 2, 1), (5, 2, 2), (1, 1, 0)] {
      let w = TestSupport.random([6, 4, k, k], seed: 11)
      let b = TestSupport.random([6], seed: 12)
      let x = TestSupport.random([4, 9, 7], seed: 13)
      let plain = Conv2D(name: "c", stride: s, padding: p, weight: w, bias: b).forward(x)
      let general = GroupedConv2D(
        name: "c", stride: s, padding: .symmetric(p), groups: 1, weight: w, bias: b
      ).forward(x)
      #expect(plain.shape == general.shape)
      #expect(TestSupport.worstError(plain, general, rel: 1e-5, abs: 1e-5) <= 0)
      #expect(general.data.contains { $0 < 0 }, "a 1-group convolution must not rectify")
    }
  }

  /// Two groups are two independent convolutions over the halves of the channels.
  @Test func groupsAreIndependentConvolutions() {
    let w = TestSupport.random([4, 3, 3, 3], seed: 21)
    let b = TestSupport.random([4], seed: 22)
    let x = TestSupport.random([6, 5, 5], seed: 23)
    let grouped = GroupedConv2D(
      name: "g", stride: 1, padding: .symmetric(1), groups: 2, weight: w, bias: b
    ).forward(x)
    for half in 0..<2 {
      let part = Conv2D(
        name: "c", stride: 1, padding: 1,
        weight: Tensor(shape: [2, 3, 3, 3], data: Array(w.data[(half * 54)..<(half * 54 + 54)])),
        bias: Tensor(shape: [2], data: Array(b.data[(half * 2)..<(half * 2 + 2)]))
      ).forward(Tensor(shape: [3, 5, 5], data: Array(x.data[(half * 75)..<(half * 75 + 75)])))
      let got = Array(grouped.data[(half * 50)..<(half * 50 + 50)])
      #expect(TestSupport.worstError(Tensor(shape: [2, 5, 5], data: got), part, abs: 1e-5) <= 0)
    }
  }

  @Test(arguments: [(3, 1), (3, 2), (5, 1), (5, 2)])
  func depthwiseGradients(kernel: Int, stride: Int) {
    var rng = SplitMix64(seed: UInt64(kernel * 10 + stride))
    var conv = GroupedConv2D(
      name: "dw", inChannels: 3, outChannels: 3, kernel: kernel, stride: stride, padding: .same,
      groups: 3, rng: &rng)
    conv.bias = TestSupport.random([3], seed: 5)
    TestSupport.checkGradients(
      conv, input: TestSupport.random([3, 6, 7], seed: 6), eps: 1e-2, seed: 7)
  }

  @Test func groupedAndStemGradients() {
    var rng = SplitMix64(seed: 3)
    let grouped = GroupedConv2D(
      name: "g", inChannels: 4, outChannels: 6, kernel: 3, stride: 1, padding: .symmetric(1),
      groups: 2, rng: &rng)
    TestSupport.checkGradients(
      grouped, input: TestSupport.random([4, 5, 5], seed: 8), eps: 1e-2, seed: 9)
    let stem = GroupedConv2D(
      name: "stem", inChannels: 3, outChannels: 4, kernel: 3, stride: 2, padding: .same,
      groups: 1, rng: &rng)
    TestSupport.checkGradients(
      stem, input: TestSupport.random([3, 8, 6], seed: 10), eps: 1e-2, seed: 11)
  }

  /// ReLU6 clips at 0 and 6; its gradient passes strictly between them.
  @Test func relu6() {
    let x = Tensor(shape: [6], data: [-2, 0.5, 3, 5.9, 6.5, 100])
    #expect(ReLU6().forward(x).data == [0, 0.5, 3, 5.9, 6, 6])
    // Values away from the corners, so finite differences do not straddle them.
    let inputs = TestSupport.random([2, 3, 4], seed: 31, range: -3...9).data.map { v -> Float in
      abs(v) < 0.05 || abs(v - 6) < 0.05 ? v + 0.2 : v
    }
    TestSupport.checkGradients(
      ReLU6(), input: Tensor(shape: [2, 3, 4], data: inputs), eps: 1e-2, seed: 32)
  }

  /// An inverted-residual block: expansion 1x1, ReLU6, depthwise 3x3, ReLU6, projection 1x1,
  /// added to its input.
  static func block(_ rng: inout SplitMix64, channels: Int = 4) -> Residual {
    let wide = channels * 3
    return Residual(body: [
      Conv2D(
        name: "expand", inChannels: channels, outChannels: wide, kernel: 1, stride: 1,
        padding: 0, rng: &rng),
      ReLU6(),
      GroupedConv2D(
        name: "dw", inChannels: wide, outChannels: wide, kernel: 3, stride: 1, padding: .same,
        groups: wide, rng: &rng),
      ReLU6(),
      Conv2D(
        name: "project", inChannels: wide, outChannels: channels, kernel: 1, stride: 1,
        padding: 0, rng: &rng),
    ])
  }

  @Test func residualAddsItsInput() throws {
    var rng = SplitMix64(seed: 41)
    let block = Self.block(&rng)
    let x = TestSupport.random([4, 5, 5], seed: 42)
    var body = x
    for layer in block.body { body = layer.forward(body) }
    #expect(block.forward(x).data == zip(body.data, x.data).map { $0 + $1 })
    #expect(try block.outputShape(for: [4, 5, 5]) == [4, 5, 5])
    #expect(throws: LayerShapeError.self) { try block.outputShape(for: [3, 5, 5]) }
    let widening = Residual(body: [
      Conv2D(
        name: "c", inChannels: 4, outChannels: 8, kernel: 1, stride: 1, padding: 0, rng: &rng)
    ])
    #expect(throws: LayerShapeError.self) { try widening.outputShape(for: [4, 5, 5]) }
  }

  @Test func residualGradients() {
    var rng = SplitMix64(seed: 51)
    // Without the ReLU6s, whose corners finite differences straddle; the activations have
    // their own check.
    var block = Self.block(&rng)
    block.body = block.body.filter { !($0 is ReLU6) }
    TestSupport.checkGradients(
      block, input: TestSupport.random([4, 5, 5], seed: 52), eps: 1e-2, seed: 53)
  }

  /// The descriptions of model file version 3 in JSON; plain convolutions stay `.conv2d`.
  @Test func descriptionsRoundTrip() throws {
    let json = """
      [{"in":3,"kernel":3,"name":"stem","out":8,"padding":"same","stride":2,"type":"conv2d"},\
      {"type":"relu6"},\
      {"layers":[{"groups":8,"in":8,"kernel":5,"name":"dw","out":8,"padding":"same","stride":1,\
      "type":"conv2d"},{"in":8,"kernel":1,"name":"pw","out":8,"padding":0,"stride":1,\
      "type":"conv2d"}],"type":"residual"},\
      {"type":"globalavgpool"},{"in":8,"name":"fc","out":2,"type":"linear"}]
      """
    let specs = try JSONDecoder().decode([LayerSpec].self, from: Data(json.utf8))
    #expect(
      specs[0]
        == .convolution(
          name: "stem", inChannels: 3, outChannels: 8, kernel: 3, stride: 2, padding: .same,
          groups: 1))
    #expect(specs[1] == .relu6)
    guard case .residual(let inner) = specs[2] else {
      Issue.record("not a residual block: \(specs[2])")
      return
    }
    #expect(
      inner[1]
        == .conv2d(name: "pw", inChannels: 8, outChannels: 8, kernel: 1, stride: 1, padding: 0))
    #expect(specs.map(\.requiredVersion) == [3, 3, 3, 1, 1])
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    #expect(String(decoding: try encoder.encode(specs), as: UTF8.self) == json)
    // The network built from it names every parameter, nested ones included.
    let network = try Network(specs: specs, inputShape: [3, 16, 16], seed: 1)
    #expect(
      network.parameterNames == [
        "stem.weight", "stem.bias", "dw.weight", "dw.bias", "pw.weight", "pw.bias", "fc.weight",
        "fc.bias",
      ])
    #expect(network.shapes[1] == [8, 8, 8])
  }

  @Test func badDescriptionsAreRefused() throws {
    let cases: [(String, String)] = [
      (
        #"{"type":"conv2d","name":"c","in":6,"out":4,"kernel":3,"groups":4}"#,
        "groups 4 must divide"
      ),
      (#"{"type":"residual","layers":[]}"#, "1 to 64 layers"),
      (
        #"{"type":"residual","layers":[{"type":"batchnorm2d","name":"b","features":3}]}"#,
        "may not hold batchnorm2d"
      ),
    ]
    for (json, reason) in cases {
      let spec = try JSONDecoder().decode(LayerSpec.self, from: Data(json.utf8))
      #expect(spec.problem?.contains(reason) == true, "\(json): \(spec.problem ?? "no problem")")
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        LayerSpec.self,
        from: Data(
          #"{"type":"conv2d","name":"c","in":3,"out":3,"kernel":3,"padding":"valid"}"#.utf8))
    }
    // A name used twice, once inside a block, is refused.
    let twice: [LayerSpec] = [
      .conv2d(name: "a", inChannels: 3, outChannels: 3, kernel: 1, stride: 1, padding: 0),
      .residual(layers: [
        .conv2d(name: "a", inChannels: 3, outChannels: 3, kernel: 1, stride: 1, padding: 0)
      ]),
      .globalAvgPool, .linear(name: "fc", inFeatures: 3, outFeatures: 2),
    ]
    #expect(throws: NNError.self) { try Network(specs: twice, inputShape: [3, 4, 4], seed: 1) }
  }
}
