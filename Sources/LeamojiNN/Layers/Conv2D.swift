import LeamojiCore

/// A 2-D convolution (cross-correlation, as in PyTorch) over a CHW sample, computed as
/// im2col followed by a matrix multiply.
public struct Conv2D: Layer {
  /// Layer name; the parameters are `<name>.weight` and `<name>.bias`.
  public let name: String
  /// Input channels.
  public let inChannels: Int
  /// Output channels (number of kernels).
  public let outChannels: Int
  /// Side of the square kernel.
  public let kernel: Int
  /// Step between kernel positions.
  public let stride: Int
  /// Zero padding added on every side.
  public let padding: Int
  /// Kernel weights, shape `[out, in, kernel, kernel]` (PyTorch layout).
  public var weight: Tensor
  /// Bias per output channel, shape `[out]`.
  public var bias: Tensor

  /// A convolution with He-normal weights (fan-in `in * kernel * kernel`) and zero bias.
  public init(
    name: String, inChannels: Int, outChannels: Int, kernel: Int = 3, stride: Int = 1,
    padding: Int = 1, rng: inout SplitMix64
  ) {
    let shape = [outChannels, inChannels, kernel, kernel]
    self.init(
      name: name, stride: stride, padding: padding,
      weight: Initializer.heNormal(shape: shape, fanIn: inChannels * kernel * kernel, rng: &rng),
      bias: Tensor(shape: [outChannels]))
  }

  /// A convolution with given weights `[out, in, k, k]` and bias `[out]`.
  public init(name: String, stride: Int = 1, padding: Int = 1, weight: Tensor, bias: Tensor) {
    precondition(
      weight.rank == 4 && weight.shape[2] == weight.shape[3], "conv weight must be [out, in, k, k]")
    precondition(bias.shape == [weight.shape[0]], "conv bias must be [out]")
    self.name = name
    self.outChannels = weight.shape[0]
    self.inChannels = weight.shape[1]
    self.kernel = weight.shape[2]
    self.stride = stride
    self.padding = padding
    self.weight = weight
    self.bias = bias
  }

  public var spec: LayerSpec {
    .conv2d(
      name: name, inChannels: inChannels, outChannels: outChannels, kernel: kernel,
      stride: stride, padding: padding)
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

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard s.count == 3, s[0] == inChannels else {
      throw LayerShapeError("conv2d \(name) expects [\(inChannels), H, W] but gets \(s)")
    }
    let g = window(s)
    guard s[1] + 2 * padding >= kernel, s[2] + 2 * padding >= kernel else {
      throw LayerShapeError(
        "conv2d \(name): input \(s[1])x\(s[2]) is smaller than its kernel \(kernel)")
    }
    return [outChannels, g.outHeight, g.outWidth]
  }

  func window(_ s: [Int]) -> Kernels.Window {
    Kernels.Window(
      channels: inChannels, height: s[1], width: s[2], kernel: kernel, stride: stride,
      padding: padding)
  }

