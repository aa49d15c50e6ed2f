/// Batch normalisation in training mode: each channel normalised with the batch's mean and
/// biased variance. The maths is written once here, one channel at a time over every sample's
/// buffer (`TrainingPass`); the engine runs it as a batch-wide step (channels in parallel) and
/// `trainingForward` / `trainingBackward` run it on tensors. Sums are in Double, in sample
/// order then element order, so the result does not depend on threads.
extension BatchNorm2D {
  /// Where one training step's batch lies: sample `j`'s input and output of this layer, and
  /// the batch statistics of each channel kept from forward to backward. (Sendable: each
  /// channel's work touches only that channel's elements.)
  struct TrainingPass: @unchecked Sendable {
    var samples: Int
    /// Elements per channel of one sample.
    var area: Int
    var eps: Double
    var momentum: Double
    var inputs: UnsafePointer<UnsafePointer<Float>>
    var outputs: UnsafePointer<UnsafeMutablePointer<Float>>
    /// γ and β.
    var weight: UnsafePointer<Float>
    var bias: UnsafePointer<Float>
    /// The batch mean and `1 / √(biased variance + eps)` per channel.
    var mean: UnsafeMutablePointer<Double>
    var inverse: UnsafeMutablePointer<Double>
    /// A ReLU after the batch norm, fused (the outputs are after it).
    var relu: Bool

    /// Normalises channel `c` of every sample; `runningMean` and `runningVar` (this channel's
    /// entries) get PyTorch's update `(1 − momentum) · running + momentum · batch`, with the
    /// unbiased variance.
    func forward(
      channel c: Int, runningMean: UnsafeMutablePointer<Float>,
      runningVar: UnsafeMutablePointer<Float>
    ) {
      let total = Double(samples * area)
      let at = c * area
      var sum = 0.0
      for j in 0..<samples {
        let p = inputs[j] + at
        var s = 0.0
        for i in 0..<area { s += Double(p[i]) }
        sum += s
      }
      let mu = sum / total
      var squares = 0.0
      for j in 0..<samples {
        let p = inputs[j] + at
        var s = 0.0
        for i in 0..<area {
          let d = Double(p[i]) - mu
          s += d * d
        }
        squares += s
      }
      let biased = squares / total
      let inv = 1 / (biased + eps).squareRoot()
      let unbiased = total > 1 ? squares / (total - 1) : biased
      mean[c] = mu
      inverse[c] = inv
      runningMean[c] = Float((1 - momentum) * Double(runningMean[c]) + momentum * mu)
      runningVar[c] = Float((1 - momentum) * Double(runningVar[c]) + momentum * unbiased)
      let (gamma, beta) = (weight[c], bias[c])
      for j in 0..<samples {
        let (p, y) = (inputs[j] + at, outputs[j] + at)
        for i in 0..<area { y[i] = Float((Double(p[i]) - mu) * inv) * gamma + beta }
        if relu { Kernels.relu(y, y, area) }
      }
    }

    /// Backpropagates channel `c`: with `N` elements per channel and `x̂` the normalised input,
    /// `∂β = Σ ∂y`, `∂γ = Σ ∂y · x̂` (added to `dWeight[c]`, `dBias[c]`) and, when
    /// `gradients` is given, `∂x = γ / √(σ² + eps) / N · (N · ∂y − ∂β − x̂ · ∂γ)`, written over
    /// each sample's `∂y` in `gradients[j]`. `x̂` is computed again from the input, as `forward`
    /// computed it. With a fused ReLU, `∂y` is first masked where the output is not positive.
    func backward(
      channel c: Int, outputGradients dys: UnsafePointer<UnsafeMutablePointer<Float>>,
      dWeight: UnsafeMutablePointer<Float>, dBias: UnsafeMutablePointer<Float>,
      inputGradients: Bool
    ) {
      let total = Double(samples * area)
      let at = c * area
      let (mu, inv) = (mean[c], inverse[c])
      var dBeta = 0.0
      var dGamma = 0.0
      for j in 0..<samples {
        let (p, g) = (inputs[j] + at, dys[j] + at)
        if relu { Kernels.reluBackward(outputs[j] + at, g, g, area) }
        var (b, w) = (0.0, 0.0)
        for i in 0..<area {
          let dy = Double(g[i])
          b += dy
          w += dy * Double(Float((Double(p[i]) - mu) * inv))
        }
        dBeta += b
        dGamma += w
      }
      dWeight[c] += Float(dGamma)
      dBias[c] += Float(dBeta)
      guard inputGradients else { return }
      let k = Double(weight[c]) * inv / total
      for j in 0..<samples {
        let (p, g) = (inputs[j] + at, dys[j] + at)
        for i in 0..<area {
          let h = Double(Float((Double(p[i]) - mu) * inv))
          g[i] = Float(k * (total * Double(g[i]) - dBeta - h * dGamma))
        }
      }
    }
  }

