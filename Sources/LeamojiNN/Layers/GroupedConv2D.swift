import LeamojiCore

/// The general 2-D convolution of MobileNet-style networks: channels split into `groups`
/// independent convolutions (depthwise when every group has one input and one output channel)
/// and padding that may be TensorFlow's asymmetric "same".
///
/// Its forward pass runs the kernels the network's engine runs (`Kernels.depthwise`, or im2col
/// and the GEMM when there is one group), so fine-tuning sees the same bits as inference; only
/// other group counts, which the engine does not take, and the backward pass loop over taps
/// here (each tap's valid output range worked out once).
public struct GroupedConv2D: Layer {
  /// Layer name; the parameters are `<name>.weight` and `<name>.bias`.
  public let name: String
  public let inChannels: Int
  public let outChannels: Int
  /// Side of the square kernel.
  public let kernel: Int
  public let stride: Int
  public let padding: ConvolutionPadding
  /// Independent channel groups; `inChannels` and `outChannels` are multiples of it.
  public let groups: Int
  /// Weights `[out, in / groups, kernel, kernel]` (PyTorch layout).
  public var weight: Tensor
  /// Bias per output channel, `[out]`.
  public var bias: Tensor

  /// A convolution with He-normal weights (fan-in `in / groups * kernel²`) and zero bias.
  public init(
    name: String, inChannels: Int, outChannels: Int, kernel: Int, stride: Int,
    padding: ConvolutionPadding, groups: Int, rng: inout SplitMix64
  ) {
    let perGroup = inChannels / groups
    self.init(
      name: name, stride: stride, padding: padding, groups: groups,
      weight: Initializer.heNormal(
        shape: [outChannels, perGroup, kernel, kernel], fanIn: perGroup * kernel * kernel,
        rng: &rng),
      bias: Tensor(shape: [outChannels]))
  }

  /// A convolution with given weights `[out, in / groups, k, k]` and bias `[out]`.
  public init(
    name: String, stride: Int, padding: ConvolutionPadding, groups: Int, weight: Tensor,
    bias: Tensor
  ) {
    precondition(
      weight.rank == 4 && weight.shape[2] == weight.shape[3], "conv weight must be [out, in, k, k]")
    precondition(bias.shape == [weight.shape[0]], "conv bias must be [out]")
    precondition(groups >= 1 && weight.shape[0] % groups == 0, "groups must divide out")
    self.name = name
    self.outChannels = weight.shape[0]
    self.inChannels = weight.shape[1] * groups
    self.kernel = weight.shape[2]
    self.stride = stride
    self.padding = padding
    self.groups = groups
    self.weight = weight
    self.bias = bias
  }

  public var spec: LayerSpec {
    .convolution(
      name: name, inChannels: inChannels, outChannels: outChannels, kernel: kernel,
      stride: stride, padding: padding, groups: groups)
  }

  public var parameters: [Tensor] {
    get { [weight, bias] }
    set {
      precondition(
        newValue.count == 2 && newValue[0].shape == weight.shape && newValue[1].shape == bias.shape)
      weight = newValue[0]
      bias = newValue[1]
    }
  }

