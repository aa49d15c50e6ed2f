import Dispatch

/// One sample's forward pass over the engine's steps, run by one lane or by several at once
/// (`LaneCrew`). Every step is cut into parts by output element (columns of a GEMM, channels,
/// outputs of the linear layer, stretches of an elementwise step); lane `l` of `n` computes
/// part `l`, with exactly the arithmetic and order one lane would use, so the result is the
/// same bits for any number of lanes. Lanes meet at the crew's barrier after every step.
struct ForwardPass: @unchecked Sendable {
  let engine: Engine
  let x: UnsafePointer<Float>
  /// `p[i]` is the address of parameter tensor `i` (network order).
  let p: UnsafePointer<UnsafePointer<Float>>
  let affine: UnsafePointer<Float>?
  let ws: EngineWorkspace
  let crew: LaneCrew?
  let lanes: Int
  /// The steps to run (training runs the steps between batch norms separately).
  var steps: Range<Int>
  /// Training: the sample's index in its batch and the step's seed (dropout masks).
  var training: Engine.SampleInTraining?

  /// Runs every step's part for `lane`; times each step into `stepNanoseconds` when given.
  func run(lane: Int, stepNanoseconds: UnsafeMutablePointer<UInt64>?) {
    var input = steps.lowerBound == 0 ? x : UnsafePointer(ws.outputs[steps.lowerBound - 1])
    var clock = stepNanoseconds == nil ? 0 : DispatchTime.now().uptimeNanoseconds
    for s in steps {
      step(s, input: input, lane: lane)
      if lanes > 1 { crew?.barrier() }
      if let stepNanoseconds {
        let now = DispatchTime.now().uptimeNanoseconds
        stepNanoseconds[s] += now - clock
        clock = now
      }
      input = UnsafePointer(ws.outputs[s])
    }
  }

  /// Lane `lane`'s part of step `s`.
  private func step(_ s: Int, input: UnsafePointer<Float>, lane: Int) {
    let step = engine.steps[s]
    let out = ws.outputs[s]
    switch step.op {
    case .pointwise(let w, let b, let inChannels, let outChannels, let positions, let act):
      product(
        rows: outChannels, columns: positions, depth: inChannels, weights: p[w],
        bias: p[b], input: input, output: out, activation: act, lane: lane)
    case .paddedConv(let w, let b, let inChannels, let outChannels, let g, let act):
      let col = ws.cols[s]!
      let taps = g.kernel * g.kernel
      Kernels.im2col(g, rows: part(inChannels * taps, lane), input: input, col: col)
      if lanes > 1 { crew?.barrier() }
      product(
        rows: outChannels, columns: g.outArea, depth: inChannels * taps,
        weights: p[w], bias: p[b], input: col, output: out, activation: act, lane: lane)
    case .depthwise(let w, let b, let channels, let g, let act):
      Kernels.depthwise(
        g, channels: part(channels, lane), input: input, weight: p[w], bias: p[b], output: out,
        activation: act, scratch: ws.laneScratch[lane])
    case .relu6:
      let r = stretch(step.outCount, lane)
      Kernels.relu6(input + r.lowerBound, out + r.lowerBound, r.count)
    case .relu:
      let r = stretch(step.outCount, lane)
      Kernels.relu(input + r.lowerBound, out + r.lowerBound, r.count)
    case .addSkip(let source):
      let r = stretch(step.outCount, lane)
      let skip = source < 0 ? x : UnsafePointer(ws.outputs[source])
      Kernels.add(input + r.lowerBound, skip + r.lowerBound, out + r.lowerBound, r.count)
    case .dropout(let p, let layer):
      if let training {
        guard lane == 0 else { return }
        let seed = Dropout.seed(training.seed, layer: layer, sample: training.index)
        Dropout.apply(p: p, seed: seed, input, out, step.outCount)
      } else {
        let r = stretch(step.outCount, lane)
        (out + r.lowerBound).update(from: input + r.lowerBound, count: r.count)
      }
    case .flatten:
      let r = stretch(step.outCount, lane)
      (out + r.lowerBound).update(from: input + r.lowerBound, count: r.count)
    case .globalAvgPool(let channels, let area):
      GlobalAvgPool.forward(input, out, channels: part(channels, lane), area: area)
    case .linear(let w, let b, let inFeatures, let outFeatures) where engine.mobile:
      let (weight, bias) = (p[w], p[b])
      for o in part(outFeatures, lane) {
        out[o] = bias[o] + Kernels.dot(weight + o * inFeatures, input, inFeatures)
      }
    case .linear(let w, let b, let inFeatures, let outFeatures):
      Linear.forward(
        weight: p[w], bias: p[b], input: input, output: out, inFeatures: inFeatures,
        outFeatures: outFeatures, outputs: part(outFeatures, lane))
    case .batchNorm(let n, let area, let relu):
      // Training runs batch norms over the whole batch (`Engine.trainBatch`), never here.
      precondition(training == nil, "a batch norm inside a training run")
      let norm = engine.norms[n]
      let scale = affine! + norm.affine
      let shift = scale + norm.channels
      for c in part(norm.channels, lane) {
        BatchNorm2D.affine(
          input + c * area, out + c * area, area, scale: scale[c], shift: shift[c],
          relu: relu != 0)
      }
    case .conv(let w, let b, let outChannels, let g, let relu):
      // Older networks' convolutions run on one lane (they are never split: not `mobile`).
      guard lane == 0 else { return }
      Conv2D.forward(
        g, outChannels: outChannels, weight: p[w], bias: p[b], input: input, padded: ws.padded,
        col: ws.cols[s]!, output: out, relu: relu != 0, scratch: ws.scratch)
    case .maxPool(let g):
      guard lane == 0 else { return }
      Kernels.maxPool(g, input: input, output: out)
    }
  }

