extension LayerSpec: Codable {
  private enum Key: String, CodingKey, CaseIterable {
    case type, name, `in`, out, kernel, stride, padding, features, eps, momentum, p, groups
    case layers
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: Key.self)
    let type = try c.decode(String.self, forKey: .type)
    let allowed: Set<Key>
    switch type {
    case "conv2d":
      allowed = [.type, .name, .in, .out, .kernel, .stride, .padding, .groups]
      let padding: ConvolutionPadding
      if (try? c.decodeIfPresent(String.self, forKey: .padding)) == "same" {
        padding = .same
      } else {
        padding = .symmetric(try c.decodeIfPresent(Int.self, forKey: .padding) ?? 0)
      }
      self = .convolution2d(
        name: try c.decode(String.self, forKey: .name),
        inChannels: try c.decode(Int.self, forKey: .in),
        outChannels: try c.decode(Int.self, forKey: .out),
        kernel: try c.decode(Int.self, forKey: .kernel),
        stride: try c.decodeIfPresent(Int.self, forKey: .stride) ?? 1,
        padding: padding, groups: try c.decodeIfPresent(Int.self, forKey: .groups) ?? 1)
    case "relu6":
      allowed = [.type]
      self = .relu6
    case "residual":
      allowed = [.type, .layers]
      self = .residual(layers: try c.decode([LayerSpec].self, forKey: .layers))
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
    case .convolution(let name, let i, let o, let k, let s, let padding, let g):
      try c.encode("conv2d", forKey: .type)
      try c.encode(name, forKey: .name)
      try c.encode(i, forKey: .in)
      try c.encode(o, forKey: .out)
      try c.encode(k, forKey: .kernel)
      try c.encode(s, forKey: .stride)
      switch padding {
      case .symmetric(let p): try c.encode(p, forKey: .padding)
      case .same: try c.encode("same", forKey: .padding)
      }
      if g != 1 { try c.encode(g, forKey: .groups) }
    case .relu6:
      try c.encode("relu6", forKey: .type)
    case .residual(let layers):
      try c.encode("residual", forKey: .type)
      try c.encode(layers, forKey: .layers)
    }
  }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
