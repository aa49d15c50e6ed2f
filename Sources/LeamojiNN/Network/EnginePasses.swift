import FoundationEssentials

/// One sample's forward and backward pass over the engine's steps, on one workspace.
extension Engine {
  /// Runs every step on sample `x`; returns the logits (inside the workspace). `p[i]` is the
  /// address of parameter tensor `i` (network order): the training context's flat vector or
  /// the layers' own tensors.
  @discardableResult
  func forward(
    _ x: UnsafePointer<Float>, parameters p: UnsafePointer<UnsafePointer<Float>>,
    affine: UnsafePointer<Float>? = nil, in ws: EngineWorkspace
  ) -> UnsafeMutablePointer<Float> {
    var input = x
    for (s, step) in steps.enumerated() {
      let out = ws.outputs[s]
      switch step.op {
      case .conv(let w, let b, let outChannels, let g, let relu):
        let col = ws.cols[s]!
        Kernels.im2colPanels(g, input: input, padded: ws.padded, col: col)
        Kernels.gemmPacked(
          m: outChannels, n: g.positions, k: g.patchSize,
          a: p[w], aRowStride: g.patchSize, aColStride: 1,
          b: col, bRowStride: 0, bColStride: 0,
          c: out, ldc: g.positions, start: .overwrite, bias: p[b], relu: relu != 0,
          scratch: ws.scratch, bIsPanels: true)
      case .relu:
        Kernels.relu(input, out, step.outCount)
      case .maxPool(let g):
        Kernels.maxPool(g, input: input, output: out)
      case .globalAvgPool(let channels, let area):
        for c in 0..<channels { out[c] = Kernels.sum(input + c * area, area) / Float(area) }
      case .flatten:
        out.update(from: input, count: step.outCount)
      case .linear(let w, let b, let inFeatures, let outFeatures):
        let (weight, bias) = (p[w], p[b])
        for o in 0..<outFeatures {
          var sum = bias[o]
          let row = weight + o * inFeatures
          for i in 0..<inFeatures { sum += row[i] * input[i] }
          out[o] = sum
        }
      case .batchNorm(let at, let channels, let area, let relu):
        let scale = affine! + at
        let shift = scale + channels
        for c in 0..<channels {
          let (k, b) = (scale[c], shift[c])
          let x = input + c * area
          let y = out + c * area
          if relu != 0 {
            for i in 0..<area { y[i] = max(x[i] * k + b, 0) }
          } else {
            for i in 0..<area { y[i] = x[i] * k + b }
          }
        }
      case .identity:
        out.update(from: input, count: step.outCount)
      }
      input = UnsafePointer(out)
    }
    return ws.outputs[steps.count - 1]
  }

  /// Forward, loss and backward for one labelled sample. The sample's parameter gradient
  /// (times `scale`) is written to `gradient` (every element is set); returns the loss and
  /// whether the largest logit is the label. Loss and gradient are computed exactly as
  /// `SoftmaxCrossEntropy.lossAndGradient` does. `p` as for `forward`; `ws` must be a
  /// training workspace (it keeps every step's output and im2col matrix).
  func backprop(
    _ x: UnsafePointer<Float>, label: Int, scale: Float,
    parameters p: UnsafePointer<UnsafePointer<Float>>,
    gradient: UnsafeMutablePointer<Float>, in ws: EngineWorkspace
  ) -> (loss: Float, correct: Bool) {
    precondition(ws.mode == .training, "backprop on an inference workspace")
    let z = forward(x, parameters: p, in: ws)
    var zMax = z[0]
    var best = 0
    for i in 1..<classes {
      if z[i] > z[best] { best = i }
      zMax = max(zMax, z[i])
    }
    let m = Double(zMax)
    var total = 0.0
    for i in 0..<classes {
      ws.exponentials[i] = PortableMath.exp(Double(z[i]) - m)
      total += ws.exponentials[i]
    }
    let loss = m + PortableMath.log(total) - Double(z[label])
    var dy = ws.gradientA
    var dx = ws.gradientB
    for i in 0..<classes {
      dy[i] = Float((ws.exponentials[i] / total - (i == label ? 1 : 0)) * Double(scale))
    }

    for s in steps.indices.reversed() {
      let step = steps[s]
      let input = s == 0 ? x : UnsafePointer(ws.outputs[s - 1])
      let out = ws.outputs[s]
      let needsInput = s > 0
      switch step.op {
      case .conv(let w, let b, let outChannels, let g, let relu):
        if relu != 0 { Kernels.reluBackward(out, dy, dy, step.outCount) }
        let positions = g.positions
        let patch = g.patchSize
        let (dw, db) = (gradient + offsets[w], gradient + offsets[b])
        for o in 0..<outChannels { db[o] = Kernels.sumLanes(dy + o * positions, positions) }
        let col = ws.cols[s]!
        // ∂W = dY · colᵀ   ([out × positions] · [positions × patch])
        Kernels.gemmNT(
          m: outChannels, n: patch, k: positions, a: dy, b: col, bRowStride: 16,
          bPanelStride: patch * 16, c: dw, ldc: patch, start: .overwrite)
        if needsInput {
          // ∂col = Wᵀ · dY (row-major, into the im2col buffer, no longer needed), folded
          // onto ∂x.
          Kernels.gemmPacked(
            m: patch, n: positions, k: outChannels,
            a: p[w], aRowStride: 1, aColStride: patch,
            b: dy, bRowStride: positions, bColStride: 1,
            c: col, ldc: positions, start: .overwrite, bias: nil, relu: false,
            scratch: ws.scratch)
          dx.update(repeating: 0, count: step.inCount)
          Kernels.col2imAdd(g, col: col, input: dx)
        }
      case .relu:
        if needsInput { Kernels.reluBackward(out, dy, dx, step.outCount) }
      case .maxPool(let g):
        if needsInput {
          dx.update(repeating: 0, count: step.inCount)
          Kernels.maxPoolBackwardAdd(g, input: input, gradOutput: dy, gradInput: dx)
        }
      case .globalAvgPool(let channels, let area):
        if needsInput {
          for c in 0..<channels {
            (dx + c * area).update(repeating: dy[c] / Float(area), count: area)
          }
        }
      case .flatten:
        if needsInput { dx.update(from: dy, count: step.inCount) }
      case .batchNorm, .identity:
        preconditionFailure("inference-only step in backprop (Network.batchGradients trains it)")
      case .linear(let w, let b, let inFeatures, let outFeatures):
        let (dw, db) = (gradient + offsets[w], gradient + offsets[b])
        for o in 0..<outFeatures {
          let row = dw + o * inFeatures
          for i in 0..<inFeatures { row[i] = dy[o] * input[i] }
          db[o] = dy[o]
        }
        if needsInput {
          dx.update(repeating: 0, count: inFeatures)
          for o in 0..<outFeatures {
            let row = p[w] + o * inFeatures
            for i in 0..<inFeatures { dx[i] += row[i] * dy[o] }
          }
        }
      }
      swap(&dy, &dx)
    }
    return (Float(loss), best == label)
  }
}
