/// Why a layer cannot accept an input shape.
public struct LayerShapeError: Error, Equatable, Sendable {
  /// One line saying what was expected.
  public var reason: String
  public init(_ reason: String) { self.reason = reason }
}

/// One step of a network: a forward rule and its hand-written backward rule.
///
/// Layers work on one sample at a time (CHW feature maps or flat vectors); the network runs
/// samples in parallel. Layers are values: copying a network copies its weights.
public protocol Layer: Sendable {
  /// The description this layer was built from (what the model file's `layers` entry says).
  var spec: LayerSpec { get }

  /// The trainable tensors in a fixed order (weight, then bias); empty when there are none.
  var parameters: [Tensor] { get set }

  /// Non-trainable state kept in the model file (a batch norm's running statistics), in the
  /// order of `LayerSpec.bufferShapes`; empty for most layers.
  var buffers: [Tensor] { get set }

  /// The shape of one sample's output for one sample's input shape, or why it does not fit.
  func outputShape(for inputShape: [Int]) throws(LayerShapeError) -> [Int]

  /// The output for one sample.
  func forward(_ input: Tensor) -> Tensor

  /// Backpropagates one sample.
  /// - Parameters:
  ///   - input: the input given to `forward`.
  ///   - output: what `forward` returned for it.
  ///   - outputGradient: ∂loss/∂output, shaped like `output`.
  ///   - parameterGradients: ∂loss/∂parameters, same order and shapes as `parameters`;
  ///     this sample's contribution is *added* (`+=`).
  ///   - needsInputGradient: false for the first layer, whose input gradient nobody uses.
  /// - Returns: ∂loss/∂input, shaped like `input` (nil when not requested).
  func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor?
}

extension Layer {
  /// Most layers have no buffers.
  public var buffers: [Tensor] {
    get { [] }
    set { precondition(newValue.isEmpty, "\(spec) has no buffers") }
  }
}

/// The JSON description of one layer, as stored in a model file's `layers` metadata:
/// `{"type":"conv2d","name":"conv1","in":3,"out":16,"kernel":3,"stride":1,"padding":1}`,
/// `{"type":"relu"}`, `{"type":"maxpool2d","kernel":2,"stride":2}`, `{"type":"globalavgpool"}`,
/// `{"type":"flatten"}`, `{"type":"linear","name":"fc","in":64,"out":3}`,
/// `{"type":"batchnorm2d","name":"bn1","features":16,"eps":1e-05,"momentum":0.1}`,
/// `{"type":"dropout","p":0.2}`; for MobileNet-style networks (model file version 3)
/// `{"type":"conv2d",...,"padding":"same","groups":32}`, `{"type":"relu6"}` and
/// `{"type":"residual","layers":[...]}`.
public enum LayerSpec: Equatable, Hashable, Sendable {
  /// 2-D convolution with a square kernel; parameters `<name>.weight` `[out, in, kernel, kernel]`
  /// and `<name>.bias` `[out]`.
  case conv2d(
    name: String, inChannels: Int, outChannels: Int, kernel: Int, stride: Int, padding: Int)
  /// max(x, 0) element-wise.
  case relu
  /// Max pooling with a square window (no padding, floor division like PyTorch's default).
  case maxPool2d(kernel: Int, stride: Int)
  /// Mean over height and width: `[C, H, W]` → `[C]`.
  case globalAvgPool
  /// Any shape → one flat vector (row-major), so a linear layer can follow feature maps.
  case flatten
  /// Fully connected layer; parameters `<name>.weight` `[out, in]` and `<name>.bias` `[out]`.
  case linear(name: String, inFeatures: Int, outFeatures: Int)
  /// Batch normalisation over the channels of `[C, H, W]` maps, as PyTorch's `BatchNorm2d`
  /// (affine, tracking running statistics): parameters `<name>.weight` and `<name>.bias`
  /// `[features]`; buffers `<name>.running_mean`, `<name>.running_var` `[features]` and
  /// `<name>.num_batches_tracked` `[]`. Training normalises with the batch's statistics and
  /// updates the running ones with `momentum`; inference uses the running ones.
  case batchNorm2d(name: String, features: Int, eps: Double, momentum: Double)
  /// Dropout with probability `p`: in training each element is zeroed with probability `p`
  /// and the others scaled by `1 / (1 - p)` (PyTorch's `Dropout`); in inference the identity.
  case dropout(p: Double)
  /// The general 2-D convolution, still JSON type `conv2d`: `groups` splits the channels into
  /// that many independent convolutions (depthwise when `groups == in == out`), and the padding
  /// may be TensorFlow's `"same"`. Parameters `<name>.weight` `[out, in / groups, kernel,
  /// kernel]` (PyTorch layout) and `<name>.bias` `[out]`. A description with one group and a
  /// number as padding is always the plain `conv2d` case (`LayerSpec.convolution2d`).
  case convolution(
    name: String, inChannels: Int, outChannels: Int, kernel: Int, stride: Int,
    padding: ConvolutionPadding, groups: Int)
  /// min(max(x, 0), 6) element-wise (MobileNet's activation).
  case relu6
  /// `x + body(x)`: the skip connection of an inverted-residual block. `layers` must map a
  /// sample's shape to the same shape; their parameters are named by their own layers.
  case residual(layers: [LayerSpec])