  // y[o, p] = bias[o] + Σ_r W[o, r] · col[r, p]      (r = (c, ky, kx), p = (oy, ox))
  // The per-sample forms below allocate their buffers and serve the layer-by-layer path and
  // the tests; the engine calls the same `Conv2D.forward` / `backward` on its reused buffers.
  public func forward(_ input: Tensor) -> Tensor {
    let g = window(input.shape)
    var col = [Float](repeating: 0, count: g.panelledCount)
    var padded = [Float](repeating: 0, count: g.paddedCount)
    var out = [Float](repeating: 0, count: outChannels * g.positions)
    var scratch = [Float](
      repeating: 0, count: Kernels.gemmScratchCount(m: outChannels, k: g.patchSize))
    Conv2D.forward(
      g, outChannels: outChannels, weight: weight.data, bias: bias.data, input: input.data,
      padded: &padded, col: &col, output: &out, relu: false, scratch: &scratch)
    return Tensor(shape: [outChannels, g.outHeight, g.outWidth], data: out)
  }

  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    let g = window(input.shape)
    var col = [Float](repeating: 0, count: g.panelledCount)
    var padded = [Float](repeating: 0, count: g.paddedCount)
    var scratch = [Float](
      repeating: 0, count: Kernels.gemmScratchCount(m: g.patchSize, k: outChannels))
    Kernels.im2colPanels(g, input: input.data, padded: &padded, col: &col)
    var dx = Tensor(shape: needsInputGradient ? input.shape : [0])
    var (dw, db) = (parameterGradients[0], parameterGradients[1])
    parameterGradients = []  // dw and db are then the only owners: no copy on write
    dx.data.withUnsafeMutableBufferPointer { d in
      Conv2D.backward(
        g, outChannels: outChannels, weight: weight.data, outputGradient: outputGradient.data,
        col: &col, dWeight: &dw.data, dBias: &db.data, start: .accumulate,
        inputGradient: needsInputGradient ? d.baseAddress! : nil, scratch: &scratch)
    }
    parameterGradients = [dw, db]
    return needsInputGradient ? dx : nil
  }

  /// One sample's forward pass: `input` unfolded into `col` in the GEMM's panels (through the
  /// zero-bordered copy `padded`), then `output = W · col + bias`, with a ReLU when `relu`.
  static func forward(
    _ g: Kernels.Window, outChannels: Int, weight: UnsafePointer<Float>,
    bias: UnsafePointer<Float>, input: UnsafePointer<Float>, padded: UnsafeMutablePointer<Float>,
    col: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>, relu: Bool,
    scratch: UnsafeMutablePointer<Float>
  ) {
    Kernels.im2colPanels(g, input: input, padded: padded, col: col)
    Kernels.gemmPacked(
      m: outChannels, n: g.positions, k: g.patchSize,
      a: weight, aRowStride: g.patchSize, aColStride: 1,
      b: col, bRowStride: 0, bColStride: 0,
      c: output, ldc: g.positions, start: .overwrite, bias: bias, relu: relu,
      scratch: scratch, bIsPanels: true)
  }

  // ∂bias[o] = Σ_p dY[o, p]
  // ∂W = dY · colᵀ          ([out × positions] · [positions × patch])
  // ∂x = col2im(Wᵀ · dY)    ([patch × out] · [out × positions], folded back onto the input)
  /// One sample's backward pass from the forward pass's `col` (in panels): the bias and
  /// weight gradients (set, or added with `.accumulate`) and, when `inputGradient` is given,
  /// `∂x` there (every element set; `col` then holds `∂col`, row-major).
  static func backward(
    _ g: Kernels.Window, outChannels: Int, weight: UnsafePointer<Float>,
    outputGradient dy: UnsafePointer<Float>, col: UnsafeMutablePointer<Float>,
    dWeight: UnsafeMutablePointer<Float>, dBias: UnsafeMutablePointer<Float>,
    start: Kernels.GEMMStart, inputGradient dx: UnsafeMutablePointer<Float>?,
    scratch: UnsafeMutablePointer<Float>
  ) {
    let positions = g.positions
    let patch = g.patchSize
    for o in 0..<outChannels {
      let sum = Kernels.sumLanes(dy + o * positions, positions)
      dBias[o] = start == .overwrite ? sum : dBias[o] + sum
    }
    Kernels.gemmNT(
      m: outChannels, n: patch, k: positions, a: dy, b: col, bRowStride: 16,
      bPanelStride: patch * 16, c: dWeight, ldc: patch, start: start)
    guard let dx else { return }
    Kernels.gemmPacked(
      m: patch, n: positions, k: outChannels,
      a: weight, aRowStride: 1, aColStride: patch,
      b: dy, bRowStride: positions, bColStride: 1,
      c: col, ldc: positions, start: .overwrite, bias: nil, relu: false, scratch: scratch)
    dx.update(repeating: 0, count: g.channels * g.height * g.width)
    Kernels.col2imAdd(g, col: col, input: dx)
  }
}
