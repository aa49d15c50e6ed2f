import LeamojiCore

/// Batch normalisation over the channels of `[C, H, W]` maps, as PyTorch's `BatchNorm2d`.
///
/// As a `Layer` (one sample at a time) it is the inference form: `y = x · scale + shift` per
/// channel with `scale = weight / √(running_var + eps)` and `shift = bias − running_mean ·
/// scale`. Training needs the whole batch's statistics, so it goes through
/// `trainingForward` / `trainingBackward` (`Network.batchGradients`), which also give the
/// updated running statistics.
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
    for c in 0..<features {
      for i in (c * area)..<((c + 1) * area) { y.data[i] = input.data[i] * scale[c] + shift[c] }
    }
    return y
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

  // MARK: Training (whole batch)

  /// What `trainingForward` keeps for `trainingBackward`: the normalised inputs and each
  /// channel's `1 / √(batch variance + eps)`.
  public struct BatchCache: Sendable {
    var normalised: [Tensor]
    var inverseStd: [Double]
  }

  /// Training-mode forward over a whole batch (every sample `[C, H, W]`): each channel
  /// normalised with the batch's mean and biased variance (sums in Double, in sample order,
  /// so the result does not depend on threads). Returns the outputs, the cache for the
  /// backward pass and the buffers after PyTorch's update (`running = (1 − momentum) ·
  /// running + momentum · batch`, with the unbiased variance; one more batch tracked).
  public func trainingForward(_ xs: [Tensor]) -> (
    outputs: [Tensor], cache: BatchCache, buffers: [Tensor]
  ) {
    let n = xs.count
    let area = xs.first.map { $0.count / features } ?? 0
    let total = Double(n * area)
    var sums = [Double](repeating: 0, count: features)
    var squares = [Double](repeating: 0, count: features)
    for x in xs {
      x.data.withUnsafeBufferPointer { p in
        for c in 0..<features {
          var s = 0.0
          for i in (c * area)..<((c + 1) * area) { s += Double(p[i]) }
          sums[c] += s
        }
      }
    }
    let means = sums.map { $0 / total }
    for x in xs {
      x.data.withUnsafeBufferPointer { p in
        for c in 0..<features {
          let mu = means[c]
          var s = 0.0
          for i in (c * area)..<((c + 1) * area) {
            let d = Double(p[i]) - mu
            s += d * d
          }
          squares[c] += s
        }
      }
    }
    var inverse = [Double](repeating: 0, count: features)
    var mean = runningMean
    var variance = runningVar
    for c in 0..<features {
      let biased = squares[c] / total
      inverse[c] = 1 / (biased + eps).squareRoot()
      let unbiased = total > 1 ? squares[c] / (total - 1) : biased
      mean.data[c] = Float((1 - momentum) * Double(runningMean.data[c]) + momentum * means[c])
      variance.data[c] = Float(
        (1 - momentum) * Double(runningVar.data[c]) + momentum * unbiased)
    }
    var ys: [Tensor] = []
    var normalised: [Tensor] = []
    ys.reserveCapacity(n)
    normalised.reserveCapacity(n)
    for x in xs {
      var h = Tensor(shape: x.shape)
      var y = Tensor(shape: x.shape)
      x.data.withUnsafeBufferPointer { p in
        h.data.withUnsafeMutableBufferPointer { hp in
          y.data.withUnsafeMutableBufferPointer { yp in
            for c in 0..<features {
              let (mu, inv) = (means[c], inverse[c])
              let (gamma, beta) = (weight.data[c], bias.data[c])
              for i in (c * area)..<((c + 1) * area) {
                let v = Float((Double(p[i]) - mu) * inv)
                hp[i] = v
                yp[i] = v * gamma + beta
              }
            }
          }
        }
      }
      ys.append(y)
      normalised.append(h)
    }
    let tracked = Tensor(shape: [], data: [batchesTracked.data[0] + 1])
    return (ys, BatchCache(normalised: normalised, inverseStd: inverse), [mean, variance, tracked])
  }

  /// Training-mode backward over the batch: with `N` elements per channel and `x̂` the
  /// normalised input, `∂β = Σ ∂y`, `∂γ = Σ ∂y · x̂` and
  /// `∂x = γ / √(σ² + eps) / N · (N · ∂y − ∂β − x̂ · ∂γ)`. Parameter gradients are added.
  public func trainingBackward(
    cache: BatchCache, outputGradients dys: [Tensor], parameterGradients: inout [Tensor],
    needsInputGradient: Bool
  ) -> [Tensor]? {
    let n = dys.count
    let area = dys.first.map { $0.count / features } ?? 0
    let total = Double(n * area)
    var dBeta = [Double](repeating: 0, count: features)
    var dGamma = [Double](repeating: 0, count: features)
    for j in 0..<n {
      dys[j].data.withUnsafeBufferPointer { g in
        cache.normalised[j].data.withUnsafeBufferPointer { h in
          for c in 0..<features {
            var (b, w) = (0.0, 0.0)
            for i in (c * area)..<((c + 1) * area) {
              let dy = Double(g[i])
              b += dy
              w += dy * Double(h[i])
            }
            dBeta[c] += b
            dGamma[c] += w
          }
        }
      }
    }
    for c in 0..<features {
      parameterGradients[0].data[c] += Float(dGamma[c])
      parameterGradients[1].data[c] += Float(dBeta[c])
    }
    guard needsInputGradient else { return nil }
    let ks = (0..<features).map { Double(weight.data[$0]) * cache.inverseStd[$0] / total }
    return (0..<n).map { j in
      var dx = Tensor(shape: dys[j].shape)
      dys[j].data.withUnsafeBufferPointer { g in
        cache.normalised[j].data.withUnsafeBufferPointer { h in
          dx.data.withUnsafeMutableBufferPointer { d in
            for c in 0..<features {
              let (k, b, w) = (ks[c], dBeta[c], dGamma[c])
              for i in (c * area)..<((c + 1) * area) {
                d[i] = Float(k * (total * Double(g[i]) - b - Double(h[i]) * w))
              }
            }
          }
        }
      }
      return dx
    }
  }
}
