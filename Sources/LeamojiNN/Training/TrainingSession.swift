/// A training loop's steps on flat buffers, allocating nothing once running.
///
/// `Network.trainStep` hands the optimiser a fresh `[Tensor]` of gradients and copies the
/// parameters in and out of the layers (copy-on-write tensors) every step. A session instead
/// keeps, for its whole life, the network's parameters in the engine's flat buffer, the
/// batch gradient in the engine's total, and the optimiser's state sized once: a step is the
/// engine's forward/backward pass and `Optimizer.update(flat:gradients:segments:)` on those
/// buffers. The results are bit-identical to `trainStep` with the same optimiser (same
/// arithmetic, in the same order). `network` writes the parameters back into a `Network`
/// (allocates; call it per epoch, not per step).
///
/// Networks the engine cannot run (a layer type it does not know) still train, through
/// `Network.gradients` and `Optimizer.update(_:gradients:)`, with the same results. Networks
/// with batch normalisation or dropout train through `Network.batchGradients` (training
/// mode): the running statistics are updated each step, and step `k`'s dropout masks come
/// from `seed` and `k`.
public final class TrainingSession<O: Optimizer> {
  /// The optimiser; change `optimizer.learningRate` between steps for schedules.
  public var optimizer: O
  /// Parameters the session leaves unchanged: the first `frozen` tensors in network order.
  public let frozen: Int
  private var current: Network
  private let context: EngineContext?
  private let segments: UnsafeMutableBufferPointer<ParameterSegment>
  /// Seed of the dropout masks; each step mixes in its number.
  private let seed: UInt64
  /// Steps taken so far.
  public private(set) var steps: UInt64 = 0
  /// True when the flat buffer has changed since `current` was last updated.
  private var dirty = false

  /// Starts training `network` with `optimizer`, keeping the first `frozen` parameter tensors
  /// (network order) as they are.
  public init(network: Network, optimizer: O, frozen: Int = 0, seed: UInt64 = 0) {
    let parameters = network.parameters
    precondition(frozen >= 0 && frozen <= parameters.count, "frozen count out of range")
    self.optimizer = optimizer
    self.frozen = frozen
    self.seed = seed
    current = network
    let all = ParameterSegment.layout(of: parameters)
    segments = .allocate(capacity: all.count - frozen)
    _ = segments.initialize(from: all[frozen...])
    if let engine = network.engine, !network.trainsLayerByLayer {
      let context = engine.checkOut()
      context.load(network.layers)
      self.context = context
    } else {
      context = nil
    }
  }

  deinit {
    segments.deallocate()
    if let context { context.engine.checkIn(context) }
  }

  /// The network with the parameters as trained so far.
  public var network: Network {
    if dirty, let context {
      var offset = 0
      let tensors = current.parameters.map { t in
        defer { offset += t.count }
        return Tensor(
          shape: t.shape,
          data: Array(UnsafeBufferPointer(start: context.parameters + offset, count: t.count)))
      }
      do {
        try current.setParameters(tensors)
      } catch {
        preconditionFailure("the session's own layout: \(error)")
      }
      dirty = false
    }
    return current
  }

  /// One training step on a labelled batch: forward, loss, backward, one optimiser update.
  /// - Returns: the batch's mean loss and correct count *before* the update.
  /// - Throws: `NNError.badInput` / `.badLabels` for a batch the network does not take.
  @discardableResult
  public func step(_ batch: Tensor, labels: [Int], threads: Int = Network.defaultThreads)
    throws(NNError) -> BatchResult
  {
    defer { steps += 1 }
    guard let context else { return try layerByLayerStep(batch, labels: labels, threads: threads) }
    try current.check(batch, labels: labels)
    let result = current.engineGradients(
      batch, labels: labels, threads: threads, context: context, loadParameters: false)
    optimizer.update(
      flat: context.parameters, gradients: context.total,
      segments: UnsafeBufferPointer(segments))
    dirty = true
    return result
  }

  private func layerByLayerStep(_ batch: Tensor, labels: [Int], threads: Int) throws(NNError)
    -> BatchResult
  {
    var buffers: [Tensor]? = nil
    let result: BatchResult
    let gradients: [Tensor]
    if current.dependsOnTrainingMode {
      try current.check(batch, labels: labels)
      let stepSeed = seed ^ (steps &* 0xA076_1D64_78BD_642F)
      let r = current.batchGradients(batch, labels: labels, threads: threads, seed: stepSeed)
      (result, gradients, buffers) = (r.result, r.gradients, r.buffers)
    } else {
      (result, gradients) = try current.gradients(batch, labels: labels, threads: threads)
    }
    var parameters = current.parameters
    var trainable = Array(parameters[frozen...])
    optimizer.update(&trainable, gradients: Array(gradients[frozen...]))
    parameters.replaceSubrange(frozen..., with: trainable)
    try current.setParameters(parameters)
    if let buffers { try current.setBuffers(buffers) }
    return result
  }
}
