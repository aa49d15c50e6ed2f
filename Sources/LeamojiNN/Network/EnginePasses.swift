import Dispatch
import FoundationEssentials

/// One sample's forward and backward pass over the engine's steps, on one workspace.
extension Engine {
  /// Runs every step on sample `x`; returns the logits (inside the workspace). `p[i]` is the
  /// address of parameter tensor `i` (network order): the training context's flat vector or
  /// the layers' own tensors.
  ///
  /// `packed` holds the GEMM weights of MobileNet-style steps (`PackedWeights`); `lanes` is how
  /// many threads one sample's steps may be split over (the workspace's lane scratches bound
  /// it). The split never changes a result: each output element is computed by one lane, in
  /// the same order.
  @discardableResult
  func forward(
    _ x: UnsafePointer<Float>, parameters p: UnsafePointer<UnsafePointer<Float>>,
    affine: UnsafePointer<Float>? = nil, packed: UnsafePointer<Float>? = nil, lanes: Int = 1,
    in ws: EngineWorkspace, stepNanoseconds: UnsafeMutablePointer<UInt64>? = nil
  ) -> UnsafeMutablePointer<Float> {
    var input = x
    let lanes = max(1, min(lanes, ws.laneScratch.count))
    var clock = stepNanoseconds == nil ? 0 : DispatchTime.now().uptimeNanoseconds
    for (s, step) in steps.enumerated() {
      defer {
        if let stepNanoseconds {
          let now = DispatchTime.now().uptimeNanoseconds
          stepNanoseconds[s] += now - clock
          clock = now
        }
      }
      let out = ws.outputs[s]
      switch step.op {
      case .pointwise(_, let b, let inChannels, let outChannels, let positions, let at, let act):
        Engine.packedProduct(
          rows: outChannels, columns: positions, depth: inChannels, weights: packed! + at,
          bias: p[b], input: input, output: out, activation: act, lanes: lanes, in: ws)
      case .paddedConv(_, let b, let inChannels, let outChannels, let g, let at, let act):
        let col = ws.cols[s]!
        Kernels.im2col(g, channels: inChannels, input: input, col: col)
        Engine.packedProduct(
          rows: outChannels, columns: g.outArea, depth: inChannels * g.kernel * g.kernel,
          weights: packed! + at, bias: p[b], input: col, output: out, activation: act,
          lanes: lanes, in: ws)
      case .depthwise(let w, let b, let channels, let g, let act):
        let (weights, bias) = (Shared(p[w]), Shared(p[b]))
        let (source, target) = (Shared(input), Shared(out))
        Engine.split(channels: channels, lanes: lanes) { lo, hi, lane in
          Kernels.depthwise(
            g, channels: lo..<hi, input: source.p, weight: weights.p, bias: bias.p,
            output: target.m, activation: act, scratch: ws.laneScratch[lane])
        }
      case .relu6:
        Kernels.relu6(input, out, step.outCount)
      case .addSkip(let source):
        Kernels.add(input, source < 0 ? x : UnsafePointer(ws.outputs[source]), out, step.outCount)
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
      case .linear(let w, let b, let inFeatures, let outFeatures) where mobile:
        let (weight, bias) = (p[w], p[b])
        for o in 0..<outFeatures {
          out[o] = bias[o] + Kernels.dot(weight + o * inFeatures, input, inFeatures)
        }
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

extension Engine {
  /// `output[rows×columns] = activation(bias + W · input[depth×columns])` with `W` already
  /// packed (`PackedWeights`), the columns split over `lanes` in whole panels: the 1x1
  /// convolutions (input = the CHW maps) and the stem (input = its im2col matrix).
  static func packedProduct(
    rows: Int, columns: Int, depth: Int, weights: UnsafePointer<Float>,
    bias: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
    activation: Kernels.Activation, lanes: Int, in ws: EngineWorkspace
  ) {
    let (w, b) = (Shared(weights), Shared(bias))
    let (source, target) = (Shared(input), Shared(output))
    split(columns: columns, lanes: lanes) { lo, hi, lane in
      Kernels.gemmPacked(
        m: rows, n: hi - lo, k: depth, a: w.p, aRowStride: depth, aColStride: 1,
        b: source.p + lo, bRowStride: columns, bColStride: 1, c: target.m + lo, ldc: columns,
        start: .overwrite, bias: b.p, relu: false, scratch: ws.laneScratch[lane],
        activation: activation, packedA: w.p)
    }
  }

  /// Runs `body(lo, hi, lane)` over `columns` output positions cut into `lanes` parts of whole
  /// 16-column panels, on that many threads (inline for one).
  static func split(columns: Int, lanes: Int, _ body: @Sendable (Int, Int, Int) -> Void) {
    let panels = (columns + 15) / 16
    let parts = min(lanes, panels)
    guard parts > 1 else { return body(0, columns, 0) }
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let lo = panels * part / parts * 16
      let hi = min(columns, panels * (part + 1) / parts * 16)
      body(lo, hi, part)
    }
  }

  /// Runs `body(lo, hi, lane)` over `channels` cut into `lanes` parts, on that many threads.
  static func split(channels: Int, lanes: Int, _ body: @Sendable (Int, Int, Int) -> Void) {
    let parts = min(lanes, channels)
    guard parts > 1 else { return body(0, channels, 0) }
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      body(channels * part / parts, channels * (part + 1) / parts, part)
    }
  }
}

/// A float pointer handed to the lanes of one step; each lane writes only its own part.
struct Shared: @unchecked Sendable {
  let m: UnsafeMutablePointer<Float>
  var p: UnsafePointer<Float> { UnsafePointer(m) }
  init(_ p: UnsafePointer<Float>) { m = UnsafeMutablePointer(mutating: p) }
  init(_ p: UnsafeMutablePointer<Float>) { m = p }
}
