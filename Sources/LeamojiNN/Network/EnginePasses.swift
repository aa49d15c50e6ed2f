import Dispatch
import FoundationEssentials
import LeamojiCore

/// One sample's forward and backward pass over the engine's steps, on one workspace. The
/// maths of each step is its layer's (`Conv2D.forward`, `Linear.backward`, ...); this file
/// only says which buffers each step reads and writes.
extension Engine {
  /// In training: the sample's index in its batch and the step's seed (dropout masks).
  struct SampleInTraining {
    var index: Int
    var seed: UInt64
  }

  /// Runs `steps` (all by default) on sample `x`; returns the last one's output (inside the
  /// workspace). `p[i]` is the address of parameter tensor `i` (network order): the training
  /// context's flat vector or the layers' own tensors.
  ///
  /// `lanes` is how many threads one sample's steps may be split over (the workspace's lane
  /// scratches bound it). The split never changes a result: each output element is computed
  /// by one lane, in the same order.
  @discardableResult
  func forward(
    _ x: UnsafePointer<Float>, parameters p: UnsafePointer<UnsafePointer<Float>>,
    affine: UnsafePointer<Float>? = nil, lanes: Int = 1, in ws: EngineWorkspace,
    steps range: Range<Int>? = nil, training: SampleInTraining? = nil,
    stepNanoseconds: UnsafeMutablePointer<UInt64>? = nil
  ) -> UnsafeMutablePointer<Float> {
    let range = range ?? steps.indices
    let lanes = max(1, min(lanes, ws.laneScratch.count))
    let crew = lanes > 1 ? ws.crew(lanes: lanes) : nil
    let pass = ForwardPass(
      engine: self, x: x, p: p, affine: affine, ws: ws, crew: crew,
      lanes: crew?.lanes ?? 1, steps: range, training: training)
    if let crew, crew.lanes > 1 {
      crew.run { lane in pass.run(lane: lane, stepNanoseconds: lane == 0 ? stepNanoseconds : nil) }
    } else {
      pass.run(lane: 0, stepNanoseconds: stepNanoseconds)
    }
    return ws.outputs[range.upperBound - 1]
  }

  /// The loss of the logits `z` (the last step's output) for `label` and its gradient times
  /// `scale`, into `ws.gradientA`; computed exactly as `SoftmaxCrossEntropy.lossAndGradient`
  /// does. Returns the loss and whether the largest logit is the label.
  func loss(
    _ z: UnsafePointer<Float>, label: Int, scale: Float, in ws: EngineWorkspace
  ) -> (loss: Float, correct: Bool) {
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
    for i in 0..<classes {
      ws.gradientA[i] = Float((ws.exponentials[i] / total - (i == label ? 1 : 0)) * Double(scale))
    }
    return (Float(loss), best == label)
  }

  /// Forward, loss and backward for one labelled sample of a network without batch norms. The
  /// sample's parameter gradient (times `scale`) is written to `gradient` (every element is
  /// set). `p` as for `forward`; `ws` must be a training workspace (it keeps every step's
  /// output and im2col matrix).
  func backprop(
    _ x: UnsafePointer<Float>, label: Int, scale: Float,
    parameters p: UnsafePointer<UnsafePointer<Float>>,
    gradient: UnsafeMutablePointer<Float>, in ws: EngineWorkspace, training: SampleInTraining
  ) -> (loss: Float, correct: Bool) {
    precondition(ws.mode == .training, "backprop on an inference workspace")
    let z = forward(x, parameters: p, in: ws, training: training)
    let result = loss(z, label: label, scale: scale, in: ws)
    backward(
      steps.indices, x, from: ws.gradientA, parameters: p, gradient: gradient, in: ws,
      training: training)
    return result
  }

  /// Backpropagates `range` (no batch norm inside) from `dy`, the gradient of the last step's
  /// output, which lies in `ws.gradientA` or `ws.gradientB`: the steps' parameter gradients
  /// are set in `gradient`; returns where the gradient of the first step's input lies (the
  /// other of the two buffers may have been overwritten).
  @discardableResult
  func backward(
    _ range: Range<Int>, _ x: UnsafePointer<Float>, from dy: UnsafeMutablePointer<Float>,
    parameters p: UnsafePointer<UnsafePointer<Float>>, gradient: UnsafeMutablePointer<Float>,
    in ws: EngineWorkspace, training: SampleInTraining
  ) -> UnsafeMutablePointer<Float> {
    var dy = dy
    var dx = dy == ws.gradientA ? ws.gradientB : ws.gradientA
    for s in range.reversed() {
      let step = steps[s]
      let input = s == 0 ? x : UnsafePointer(ws.outputs[s - 1])
      let out = ws.outputs[s]
      let needsInput = s > 0
      switch step.op {
      case .conv(let w, let b, let outChannels, let g, let relu):
        if relu != 0 { Kernels.reluBackward(out, dy, dy, step.outCount) }
        Conv2D.backward(
          g, outChannels: outChannels, weight: p[w], outputGradient: dy, col: ws.cols[s]!,
          dWeight: gradient + offsets[w], dBias: gradient + offsets[b], start: .overwrite,
          inputGradient: needsInput ? dx : nil, scratch: ws.scratch)
      case .relu:
        if needsInput { Kernels.reluBackward(out, dy, dx, step.outCount) }
      case .maxPool(let g):
        if needsInput {
          MaxPool2D.backward(g, input: input, outputGradient: dy, inputGradient: dx)
        }
      case .globalAvgPool(let channels, let area):
        if needsInput { GlobalAvgPool.backward(dy, dx, channels: channels, area: area) }
      case .flatten:
        if needsInput { dx.update(from: dy, count: step.inCount) }
      case .dropout(let probability, let layer):
        let seed = Dropout.seed(training.seed, layer: layer, sample: training.index)
        if needsInput { Dropout.apply(p: probability, seed: seed, dy, dx, step.inCount) }
      case .linear(let w, let b, let inFeatures, let outFeatures):
        Linear.backward(
          weight: p[w], input: input, outputGradient: dy, dWeight: gradient + offsets[w],
          dBias: gradient + offsets[b], accumulate: false, inputGradient: needsInput ? dx : nil,
          inFeatures: inFeatures, outFeatures: outFeatures)
      case .batchNorm:
        preconditionFailure("a batch norm inside a run (Engine.trainBatch backpropagates it)")
      case .pointwise, .paddedConv, .depthwise, .relu6, .addSkip:
        preconditionFailure("inference-only step in backprop (the layers train it)")
      }
      swap(&dy, &dx)
    }
    return dy
  }
}
