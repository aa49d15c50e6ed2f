/// Max pooling over square windows of each channel of a CHW sample (no padding; the output
/// size is rounded down as in PyTorch's default).
public struct MaxPool2D: Layer {
  /// Side of the square window.
  public let kernel: Int
  /// Step between windows.
  public let stride: Int

  public init(kernel: Int = 2, stride: Int = 2) {
    self.kernel = kernel
    self.stride = stride
  }

  public var spec: LayerSpec { .maxPool2d(kernel: kernel, stride: stride) }
  public var parameters: [Tensor] {
    get { [] }
    set { precondition(newValue.isEmpty, "MaxPool2D has no parameters") }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard s.count == 3, s[1] >= kernel, s[2] >= kernel else {
      throw LayerShapeError(
        "maxpool2d (kernel \(kernel)) expects [C, H, W] with H, W >= \(kernel) but gets \(s)")
    }
    let g = window(s)
    return [s[0], g.outHeight, g.outWidth]
  }

  func window(_ s: [Int]) -> Kernels.Window {
    Kernels.Window(
      channels: s[0], height: s[1], width: s[2], kernel: kernel, stride: stride, padding: 0)
  }

  public func forward(_ input: Tensor) -> Tensor {
    let g = window(input.shape)
    var y = Tensor(shape: [g.channels, g.outHeight, g.outWidth])
    input.data.withUnsafeBufferPointer { x in
      y.data.withUnsafeMutableBufferPointer { o in
        Kernels.maxPool(g, input: x.baseAddress!, output: o.baseAddress!)
      }
    }
    return y
  }

  // Each window's gradient goes to the element that was its maximum (the first one on ties).
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    guard needsInputGradient else { return nil }
    var dx = Tensor(shape: input.shape)
    MaxPool2D.backward(
      window(input.shape), input: input.data, outputGradient: outputGradient.data,
      inputGradient: &dx.data)
    return dx
  }

  /// ∂x of one sample (every element set).
  static func backward(
    _ g: Kernels.Window, input: UnsafePointer<Float>, outputGradient: UnsafePointer<Float>,
    inputGradient: UnsafeMutablePointer<Float>
  ) {
    inputGradient.update(repeating: 0, count: g.channels * g.height * g.width)
    Kernels.maxPoolBackwardAdd(
      g, input: input, gradOutput: outputGradient, gradInput: inputGradient)
  }
}

/// Global average pooling: the mean of each channel, `[C, H, W]` → `[C]`.
public struct GlobalAvgPool: Layer {
  public init() {}
  public var spec: LayerSpec { .globalAvgPool }
  public var parameters: [Tensor] {
    get { [] }
    set { precondition(newValue.isEmpty, "GlobalAvgPool has no parameters") }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard s.count == 3, s[1] > 0, s[2] > 0 else {
      throw LayerShapeError("globalavgpool expects [C, H, W] but gets \(s)")
    }
    return [s[0]]
  }

  public func forward(_ input: Tensor) -> Tensor {
    var y = Tensor(shape: [input.shape[0]])
    GlobalAvgPool.forward(
      input.data, &y.data, channels: input.shape[0], area: input.shape[1] * input.shape[2])
    return y
  }

  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    guard needsInputGradient else { return nil }
    var dx = Tensor(shape: input.shape)
    GlobalAvgPool.backward(
      outputGradient.data, &dx.data, channels: input.shape[0],
      area: input.shape[1] * input.shape[2])
    return dx
  }

  /// `y[c]` = the mean of channel `c`, for the channels `channels`.
  static func forward(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, channels: Range<Int>, area: Int
  ) {
    for c in channels { y[c] = Kernels.sum(x + c * area, area) / Float(area) }
  }

  static func forward(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, channels: Int, area: Int
  ) {
    forward(x, y, channels: 0..<channels, area: area)
  }

  // ∂x[c, h, w] = ∂y[c] / (H·W)
  static func backward(
    _ dy: UnsafePointer<Float>, _ dx: UnsafeMutablePointer<Float>, channels: Int, area: Int
  ) {
    for c in 0..<channels { (dx + c * area).update(repeating: dy[c] / Float(area), count: area) }
  }
}