  /// PyTorch's `BatchNorm2d` defaults.
  public static let defaultBatchNormEps = 1e-5
  /// PyTorch's `BatchNorm2d` default momentum.
  public static let defaultBatchNormMomentum = 0.1

  /// The largest channel / feature count, kernel, stride and padding a description may use.
  /// Generous for this tool; they keep sizes computed from untrusted files small.
  public static let maxFeatures = 1 << 16
  /// The largest kernel, stride or padding a description may use.
  public static let maxWindow = 64

  /// The layer's parameter names and shapes, in the order of `Layer.parameters`.
  public var parameterShapes: [(name: String, shape: [Int])] {
    switch self {
    case .conv2d(let name, let i, let o, let k, _, _):
      return [("\(name).weight", [o, i, k, k]), ("\(name).bias", [o])]
    case .linear(let name, let i, let o):
      return [("\(name).weight", [o, i]), ("\(name).bias", [o])]
    case .batchNorm2d(let name, let f, _, _):
      return [("\(name).weight", [f]), ("\(name).bias", [f])]
    case .convolution(let name, let i, let o, let k, _, _, let g):
      return [("\(name).weight", [o, i / max(g, 1), k, k]), ("\(name).bias", [o])]
    case .residual(let layers):
      return layers.flatMap(\.parameterShapes)
    case .relu, .maxPool2d, .globalAvgPool, .flatten, .dropout, .relu6:
      return []
    }
  }

  /// The layer's non-trainable state tensors (PyTorch's buffers) and shapes, in the order of
  /// `Layer.buffers`: stored in the model file next to the parameters, never optimised.
  public var bufferShapes: [(name: String, shape: [Int])] {
    switch self {
    case .batchNorm2d(let name, let f, _, _):
      return [
        ("\(name).running_mean", [f]), ("\(name).running_var", [f]),
        ("\(name).num_batches_tracked", []),
      ]
    case .residual(let layers):
      return layers.flatMap(\.bufferShapes)
    default:
      return []
    }
  }

  /// The buffers PyTorch keeps as integers (`num_batches_tracked`): stored as I64.
  public var integerBufferNames: [String] {
    switch self {
    case .batchNorm2d(let name, _, _, _): return ["\(name).num_batches_tracked"]
    case .residual(let layers): return layers.flatMap(\.integerBufferNames)
    default: return []
    }
  }

  /// True for layers that behave differently in training (batch statistics, dropout masks):
  /// the engine runs them in their training form when a network trains.
  public var dependsOnTrainingMode: Bool {
    switch self {
    case .batchNorm2d, .dropout: return true
    case .residual(let layers): return layers.contains(where: \.dependsOnTrainingMode)
    default: return false
    }
  }

