/// Training steps of a network with batch norms: a batch norm needs the statistics of the
/// whole batch, so the steps between two batch norms (a "run") go through every sample, then
/// the batch norm goes through every channel, and so on; backward the same in reverse. Every
/// sample keeps its own workspace for the step. Each sample's work and each channel's work is
/// the same whichever thread does it, and sums across samples are in sample order, so the
/// result is bit-identical for any thread count.
extension EngineContext {
  /// Forward, loss and backward of `n` labelled samples at `x` through the runs: per-sample
  /// gradients into the slots (their batch norm entries zero), the batch norms' parameter
  /// gradients added to `total`, their running statistics in `state` updated. Returns the
  /// summed loss and the correct count.
  func trainRuns(
    _ x: UnsafePointer<Float>, labels: [Int], count n: Int, threads: Int, seed: UInt64
  ) -> (loss: Double, correct: Int) {
    let engine = self.engine
    let count = engine.parameterCount
    let size = engine.inputCount
    reserve(samples: n, workers: n)
    let spaces = workspaces
    let p = SharedPointer(base: tensors)
    let input = SharedPointer(base: UnsafeMutablePointer(mutating: x))
    let slot = SharedPointer(base: slots)
    let grads = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: n)
    let ins = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(capacity: n)
    let outs = UnsafeMutablePointer<UnsafeMutablePointer<Float>>.allocate(capacity: n)
    defer {
      grads.deallocate()
      ins.deallocate()
      outs.deallocate()
    }
    let gradient = SharedPointer(base: grads)
    /// The batch norm after `runs[k]`, on every sample's buffers.
    func pass(after k: Int) -> (BatchNorm2D.TrainingPass, Engine.Norm) {
      let s = engine.runs[k].steps.upperBound
      guard case .batchNorm(let n0, let area, let relu) = engine.steps[s].op else {
        preconditionFailure("a run ends at a batch norm")
      }
      let norm = engine.norms[n0]
      for j in 0..<n {
        ins[j] = s == 0 ? x + j * size : UnsafePointer(spaces[j].outputs[s - 1])
        outs[j] = spaces[j].outputs[s]
      }
      let pass = BatchNorm2D.TrainingPass(
        samples: n, area: area, eps: norm.eps, momentum: norm.momentum, inputs: ins,
        outputs: outs, weight: tensors[norm.weight], bias: tensors[norm.bias],
        mean: statistics + norm.affine, inverse: statistics + norm.affine + norm.channels,
        relu: relu != 0)
      return (pass, norm)
    }

    for (k, run) in engine.runs.enumerated() {
      if !run.steps.isEmpty {
        Parallel.forEach(n, threads: threads) { j in
          engine.forward(
            input.base + j * size, parameters: p.base, in: spaces[j], steps: run.steps,
            training: Engine.SampleInTraining(index: j, seed: seed))
        }
      }
      guard run.norm != nil else { continue }
      let (bn, norm) = pass(after: k)
      let running = SharedPointer(base: state + norm.state)
      Parallel.forEach(norm.channels, threads: threads) { c in
        bn.forward(
          channel: c, runningMean: running.base, runningVar: running.base + norm.channels)
      }
      state[norm.state + 2 * norm.channels] += 1
    }

    let scale = 1 / Float(n)
    let last = engine.steps.count - 1
    let lossOf = SharedPointer(base: losses)
    let hitOf = SharedPointer(base: hits)
    Parallel.forEach(n, threads: threads) { j in
      let r = engine.loss(spaces[j].outputs[last], label: labels[j], scale: scale, in: spaces[j])
      lossOf.base[j] = r.loss
      hitOf.base[j] = r.correct
      gradient.base[j] = spaces[j].gradientA
      for norm in engine.norms {
        (slot.base + j * count + engine.offsets[norm.weight]).update(
          repeating: 0, count: norm.channels)
        (slot.base + j * count + engine.offsets[norm.bias]).update(
          repeating: 0, count: norm.channels)
      }
    }

    for k in engine.runs.indices.reversed() {
      let run = engine.runs[k]
      Parallel.forEach(n, threads: threads) { j in
        gradient.base[j] = engine.backward(
          run.steps, input.base + j * size, from: gradient.base[j], parameters: p.base,
          gradient: slot.base + j * count, in: spaces[j],
          training: Engine.SampleInTraining(index: j, seed: seed))
      }
      guard k > 0 else { continue }
      let (bn, norm) = pass(after: k - 1)
      let total = SharedPointer(base: self.total)
      let needsInput = engine.runs[k - 1].steps.upperBound > 0
      Parallel.forEach(norm.channels, threads: threads) { c in
        bn.backward(
          channel: c, outputGradients: gradient.base,
          dWeight: total.base + engine.offsets[norm.weight],
          dBias: total.base + engine.offsets[norm.bias], inputGradients: needsInput)
      }
    }
    var loss = 0.0
    var correct = 0
    for j in 0..<n {
      loss += Double(losses[j])
      if hits[j] { correct += 1 }
    }
    return (loss, correct)
  }
}
