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
/// `{"type":"dropout","p":0.2}`.
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
    case .relu, .maxPool2d, .globalAvgPool, .flatten, .dropout:
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
    default:
      return []
    }
  }

  /// The buffers PyTorch keeps as integers (`num_batches_tracked`): stored as I64.
  public var integerBufferNames: [String] {
    if case .batchNorm2d(let name, _, _, _) = self { return ["\(name).num_batches_tracked"] }
    return []
  }

  /// True for layers that behave differently in training (batch statistics, dropout masks):
  /// a network with one trains through `Network.batchGradients`.
  public var dependsOnTrainingMode: Bool {
    switch self {
    case .batchNorm2d, .dropout: return true
    default: return false
    }
  }

  /// True for layer types that model file version 1 already knew (such a network is written
  /// as version 1, so files of the old kinds stay byte-identical).
  public var isVersion1: Bool { !dependsOnTrainingMode }

  /// The layer name for layers with parameters.
  public var name: String? {
    switch self {
    case .conv2d(let name, _, _, _, _, _), .linear(let name, _, _): return name
    case .batchNorm2d(let name, _, _, _): return name
    default: return nil
    }
  }

  /// Why these numbers are unusable, or nil when they are fine.
  public var problem: String? {
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
    case .relu, .globalAvgPool, .flatten:
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

extension LayerSpec: Codable {
  private enum Key: String, CodingKey, CaseIterable {
    case type, name, `in`, out, kernel, stride, padding, features, eps, momentum, p
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    let type = try c.decode(String.self, forKey: .type)
    let allowed: Set<Key>
    switch type {
    case "conv2d":
      allowed = [.type, .name, .in, .out, .kernel, .stride, .padding]
      self = .conv2d(
        name: try c.decode(String.self, forKey: .name),
        inChannels: try c.decode(Int.self, forKey: .in),
        outChannels: try c.decode(Int.self, forKey: .out),
        kernel: try c.decode(Int.self, forKey: .kernel),
        stride: try c.decodeIfPresent(Int.self, forKey: .stride) ?? 1,
        padding: try c.decodeIfPresent(Int.self, forKey: .padding) ?? 0)
    case "relu":
      allowed = [.type]
      self = .relu
    case "maxpool2d":
      allowed = [.type, .kernel, .stride]
      let k = try c.decode(Int.self, forKey: .kernel)
      self = .maxPool2d(kernel: k, stride: try c.decodeIfPresent(Int.self, forKey: .stride) ?? k)
    case "globalavgpool":
      allowed = [.type]
      self = .globalAvgPool
    case "flatten":
      allowed = [.type]
      self = .flatten
    case "linear":
      allowed = [.type, .name, .in, .out]
      self = .linear(
        name: try c.decode(String.self, forKey: .name),
        inFeatures: try c.decode(Int.self, forKey: .in),
        outFeatures: try c.decode(Int.self, forKey: .out))
    case "batchnorm2d":
      allowed = [.type, .name, .features, .eps, .momentum]
      self = .batchNorm2d(
        name: try c.decode(String.self, forKey: .name),
        features: try c.decode(Int.self, forKey: .features),
        eps: try c.decodeIfPresent(Double.self, forKey: .eps) ?? LayerSpec.defaultBatchNormEps,
        momentum: try c.decodeIfPresent(Double.self, forKey: .momentum)
          ?? LayerSpec.defaultBatchNormMomentum)
    case "dropout":
      allowed = [.type, .p]
      self = .dropout(p: try c.decode(Double.self, forKey: .p))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: c, debugDescription: "unknown layer type \"\(type)\"")
    }
    // Reject keys we do not understand (e.g. "dilation"): ignoring them would compute
    // something other than what the file describes.
    let raw = try decoder.container(keyedBy: AnyKey.self)
    if let extra = raw.allKeys.first(where: {
      Key(rawValue: $0.stringValue).map { !allowed.contains($0) } ?? true
    }) {
      throw DecodingError.dataCorruptedError(
        forKey: .type, in: c,
        debugDescription: "unsupported key \"\(extra.stringValue)\" for \(type)")
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: Key.self)
    switch self {
    case .conv2d(let name, let i, let o, let k, let s, let p):
      try c.encode("conv2d", forKey: .type)
      try c.encode(name, forKey: .name)
      try c.encode(i, forKey: .in)
      try c.encode(o, forKey: .out)
      try c.encode(k, forKey: .kernel)
      try c.encode(s, forKey: .stride)
      try c.encode(p, forKey: .padding)
    case .relu:
      try c.encode("relu", forKey: .type)
    case .maxPool2d(let k, let s):
      try c.encode("maxpool2d", forKey: .type)
      try c.encode(k, forKey: .kernel)
      try c.encode(s, forKey: .stride)
    case .globalAvgPool:
      try c.encode("globalavgpool", forKey: .type)
    case .flatten:
      try c.encode("flatten", forKey: .type)
    case .linear(let name, let i, let o):
      try c.encode("linear", forKey: .type)
      try c.encode(name, forKey: .name)
      try c.encode(i, forKey: .in)
      try c.encode(o, forKey: .out)
    case .batchNorm2d(let name, let f, let eps, let momentum):
      try c.encode("batchnorm2d", forKey: .type)
      try c.encode(name, forKey: .name)
      try c.encode(f, forKey: .features)
      try c.encode(eps, forKey: .eps)
      try c.encode(momentum, forKey: .momentum)
    case .dropout(let p):
      try c.encode("dropout", forKey: .type)
      try c.encode(p, forKey: .p)
    }
  }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
