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
/// Batch norms and dropout train here too (the running statistics are kept in the engine's
/// context and updated each step; step `k`'s dropout masks come from `seed` and `k`).
/// Networks the engine cannot backpropagate (a layer type it does not know, MobileNet-style
/// steps) still train, layer by layer, through `Network.gradients` and
/// `Optimizer.update(_:gradients:)`.
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
    if let engine = network.engine, engine.canBackprop {
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
        try current.setBuffers(context.buffers(shapedLike: current.layers))
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
  /// Step `steps`' seed of the dropout masks.
  private var stepSeed: UInt64 { seed ^ (steps &* 0xA076_1D64_78BD_642F) }

  @discardableResult
  public func step(_ batch: Tensor, labels: [Int], threads: Int = Network.defaultThreads)
    throws(NNError) -> BatchResult
  {
    defer { steps += 1 }
    guard let context else { return try layerByLayerStep(batch, labels: labels, threads: threads) }
    try current.check(batch, labels: labels)
    let result = current.engineGradients(
      batch, labels: labels, threads: threads, context: context, loadParameters: false,
      seed: stepSeed)
    optimizer.update(
      flat: context.parameters, gradients: context.total,
      segments: UnsafeBufferPointer(segments))
    dirty = true
    return result
  }

  private func layerByLayerStep(_ batch: Tensor, labels: [Int], threads: Int) throws(NNError)
    -> BatchResult
  {
    let r = try current.trainingPass(batch, labels: labels, threads: threads, seed: stepSeed)
    var parameters = current.parameters
    var trainable = Array(parameters[frozen...])
    optimizer.update(&trainable, gradients: Array(r.gradients[frozen...]))
    parameters.replaceSubrange(frozen..., with: trainable)
    try current.setParameters(parameters)
    try current.setBuffers(r.buffers)
    return r.result
  }
}
