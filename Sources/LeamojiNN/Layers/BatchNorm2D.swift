import LeamojiCore

/// Batch normalisation over the channels of `[C, H, W]` maps, as PyTorch's `BatchNorm2d`.
///
/// As a `Layer` (one sample at a time) it is the inference form: `y = x · scale + shift` per
/// channel with `scale = weight / √(running_var + eps)` and `shift = bias − running_mean ·
/// scale`. Training needs the whole batch's statistics: `BatchNorm2D.TrainingPass` (one
/// channel at a time over every sample), which the engine runs as a batch-wide step and
/// `trainingForward` / `trainingBackward` run on tensors.
public struct BatchNorm2D: Layer {
  /// Layer name; tensors `<name>.weight`, `.bias`, `.running_mean`, `.running_var`,
  /// `.num_batches_tracked`.
  public let name: String
  /// Channels.
  public let features: Int
  /// Added to the variance before the square root.
  public let eps: Double
  /// Weight of the new batch in the running statistics' update.
  public let momentum: Double
  /// γ, shape `[features]` (starts at 1).
  public var weight: Tensor
  /// β, shape `[features]` (starts at 0).
  public var bias: Tensor
  /// Running mean, shape `[features]` (starts at 0).
  public var runningMean: Tensor
  /// Running unbiased variance, shape `[features]` (starts at 1).
  public var runningVar: Tensor
  /// Training batches seen, shape `[]` (PyTorch keeps it as an integer; here it is a float).
  public var batchesTracked: Tensor

  /// A fresh layer: γ 1, β 0, running mean 0, running variance 1, no batches tracked.
  public init(
    name: String, features: Int, eps: Double = LayerSpec.defaultBatchNormEps,
    momentum: Double = LayerSpec.defaultBatchNormMomentum
  ) {
    self.init(
      name: name, eps: eps, momentum: momentum,
      weight: Tensor(shape: [features], repeating: 1), bias: Tensor(shape: [features]),
      runningMean: Tensor(shape: [features]),
      runningVar: Tensor(shape: [features], repeating: 1), batchesTracked: Tensor(shape: []))
  }

  /// A layer with given tensors (all `[features]`, `batchesTracked` `[]`).
  public init(
    name: String, eps: Double, momentum: Double, weight: Tensor, bias: Tensor,
    runningMean: Tensor, runningVar: Tensor, batchesTracked: Tensor
  ) {
    let f = weight.count
    precondition(
      weight.shape == [f] && bias.shape == [f] && runningMean.shape == [f]
        && runningVar.shape == [f] && batchesTracked.shape == [], "batch norm tensor shapes")
    self.name = name
    self.features = f
    self.eps = eps
    self.momentum = momentum
    self.weight = weight
    self.bias = bias
    self.runningMean = runningMean
    self.runningVar = runningVar
    self.batchesTracked = batchesTracked
  }

  public var spec: LayerSpec {
    .batchNorm2d(name: name, features: features, eps: eps, momentum: momentum)
  }

  public var parameters: [Tensor] {
    get { [weight, bias] }
    set {
      precondition(newValue.count == 2 && newValue.allSatisfy { $0.shape == [features] })
      weight = newValue[0]
      bias = newValue[1]
    }
  }

  public var buffers: [Tensor] {
    get { [runningMean, runningVar, batchesTracked] }
    set {
      precondition(
        newValue.count == 3 && newValue[0].shape == [features]
          && newValue[1].shape == [features] && newValue[2].shape == [])
      runningMean = newValue[0]
      runningVar = newValue[1]
      batchesTracked = newValue[2]
    }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard s.count == 3, s[0] == features else {
      throw LayerShapeError("batchnorm2d \(name) expects [\(features), H, W] but gets \(s)")
    }
    return s
  }

  /// `1 / √(running_var + eps)` per channel, in Double then rounded (the inference form).
  func inverseStd(_ c: Int) -> Double {
    1 / (Double(runningVar.data[c]) + eps).squareRoot()
  }

  /// The inference form's per-channel `scale` and `shift` (`y = x · scale + shift`); the
  /// engine applies the same numbers.
  public func scaleAndShift() -> (scale: [Float], shift: [Float]) {
    var scale = [Float](repeating: 0, count: features)
    var shift = [Float](repeating: 0, count: features)
    for c in 0..<features {
      let s = Double(weight.data[c]) * inverseStd(c)
      scale[c] = Float(s)
      shift[c] = Float(Double(bias.data[c]) - Double(runningMean.data[c]) * s)
    }
    return (scale, shift)
  }

  public func forward(_ input: Tensor) -> Tensor {
    let (scale, shift) = scaleAndShift()
    let area = input.count / features
    var y = Tensor(shape: input.shape)
    input.data.withUnsafeBufferPointer { x in
      y.data.withUnsafeMutableBufferPointer { out in
        for c in 0..<features {
          BatchNorm2D.affine(
            x.baseAddress! + c * area, out.baseAddress! + c * area, area, scale: scale[c],
            shift: shift[c], relu: false)
        }
      }
    }
    return y
  }

  /// One channel in the inference form: `y = x · scale + shift`, then max(·, 0) when `relu`
  /// (the engine fuses a following ReLU).
  @inline(__always)
  static func affine(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ count: Int, scale: Float,
    shift: Float, relu: Bool
  ) {
    if relu {
      for i in 0..<count { y[i] = max(x[i] * scale + shift, 0) }
    } else {
      for i in 0..<count { y[i] = x[i] * scale + shift }
    }
  }

  // Inference form: ∂x = ∂y · scale; ∂γ = Σ ∂y · (x − mean) / √(var + eps); ∂β = Σ ∂y.
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    let (scale, _) = scaleAndShift()
    let area = input.count / features
    var dx = needsInputGradient ? Tensor(shape: input.shape) : nil
    for c in 0..<features {
      let inv = inverseStd(c)
      let mean = Double(runningMean.data[c])
      var dGamma = 0.0
      var dBeta = 0.0
      for i in (c * area)..<((c + 1) * area) {
        let dy = outputGradient.data[i]
        dGamma += Double(dy) * (Double(input.data[i]) - mean) * inv
        dBeta += Double(dy)
        dx?.data[i] = dy * scale[c]
      }
      parameterGradients[0].data[c] += Float(dGamma)
      parameterGradients[1].data[c] += Float(dBeta)
    }
    return dx
  }
}