  /// True when each group maps one channel to one channel (a depthwise convolution).
  public var isDepthwise: Bool { groups == inChannels && groups == outChannels }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard s.count == 3, s[0] == inChannels else {
      throw LayerShapeError("conv2d \(name) expects [\(inChannels), H, W] but gets \(s)")
    }
    let g = geometry(s)
    guard g.outHeight >= 1, g.outWidth >= 1,
      s[1] + g.top + g.bottom >= kernel, s[2] + g.left + g.right >= kernel
    else {
      throw LayerShapeError(
        "conv2d \(name): input \(s[1])x\(s[2]) is smaller than its kernel \(kernel)")
    }
    return [outChannels, g.outHeight, g.outWidth]
  }

  /// The sweep over an input of shape `[C, H, W]`.
  func geometry(_ s: [Int]) -> Kernels.PaddedWindow {
    let (top, bottom) = padding.amounts(size: s[1], kernel: kernel, stride: stride)
    let (left, right) = padding.amounts(size: s[2], kernel: kernel, stride: stride)
    return Kernels.PaddedWindow(
      height: s[1], width: s[2], kernel: kernel, stride: stride, top: top, bottom: bottom,
      left: left, right: right)
  }

  // y[o, oy, ox] = bias[o] + Σ_{i in o's group, ky, kx} W[o, i, ky, kx] · x[i, oy·s − top + ky,
  // ox·s − left + kx]   (0 outside the input)
  public func forward(_ input: Tensor) -> Tensor {
    let g = geometry(input.shape)
    var out = Tensor(shape: [outChannels, g.outHeight, g.outWidth])
    if isDepthwise && (stride == 1 || stride == 2) {
      var scratch = [Float](repeating: 0, count: Kernels.depthwiseScratchCount(g))
      Kernels.depthwise(
        g, channels: 0..<inChannels, input: input.data, weight: weight.data, bias: bias.data,
        output: &out.data, activation: .none, scratch: &scratch)
      return out
    }
    if groups == 1 {
      let depth = inChannels * kernel * kernel
      var col = [Float](repeating: 0, count: depth * g.outArea)
      var scratch = [Float](repeating: 0, count: Kernels.gemmInPlaceScratchCount(m: outChannels))
      Kernels.im2col(g, rows: 0..<depth, input: input.data, col: &col)
      Kernels.gemmPacked(
        m: outChannels, n: g.outArea, k: depth, a: weight.data, aRowStride: depth, aColStride: 1,
        b: col, bRowStride: g.outArea, bColStride: 1, c: &out.data, ldc: g.outArea,
        start: .overwrite, bias: bias.data, relu: false, scratch: &scratch,
        activation: Kernels.Activation.none, weightsInPlace: true)
      return out
    }
    let perIn = inChannels / groups
    let perOut = outChannels / groups
    for o in 0..<outChannels {
      let plane = o * g.outArea
      for p in 0..<g.outArea { out.data[plane + p] = bias.data[o] }
      let group = o / perOut
      for j in 0..<perIn {
        let i = group * perIn + j
        g.forEachTap { ky, kx, oy, xs, x0 in
          let w = weight.data[((o * perIn + j) * kernel + ky) * kernel + kx]
          let row = plane + oy * g.outWidth
          let src = (i * g.height + (oy * stride - g.top + ky)) * g.width
          for ox in xs { out.data[row + ox] += w * input.data[src + x0 + ox * stride] }
        }
      }
    }
    return out
  }

  // ∂bias[o] = Σ ∂y[o, ·]; ∂W[o, j, ky, kx] = Σ ∂y[o, oy, ox] · x[i, iy, ix];
  // ∂x[i, iy, ix] = Σ W[o, j, ky, kx] · ∂y[o, oy, ox]  (the taps of the forward pass, reversed)
  public func backward(
    input: Tensor, output: Tensor, outputGradient dy: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    let g = geometry(input.shape)
    let perIn = inChannels / groups
    let perOut = outChannels / groups
    var dx = Tensor(shape: needsInputGradient ? input.shape : [0])
    for o in 0..<outChannels {
      let plane = o * g.outArea
      var sum: Float = 0
      for p in 0..<g.outArea { sum += dy.data[plane + p] }
      parameterGradients[1].data[o] += sum
      let group = o / perOut
      for j in 0..<perIn {
        let i = group * perIn + j
        g.forEachTap { ky, kx, oy, xs, x0 in
          let wi = ((o * perIn + j) * kernel + ky) * kernel + kx
          let w = weight.data[wi]
          let row = plane + oy * g.outWidth
          let src = (i * g.height + (oy * stride - g.top + ky)) * g.width + x0
          var dw: Float = 0
          for ox in xs {
            dw += dy.data[row + ox] * input.data[src + ox * stride]
            if needsInputGradient { dx.data[src + ox * stride] += w * dy.data[row + ox] }
          }
          parameterGradients[0].data[wi] += dw
        }
      }
    }
    return needsInputGradient ? dx : nil
  }
}

/// min(max(x, 0), 6) element-wise, any shape (MobileNet's activation).
public struct ReLU6: Layer {
  public init() {}
  public var spec: LayerSpec { .relu6 }
  public var parameters: [Tensor] {
    get { [] }
    set { precondition(newValue.isEmpty, "ReLU6 has no parameters") }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] { s }

  public func forward(_ input: Tensor) -> Tensor {
    var y = Tensor(shape: input.shape)
    Kernels.relu6(input.data, &y.data, input.count)
    return y
  }

  // ∂x = ∂y where 0 < y < 6, else 0 (PyTorch's choice at the two corners).
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    guard needsInputGradient else { return nil }
    var dx = outputGradient
    for i in dx.data.indices where !(output.data[i] > 0 && output.data[i] < 6) { dx.data[i] = 0 }
    return dx
  }
}