  /// `output[rows×columns] = activation(bias + W · input[depth×columns])`, `W` row-major and
  /// read in place, this lane's columns only: the 1x1 convolutions (input = the CHW maps) and the
  /// stem (input = its im2col matrix).
  private func product(
    rows: Int, columns: Int, depth: Int, weights: UnsafePointer<Float>,
    bias: UnsafePointer<Float>, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
    activation: Kernels.Activation, lane: Int
  ) {
    if lanes > 1 && (columns + 15) / 16 < ForwardPass.panelsPerLaneForColumnSplit * lanes {
      // Few columns (the late layers: 196 or 49 positions): whole panels per lane would leave
      // one lane the edge panel and the other lane idle part of the time, and each lane would
      // stream every weight. Split the rows instead, in whole 4-row tiles.
      let tiles = part((rows + 3) / 4, lane)
      let r = tiles.lowerBound * 4..<min(rows, tiles.upperBound * 4)
      guard !r.isEmpty else { return }
      Kernels.gemmPacked(
        m: r.count, n: columns, k: depth, a: weights + r.lowerBound * depth, aRowStride: depth,
        aColStride: 1, b: input, bRowStride: columns, bColStride: 1,
        c: output + r.lowerBound * columns, ldc: columns, start: .overwrite,
        bias: bias + r.lowerBound, relu: false, scratch: ws.laneScratch[lane],
        activation: activation, weightsInPlace: true)
      return
    }
    let r = panelColumns(columns, lane)
    guard !r.isEmpty else { return }
    Kernels.gemmPacked(
      m: rows, n: r.count, k: depth, a: weights, aRowStride: depth, aColStride: 1,
      b: input + r.lowerBound, bRowStride: columns, bColStride: 1, c: output + r.lowerBound,
      ldc: columns, start: .overwrite, bias: bias, relu: false, scratch: ws.laneScratch[lane],
      activation: activation, weightsInPlace: true)
  }

  /// Below this many 16-column panels per lane a product is split by rows, not columns.
  static let panelsPerLaneForColumnSplit = 32

  /// Lane `lane`'s share of `count` items (channels, outputs).
  func part(_ count: Int, _ lane: Int) -> Range<Int> {
    count * lane / lanes..<count * (lane + 1) / lanes
  }

  /// Lane `lane`'s share of `count` elements, cut at multiples of 8 (whole vectors).
  func stretch(_ count: Int, _ lane: Int) -> Range<Int> {
    let vectors = (count + 7) / 8
    return min(count, vectors * lane / lanes * 8)..<min(count, vectors * (lane + 1) / lanes * 8)
  }

  /// Lane `lane`'s share of `columns` GEMM columns, in whole 16-column panels.
  func panelColumns(_ columns: Int, _ lane: Int) -> Range<Int> {
    let panels = (columns + 15) / 16
    return min(columns, panels * lane / lanes * 16)..<min(columns, panels * (lane + 1) / lanes * 16)
  }
}
