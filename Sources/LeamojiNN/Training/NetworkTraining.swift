/// The totals of one batch: mean loss and how many samples were classified correctly.
public struct BatchResult: Equatable, Sendable {
  /// Mean cross-entropy over the batch.
  public var meanLoss: Float
  /// Samples whose largest logit is their label.
  public var correct: Int
  /// Samples in the batch.
  public var count: Int
  public init(meanLoss: Float, correct: Int, count: Int) {
    self.meanLoss = meanLoss
    self.correct = correct
    self.count = count
  }

  /// `correct / count` (0 for an empty batch).
  public var accuracy: Double { count == 0 ? 0 : Double(correct) / Double(count) }
}

/// Batched inference and training. Samples run in parallel (one sample per task); everything
/// that combines samples does so in sample order, so results are bit-identical for any
/// thread count.
extension Network {
  /// Logits for a batch `[batch] + inputShape`, as `[batch, classes]`.
  ///
  /// Runs on an inference context (`EngineMode.inference`): forward-only buffers, the weights
  /// read in place from the layers. The logits are bit-identical to a training context's
  /// forward pass.
  public func logits(_ batch: Tensor, threads: Int = Network.defaultThreads) throws(NNError)
    -> Tensor
  {
    try logits(batch, threads: threads, mode: .inference)
  }

  /// `logits` on a context of `mode`; `.training` is there so that tests can check the two
  /// kinds of buffers give the same bits.
  package func logits(_ batch: Tensor, threads: Int, mode: EngineMode) throws(NNError)
    -> Tensor
  {
    try outputs(batch, threads: threads, mode: mode, features: false)
  }

  /// The pooled features of a batch: what the last layer, a linear one, receives (e.g. the
  /// 1280 averaged channels of a backbone), as `[batch, features]`. A head trained on them
  /// gives the network's logits when its weights are the last layer's.
  /// - Throws: `NNError.invalidOutput` when the last layer is not linear; `badInput` for a
  ///   batch of another shape.
  public func features(_ batch: Tensor, threads: Int = Network.defaultThreads) throws(NNError)
    -> Tensor
  {
    guard case .linear = layers.last?.spec else { throw .invalidOutput(shape: outputShape) }
    return try outputs(batch, threads: threads, mode: .inference, features: true)
  }

  /// The logits, or with `features` the last layer's input, of every sample of `batch`.
  private func outputs(_ batch: Tensor, threads: Int, mode: EngineMode, features: Bool)
    throws(NNError) -> Tensor
  {
    let n = try checkBatch(batch)
    let width = features ? shapes[shapes.count - 2].reduce(1, *) : classCount
    guard n > 0 else { return Tensor(shape: [0, width]) }
    guard let engine else {
      let outs = Parallel.map(n, threads: threads) { [self] in
        forwardSample(batch.slice($0), layers: features ? layers.count - 1 : layers.count)
      }
      return Tensor.stack(outs).reshaped([n, width])
    }
    let context = engine.checkOut(mode)
    defer { engine.checkIn(context) }
    context.load(layers)
    let classes = width
    let size = engine.inputCount
    var out = [Float](repeating: 0, count: n * classes)
    // The last step is the linear layer; its input is the step before's output.
    let last = engine.steps.count - 1
    // MobileNet-style steps split one sample over the threads the samples leave idle.
    let lanes = engine.mobile ? max(1, threads / n) : 1
    let run = { (tensors: UnsafePointer<UnsafePointer<Float>>) in
      batch.data.withUnsafeBufferPointer { xs in
        out.withUnsafeMutableBufferPointer { ys in
          let x = SharedPointer(base: UnsafeMutablePointer(mutating: xs.baseAddress!))
          let y = SharedPointer(base: ys.baseAddress!)
          let p = SharedPointer(base: UnsafeMutablePointer(mutating: tensors))
          let a = SharedPointer(base: context.affine)
          context.run(n, threads: threads) { ws, i in
            let logits = engine.forward(
              x.base + i * size, parameters: p.base, affine: a.base,
              lanes: lanes, in: ws)
            let z = features ? (last == 0 ? x.base + i * size : ws.outputs[last - 1]) : logits
            (y.base + i * classes).update(from: z, count: classes)
          }
        }
      }
    }
    switch mode {
    case .training: run(context.tensors)
    case .inference: Network.withAddresses(of: parameters, run)
    }
    return Tensor(shape: [n, width], data: out)
  }

  /// Calls `body` with a table of the addresses of `tensors`' first elements, valid during
  /// the call only (hence one `withUnsafeBufferPointer` inside the next). Every parameter
  /// tensor has at least one element, so every address exists.
  static func withAddresses(
    of tensors: [Tensor], _ body: (UnsafePointer<UnsafePointer<Float>>) -> Void
  ) {
    let table = UnsafeMutablePointer<UnsafePointer<Float>>.allocate(
      capacity: max(1, tensors.count))
    defer { table.deallocate() }
    func nest(_ i: Int) {
      guard i < tensors.count else { return body(table) }
      tensors[i].data.withUnsafeBufferPointer { elements in
        (table + i).initialize(to: elements.baseAddress!)
        nest(i + 1)
      }
    }
    nest(0)
  }