  // MARK: On tensors

  /// What `trainingForward` keeps for `trainingBackward`: the inputs, outputs and each
  /// channel's batch statistics.
  public struct BatchCache: Sendable {
    var inputs: [Tensor]
    var outputs: [Tensor]
    var mean: [Double]
    var inverseStd: [Double]
  }

  /// Runs `body` with a `TrainingPass` over `inputs` and `outputs` (one tensor per sample).
  private func withPass<R>(
    _ inputs: [Tensor], _ outputs: inout [Tensor], mean: inout [Double],
    inverse: inout [Double], _ body: (TrainingPass) -> R
  ) -> R {
    let n = inputs.count
    let ins = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: max(n, 1))
    let outs = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(n, 1))
    defer {
      ins.deallocate()
      outs.deallocate()
    }
    // Tensors keep their storage while the pass runs: each is uniquely referenced here.
    for j in 0..<n {
      ins[j] = inputs[j].data.withUnsafeBufferPointer { $0.baseAddress! }
      outs[j] = outputs[j].data.withUnsafeMutableBufferPointer { $0.baseAddress! }
    }
    return weight.data.withUnsafeBufferPointer { w in
      bias.data.withUnsafeBufferPointer { b in
        mean.withUnsafeMutableBufferPointer { m in
          inverse.withUnsafeMutableBufferPointer { v in
            body(
              TrainingPass(
                samples: n, area: inputs.first.map { $0.count / features } ?? 0, eps: eps,
                momentum: momentum, inputs: ins, outputs: outs, weight: w.baseAddress!,
                bias: b.baseAddress!, mean: m.baseAddress!, inverse: v.baseAddress!,
                relu: false))
          }
        }
      }
    }
  }

  /// Training-mode forward over a whole batch (every sample `[C, H, W]`): the outputs, the
  /// cache for the backward pass and the buffers after PyTorch's update (one more batch
  /// tracked).
  public func trainingForward(_ xs: [Tensor]) -> (
    outputs: [Tensor], cache: BatchCache, buffers: [Tensor]
  ) {
    var ys = xs.map { Tensor(shape: $0.shape) }
    var mean = [Double](repeating: 0, count: features)
    var inverse = [Double](repeating: 0, count: features)
    var runningMean = self.runningMean
    var runningVar = self.runningVar
    withPass(xs, &ys, mean: &mean, inverse: &inverse) { pass in
      runningMean.data.withUnsafeMutableBufferPointer { m in
        runningVar.data.withUnsafeMutableBufferPointer { v in
          for c in 0..<features {
            pass.forward(channel: c, runningMean: m.baseAddress!, runningVar: v.baseAddress!)
          }
        }
      }
    }
    let tracked = Tensor(shape: [], data: [batchesTracked.data[0] + 1])
    let cache = BatchCache(inputs: xs, outputs: ys, mean: mean, inverseStd: inverse)
    return (ys, cache, [runningMean, runningVar, tracked])
  }

  /// Training-mode backward over the batch (`TrainingPass.backward`). Parameter gradients
  /// are added.
  public func trainingBackward(
    cache: BatchCache, outputGradients dys: [Tensor], parameterGradients: inout [Tensor],
    needsInputGradient: Bool
  ) -> [Tensor]? {
    var cache = cache
    var dxs = dys
    let n = dys.count
    let grads = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: max(n, 1))
    defer { grads.deallocate() }
    for j in 0..<n { grads[j] = dxs[j].data.withUnsafeMutableBufferPointer { $0.baseAddress! } }
    var outputs = cache.outputs
    var (dWeight, dBias) = (parameterGradients[0], parameterGradients[1])
    defer { parameterGradients = [dWeight, dBias] }
    parameterGradients = []
    withPass(cache.inputs, &outputs, mean: &cache.mean, inverse: &cache.inverseStd) { pass in
      dWeight.data.withUnsafeMutableBufferPointer { dw in
        dBias.data.withUnsafeMutableBufferPointer { db in
          for c in 0..<features {
            pass.backward(
              channel: c, outputGradients: grads, dWeight: dw.baseAddress!,
              dBias: db.baseAddress!, inputGradients: needsInputGradient)
          }
        }
      }
    }
    return needsInputGradient ? dxs : nil
  }
}
