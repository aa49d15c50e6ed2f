import LeamojiCore

/// Training mode layer by layer, for networks the engine cannot backpropagate (a layer type
/// it does not know, MobileNet-style steps) that hold a batch norm or dropout: the batch goes
/// through the network layer by layer, every sample's activations kept. It runs the layers' own
/// maths (`BatchNorm2D.trainingForward`, `Dropout.mask`, the same seeds as the engine), so it
/// is also the reference the engine's tests compare with. Sums across samples are in sample
/// order, so the result is bit-identical for any thread count.
extension Network {
  /// Training-mode forward and backward pass of a labelled batch: the mean loss, the gradient
  /// of every parameter (network order, already averaged over the batch) and the buffers
  /// after this batch (batch norm running statistics, network order). Nothing in the network
  /// changes. `seed` chooses the dropout masks (use a new one per step).
  /// - Precondition: the batch and labels fit the network (`check`).
  public func batchGradients(
    _ batch: Tensor, labels: [Int], threads: Int, seed: UInt64
  ) -> (result: BatchResult, gradients: [Tensor], buffers: [Tensor]) {
    let n = batch.shape[0]
    var newBuffers = layers.map(\.buffers)
    var total = parameters.map { Tensor(shape: $0.shape) }
    guard n > 0 else { return (BatchResult(meanLoss: 0, correct: 0, count: 0), total, buffers) }

    // Forward, keeping every layer's outputs (and batch norm caches, dropout masks).
    var acts: [[Tensor]] = [(0..<n).map { batch.slice($0) }]
    acts.reserveCapacity(layers.count + 1)
    var caches: [Int: BatchNorm2D.BatchCache] = [:]
    var masks: [Int: [Tensor]] = [:]
    for (l, layer) in layers.enumerated() {
      let xs = acts[l]
      if let bn = layer as? BatchNorm2D {
        let (ys, cache, updated) = bn.trainingForward(xs)
        caches[l] = cache
        newBuffers[l] = updated
        acts.append(ys)
      } else if let dropout = layer as? Dropout {
        let m = Parallel.map(n, threads: threads) { j in
          dropout.mask(count: xs[j].count, seed: Dropout.seed(seed, layer: l, sample: j))
        }
        masks[l] = m
        acts.append((0..<n).map { j in Network.multiply(xs[j], m[j]) })
      } else {
        acts.append(Parallel.map(n, threads: threads) { layer.forward(xs[$0]) })
      }
    }

    // Loss, in sample order.
    let scale = 1 / Float(n)
    var loss = 0.0
    var correct = 0
    var grads: [Tensor] = []
    for j in 0..<n {
      let logits = acts[layers.count][j]
      let (l, g) = SoftmaxCrossEntropy.lossAndGradient(
        logits: logits, label: labels[j], scale: scale)
      loss += Double(l)
      if SoftmaxCrossEntropy.argmax(logits) == labels[j] { correct += 1 }
      grads.append(g)
    }

    // Backward.
    var offset = layers.reduce(0) { $0 + $1.parameters.count }
    for l in layers.indices.reversed() {
      let layer = layers[l]
      let count = layer.parameters.count
      offset -= count
      let needsInput = l > 0
      var layerGradients = layer.parameters.map { Tensor(shape: $0.shape) }
      if let bn = layer as? BatchNorm2D {
        let dxs = bn.trainingBackward(
          cache: caches[l]!, outputGradients: grads, parameterGradients: &layerGradients,
          needsInputGradient: needsInput)
        if let dxs { grads = dxs }
      } else if let m = masks[l] {
        grads = (0..<n).map { j in Network.multiply(grads[j], m[j]) }
      } else {
        let xs = acts[l]
        let ys = acts[l + 1]
        let dys = grads
        let results = Parallel.map(n, threads: threads) { j in
          var g = layer.parameters.map { Tensor(shape: $0.shape) }
          let dx = layer.backward(
            input: xs[j], output: ys[j], outputGradient: dys[j], parameterGradients: &g,
            needsInputGradient: needsInput)
          return (dx, g)
        }
        for (j, r) in results.enumerated() {
          for t in 0..<count {
            r.1[t].data.withUnsafeBufferPointer { g in
              layerGradients[t].data.withUnsafeMutableBufferPointer { s in
                Kernels.add(g.baseAddress!, into: s.baseAddress!, g.count)
              }
            }
          }
          if let dx = r.0 { grads[j] = dx }
        }
      }
      for t in 0..<count { total[offset + t] = layerGradients[t] }
      acts[l + 1] = []  // free activations once used
    }
    let result = BatchResult(meanLoss: Float(loss / Double(n)), correct: correct, count: n)
    return (result, total, newBuffers.flatMap { $0 })
  }

  /// Element-wise product of two tensors with the same element count (shape of `x`).
  static func multiply(_ x: Tensor, _ m: Tensor) -> Tensor {
    var y = x
    y.data.withUnsafeMutableBufferPointer { p in
      m.data.withUnsafeBufferPointer { q in
        for i in 0..<p.count { p[i] *= q[i] }
      }
    }
    return y
  }
}