  /// Class probabilities (softmax of the logits) for a batch, as `[batch, classes]`.
  public func probabilities(_ batch: Tensor, threads: Int = Network.defaultThreads) throws(NNError)
    -> Tensor
  {
    let z = try logits(batch, threads: threads)
    var p = z
    for b in 0..<z.shape[0] {
      let row = SoftmaxCrossEntropy.softmax(z.slice(b)).data
      p.data.replaceSubrange((b * classCount)..<((b + 1) * classCount), with: row)
    }
    return p
  }

  /// Mean loss and correct count of a labelled batch, without changing anything.
  public func evaluate(
    _ batch: Tensor, labels: [Int], threads: Int = Network.defaultThreads
  ) throws(NNError) -> BatchResult {
    let z = try logits(batch, threads: threads)
    try checkLabels(labels, count: z.shape[0])
    var loss = 0.0
    var correct = 0
    for b in 0..<labels.count {
      let row = z.slice(b)
      loss += Double(SoftmaxCrossEntropy.lossAndGradient(logits: row, label: labels[b]).loss)
      if SoftmaxCrossEntropy.argmax(row) == labels[b] { correct += 1 }
    }
    return BatchResult(
      meanLoss: labels.isEmpty ? 0 : Float(loss / Double(labels.count)),
      correct: correct, count: labels.count)
  }

  /// Forward and backward pass of a labelled batch: the mean loss and its gradient with respect
  /// to every parameter (network order), without changing the network.
  ///
  /// Per-sample gradients are computed in parallel and added to the total strictly in sample
  /// order, a few samples at a time (bounded memory), so the sum never depends on threads.
  /// Batch norms and dropout run in training mode (batch statistics; dropout masks from
  /// `seed`).
  public func gradients(
    _ batch: Tensor, labels: [Int], threads: Int = Network.defaultThreads, seed: UInt64 = 0
  ) throws(NNError) -> (result: BatchResult, gradients: [Tensor]) {
    let r = try trainingPass(batch, labels: labels, threads: threads, seed: seed)
    return (r.result, r.gradients)
  }

  /// `gradients`, and the buffers after the step (batch norms' running statistics).
  func trainingPass(
    _ batch: Tensor, labels: [Int], threads: Int, seed: UInt64
  ) throws(NNError) -> (result: BatchResult, gradients: [Tensor], buffers: [Tensor]) {
    let n = try checkBatch(batch)
    try checkLabels(labels, count: n)
    if let engine, engine.canBackprop {
      let context = engine.checkOut()
      defer { engine.checkIn(context) }
      let result = engineGradients(
        batch, labels: labels, threads: threads, context: context, seed: seed)
      var offset = 0
      let total = parameters.map { t in
        defer { offset += t.count }
        return Tensor(
          shape: t.shape,
          data: Array(UnsafeBufferPointer(start: context.total + offset, count: t.count)))
      }
      return (result, total, context.buffers(shapedLike: layers))
    }
    if dependsOnTrainingMode {
      return batchGradients(batch, labels: labels, threads: threads, seed: seed)
    }
    var total = parameters.map { Tensor(shape: $0.shape) }
    var loss = 0.0
    var correct = 0
    let scale = n == 0 ? 0 : 1 / Float(n)
    let chunk = max(8, 2 * max(threads, 1))
    var start = 0
    while start < n {
      let (first, size) = (start, min(chunk, n - start))
      let results = Parallel.map(size, threads: threads) { [self] j in
        backpropSample(batch.slice(first + j), label: labels[first + j], scale: scale)
      }
      for r in results {
        loss += Double(r.loss)
        if r.correct { correct += 1 }
        for t in 0..<total.count {
          r.gradients[t].data.withUnsafeBufferPointer { g in
            total[t].data.withUnsafeMutableBufferPointer { s in
              Kernels.add(g.baseAddress!, into: s.baseAddress!, g.count)
            }
          }
        }
      }
      start += size
    }
    let result = BatchResult(
      meanLoss: n == 0 ? 0 : Float(loss / Double(n)), correct: correct, count: n)
    return (result, total, buffers)
  }

  /// One training step: forward, loss, backward, then one optimizer update (and, with batch
  /// normalisation, the running statistics' update; dropout masks from `seed`).
  /// - Returns: the batch's mean loss and correct count *before* the update.
  @discardableResult
  public mutating func trainStep(
    _ batch: Tensor, labels: [Int], optimizer: inout some Optimizer,
    threads: Int = Network.defaultThreads, seed: UInt64 = 0
  ) throws(NNError) -> BatchResult {
    let r = try trainingPass(batch, labels: labels, threads: threads, seed: seed)
    var p = parameters
    optimizer.update(&p, gradients: r.gradients)
    try setParameters(p)
    try setBuffers(r.buffers)
    return r.result
  }