  /// The oldest model file version that knows this layer: 1 for the first layer types, 2 for
  /// batch norm and dropout, 3 for grouped or "same"-padded convolutions, ReLU6 and residual
  /// blocks. A file is written with its layers' highest, so files of the old kinds stay
  /// byte-identical.
  public var requiredVersion: Int {
    switch self {
    case .batchNorm2d, .dropout: return 2
    case .convolution, .relu6: return 3
    case .residual(let layers): return layers.map(\.requiredVersion).max() ?? 3
    default: return 1
    }
  }

  /// Every layer name in this description, nested ones included (residual blocks).
  public var allNames: [String] {
    if case .residual(let layers) = self { return layers.flatMap(\.allNames) }
    return name.map { [$0] } ?? []
  }

  /// The largest nesting of residual blocks a description may use, and the most layers one
  /// block may hold (limits for untrusted files).
  public static let maxResidualDepth = 4
  /// The most layers one residual block may hold.
  public static let maxResidualLayers = 64

  /// A convolution description in its simplest case: plain `conv2d` for one group and a
  /// number as padding, else `convolution`.
  public static func convolution2d(
    name: String, inChannels: Int, outChannels: Int, kernel: Int, stride: Int,
    padding: ConvolutionPadding, groups: Int = 1
  ) -> LayerSpec {
    if groups == 1, case .symmetric(let p) = padding {
      return .conv2d(
        name: name, inChannels: inChannels, outChannels: outChannels, kernel: kernel,
        stride: stride, padding: p)
    }
    return .convolution(
      name: name, inChannels: inChannels, outChannels: outChannels, kernel: kernel,
      stride: stride, padding: padding, groups: groups)
  }

  /// The layer name for layers with parameters.
  public var name: String? {
    switch self {
    case .conv2d(let name, _, _, _, _, _), .linear(let name, _, _): return name
    case .batchNorm2d(let name, _, _, _): return name
    case .convolution(let name, _, _, _, _, _, _): return name
    default: return nil
    }
  }

  /// Why these numbers are unusable, or nil when they are fine.
  public var problem: String? { problem(depth: 0) }

