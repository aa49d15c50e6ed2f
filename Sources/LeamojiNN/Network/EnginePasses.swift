import Dispatch
import FoundationEssentials
import LeamojiCore

/// One sample's forward and backward pass over the engine's steps, on one workspace.
extension Engine {
  /// Runs every step on sample `x`; returns the logits (inside the workspace). `p[i]` is the
  /// address of parameter tensor `i` (network order): the training context's flat vector or
  /// the layers' own tensors.
  ///
  /// `lanes` is how
  /// many threads one sample's steps may be split over (the workspace's lane scratches bound
  /// it). The split never changes a result: each output element is computed by one lane, in
  /// the same order.
  @discardableResult
  func forward(
    _ x: UnsafePointer<Float>, parameters p: UnsafePointer<UnsafePointer<Float>>,
    affine: UnsafePointer<Float>? = nil, lanes: Int = 1,
    in ws: EngineWorkspace, stepNanoseconds: UnsafeMutablePointer<UInt64>? = nil
  ) -> UnsafeMutablePointer<Float> {
    let lanes = max(1, min(lanes, ws.laneScratch.count))
    let crew = lanes > 1 ? ws.crew(lanes: lanes) : nil
    let pass = ForwardPass(
      engine: self, x: x, p: p, affine: affine, ws: ws, crew: crew,
      lanes: crew?.lanes ?? 1)
    if let crew, crew.lanes > 1 {
      crew.run { lane in pass.run(lane: lane, stepNanoseconds: lane == 0 ? stepNanoseconds : nil) }
    } else {
      pass.run(lane: 0, stepNanoseconds: stepNanoseconds)
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
      case .batchNorm, .identity, .pointwise, .paddedConv, .depthwise, .relu6, .addSkip:
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