  /// The engine's batch gradient: every sample's gradient into its own slot (in parallel),
  /// then the slots added to `context.total` strictly in sample order (each piece of the
  /// parameter vector on its own thread), up to `chunk` samples
  /// at a time (bounded memory). Loss is summed in sample order too.
  /// With `loadParameters` false the context's flat parameters (and batch norm statistics)
  /// are used as they are (`TrainingSession` keeps them there between steps). A network with
  /// batch norms runs the whole batch at once (`EngineContext.trainRuns`).
  func engineGradients(
    _ batch: Tensor, labels: [Int], threads: Int, context: EngineContext,
    loadParameters: Bool = true, seed: UInt64
  ) -> BatchResult {
    let engine = context.engine
    let n = batch.shape[0]
    let count = engine.parameterCount
    let size = engine.inputCount
    if loadParameters { context.load(layers) }
    context.total.update(repeating: 0, count: count)
    guard n > 0 else { return BatchResult(meanLoss: 0, correct: 0, count: 0) }
    if engine.runs.count > 1 {
      let r = batch.data.withUnsafeBufferPointer { xs in
        context.trainRuns(
          xs.baseAddress!, labels: labels, count: n, threads: threads, seed: seed)
      }
      context.sumSlots(n, threads: threads)
      return BatchResult(meanLoss: Float(r.loss / Double(n)), correct: r.correct, count: n)
    }
    let chunk = min(n, 64)
    context.reserve(samples: chunk, workers: min(max(threads, 1), chunk))
    let scale = 1 / Float(n)
    var loss = 0.0
    var correct = 0
    batch.data.withUnsafeBufferPointer { xs in
      let x = SharedPointer(base: UnsafeMutablePointer(mutating: xs.baseAddress!))
      let p = SharedPointer(base: context.tensors)
      let slots = SharedPointer(base: context.slots)
      let losses = SharedPointer(base: context.losses)
      let hits = SharedPointer(base: context.hits)
      var start = 0
      while start < n {
        let first = start
        let size0 = min(chunk, n - start)
        context.run(size0, threads: threads) { ws, j in
          let r = engine.backprop(
            x.base + (first + j) * size, label: labels[first + j], scale: scale,
            parameters: p.base, gradient: slots.base + j * count, in: ws,
            training: Engine.SampleInTraining(index: first + j, seed: seed))
          losses.base[j] = r.loss
          hits.base[j] = r.correct
        }
        for j in 0..<size0 {
          loss += Double(losses.base[j])
          if hits.base[j] { correct += 1 }
        }
        context.sumSlots(size0, threads: threads)
        start += size0
      }
    }
    return BatchResult(meanLoss: Float(loss / Double(n)), correct: correct, count: n)
  }

  // MARK: One sample

  /// The logits of one sample (shape `inputShape`).
  func forwardSample(_ x: Tensor, layers count: Int? = nil) -> Tensor {
    var a = x
    for layer in layers.prefix(count ?? layers.count) { a = layer.forward(a) }
    return a
  }

  /// Loss, correctness and this sample's parameter gradients (already multiplied by `scale`).
  func backpropSample(_ x: Tensor, label: Int, scale: Float) -> (
    loss: Float, correct: Bool, gradients: [Tensor]
  ) {
    var acts = [x]
    acts.reserveCapacity(layers.count + 1)
    for layer in layers { acts.append(layer.forward(acts[acts.count - 1])) }
    let logits = acts[layers.count]
    let (loss, dLogits) = SoftmaxCrossEntropy.lossAndGradient(
      logits: logits, label: label, scale: scale)
    var grad = dLogits
    var perLayer = layers.map { $0.parameters.map { Tensor(shape: $0.shape) } }
    for i in layers.indices.reversed() {
      let dx = layers[i].backward(
        input: acts[i], output: acts[i + 1], outputGradient: grad,
        parameterGradients: &perLayer[i], needsInputGradient: i > 0)
      acts[i + 1] = Tensor(shape: [0])  // free activations as soon as they are used
      if let dx { grad = dx }
    }
    return (loss, SoftmaxCrossEntropy.argmax(logits) == label, perLayer.flatMap { $0 })
  }

  // MARK: Checks

  /// Checks a labelled batch without allocating (`TrainingSession.step`).
  func check(_ batch: Tensor, labels: [Int]) throws(NNError) {
    try checkLabels(labels, count: checkBatch(batch))
  }

  private func checkBatch(_ batch: Tensor) throws(NNError) -> Int {
    guard batch.rank == inputShape.count + 1,
      inputShape.indices.allSatisfy({ batch.shape[$0 + 1] == inputShape[$0] })
    else {
      throw .badInput(expected: inputShape, found: batch.shape)
    }
    return batch.shape[0]
  }

  private func checkLabels(_ labels: [Int], count: Int) throws(NNError) {
    guard labels.count == count else {
      throw .badLabels(reason: "\(labels.count) labels for \(count) samples")
    }
    if let bad = labels.first(where: { $0 < 0 || $0 >= classCount }) {
      throw .badLabels(reason: "label \(bad) is not in 0..<\(classCount)")
    }
  }
}