  private func problem(depth: Int) -> String? {
    func bad(_ v: Int, _ what: String, _ range: ClosedRange<Int>) -> String? {
      range.contains(v) ? nil : "\(what) \(v) is outside \(range.lowerBound)...\(range.upperBound)"
    }
    func badName(_ n: String) -> String? {
      let ok =
        !n.isEmpty && n.count <= 64
        && n.unicodeScalars.allSatisfy {
          $0.isASCII
            && ($0.properties.isAlphabetic
              || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
        }
      return ok ? nil : "layer name \"\(n)\" must be 1-64 ASCII letters, digits, _ or -"
    }
    let f = 1...LayerSpec.maxFeatures
    let w = 1...LayerSpec.maxWindow
    switch self {
    case .conv2d(let name, let i, let o, let k, let s, let p):
      return badName(name) ?? bad(i, "in", f) ?? bad(o, "out", f) ?? bad(k, "kernel", w)
        ?? bad(s, "stride", w) ?? bad(p, "padding", 0...LayerSpec.maxWindow)
    case .maxPool2d(let k, let s):
      return bad(k, "kernel", w) ?? bad(s, "stride", w)
    case .linear(let name, let i, let o):
      return badName(name) ?? bad(i, "in", f) ?? bad(o, "out", f)
    case .batchNorm2d(let name, let features, let eps, let momentum):
      if let n = badName(name) { return n }
      if let f = bad(features, "features", f) { return f }
      guard eps.isFinite, eps > 0, eps <= 1 else { return "eps \(eps) is outside (0, 1]" }
      guard momentum.isFinite, momentum >= 0, momentum <= 1 else {
        return "momentum \(momentum) is outside [0, 1]"
      }
      return nil
    case .dropout(let p):
      return p.isFinite && p >= 0 && p < 1 ? nil : "dropout p \(p) is outside [0, 1)"
    case .convolution(let name, let i, let o, let k, let s, let padding, let g):
      if let p = badName(name) ?? bad(i, "in", f) ?? bad(o, "out", f) ?? bad(k, "kernel", w)
        ?? bad(s, "stride", w) ?? bad(g, "groups", f)
      {
        return p
      }
      if case .symmetric(let p) = padding, let b = bad(p, "padding", 0...LayerSpec.maxWindow) {
        return b
      }
      guard i % g == 0, o % g == 0 else {
        return "groups \(g) must divide in \(i) and out \(o)"
      }
      return nil
    case .residual(let layers):
      guard depth < LayerSpec.maxResidualDepth else {
        return "residual blocks nest deeper than \(LayerSpec.maxResidualDepth)"
      }
      guard (1...LayerSpec.maxResidualLayers).contains(layers.count) else {
        return "a residual block holds 1 to \(LayerSpec.maxResidualLayers) layers"
      }
      if layers.contains(where: \.dependsOnTrainingMode) {
        return "a residual block may not hold batchnorm2d or dropout (fold them first)"
      }
      for (i, inner) in layers.enumerated() {
        if let p = inner.problem(depth: depth + 1) { return "residual layer \(i): \(p)" }
      }
      return nil
    case .relu, .globalAvgPool, .flatten, .relu6:
      return nil
    }
  }

  /// The default leamoji architecture for `channels`x64x64 (or similar) input and `classes`
  /// outputs: three conv(3x3)/ReLU/max-pool blocks (16, 32, 64 channels), global average
  /// pooling and a linear classifier named `fc`.
  public static func defaultArchitecture(classes: Int, inputChannels: Int = 3) -> [LayerSpec] {
    return [
      .conv2d(
        name: "conv1", inChannels: inputChannels, outChannels: 16, kernel: 3, stride: 1, padding: 1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .conv2d(name: "conv2", inChannels: 16, outChannels: 32, kernel: 3, stride: 1, padding: 1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .conv2d(name: "conv3", inChannels: 32, outChannels: 64, kernel: 3, stride: 1, padding: 1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .globalAvgPool,
      .linear(name: "fc", inFeatures: 64, outFeatures: classes),
    ]
  }

  /// A network of the default's shape with its capacity chosen: one block per entry of
  /// `widths` (conv 3x3 `convN` with that many channels, then batch normalisation `bnN` when
  /// `batchNorm`, ReLU and 2x2 max pooling), global average pooling, dropout with probability
  /// `dropout` when it is above 0, and the linear classifier `fc`. `widths` 16, 32, 64 without
  /// batch normalisation or dropout is exactly `defaultArchitecture`.
  public static func architecture(
    classes: Int, inputChannels: Int = 3, widths: [Int], batchNorm: Bool, dropout: Double
  ) -> [LayerSpec] {
    var specs: [LayerSpec] = []
    var channels = inputChannels
    for (i, width) in widths.enumerated() {
      specs.append(
        .conv2d(
          name: "conv\(i + 1)", inChannels: channels, outChannels: width, kernel: 3, stride: 1,
          padding: 1))
      if batchNorm {
        specs.append(
          .batchNorm2d(
            name: "bn\(i + 1)", features: width, eps: defaultBatchNormEps,
            momentum: defaultBatchNormMomentum))
      }
      specs += [.relu, .maxPool2d(kernel: 2, stride: 2)]
      channels = width
    }
    specs.append(.globalAvgPool)
    if dropout > 0 { specs.append(.dropout(p: dropout)) }
    specs.append(.linear(name: "fc", inFeatures: channels, outFeatures: classes))
    return specs
  }
}

/// How a convolution pads its input.
public enum ConvolutionPadding: Equatable, Hashable, Sendable {
  /// This many zeros on every side (PyTorch's `padding=p`).
  case symmetric(Int)
  /// TensorFlow's "SAME": the output is `ceil(size / stride)` and the zeros needed for it are
  /// split with the extra one at the bottom and right.
  case same

  /// The zeros before (top or left) and after (bottom or right) an input of `size` along one
  /// axis.
  public func amounts(size: Int, kernel: Int, stride: Int) -> (before: Int, after: Int) {
    switch self {
    case .symmetric(let p):
      return (p, p)
    case .same:
      let out = (size + stride - 1) / stride
      let total = max((out - 1) * stride + kernel - size, 0)
      return (total / 2, total - total / 2)
    }
  }
}
