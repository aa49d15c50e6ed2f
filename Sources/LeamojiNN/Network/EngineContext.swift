import Dispatch
import LeamojiCore

/// What an `EngineContext` is for, and so which buffers it holds.
package enum EngineMode: Sendable {
  /// Forward and backward passes: the flat parameters and gradient sums, and workspaces
  /// keeping every step's output and im2col matrix for the backward pass.
  case training
  /// Forward passes only: no parameter copy (the layers' tensors are read in place), no
  /// gradients, and workspaces sized to the largest step, one buffer reused across steps.
  case inference
}

/// Raw pointers handed to worker threads. Safe because each worker writes only its own
/// workspace and its own samples' slots, and nothing reads them until all workers finish.
struct SharedPointer<T>: @unchecked Sendable {
  let base: UnsafeMutablePointer<T>
}

/// Everything one batch call needs: for training the flat parameters, per-sample gradient
/// slots and results; for both modes the batch norms' affine numbers and one workspace per
/// worker thread. Grows to the largest batch seen; never shrinks.
final class EngineContext: @unchecked Sendable {
  unowned let engine: Engine
  let mode: EngineMode
  /// The flat parameter vector and the batch gradient (`Engine.parameterCount` floats each
  /// in training; one unused float each in inference, which reads the layers' tensors).
  let parameters: UnsafeMutablePointer<Float>
  let total: UnsafeMutablePointer<Float>
  /// `tensors[i]` is parameter tensor `i` inside `parameters` (training; `Engine.forward`'s
  /// table of addresses).
  let tensors: UnsafeMutablePointer<UnsafePointer<Float>>
  /// Batch norms' inference `scale` and `shift` per channel (`Engine.Op.batchNorm`).
  let affine: UnsafeMutablePointer<Float>
  /// Training: the batch norms' running mean, variance and batch count (`Engine.Norm.state`),
  /// updated by every step, and each channel's batch mean and inverse deviation of the
  /// current step (at `Engine.Norm.affine`).
  let state: UnsafeMutablePointer<Float>
  let statistics: UnsafeMutablePointer<Double>
  private(set) var slots: UnsafeMutablePointer<Float>
  private(set) var slotCapacity = 0
  private(set) var losses: UnsafeMutablePointer<Float>
  private(set) var hits: UnsafeMutablePointer<Bool>
  private(set) var workspaces: [EngineWorkspace] = []

  init(engine: Engine, mode: EngineMode) {
    self.engine = engine
    self.mode = mode
    let flat = mode == .training ? max(1, engine.parameterCount) : 1
    parameters = .allocate(capacity: flat)
    total = .allocate(capacity: flat)
    let tensorCount = mode == .training ? engine.offsets.count : 0
    tensors = .allocate(capacity: max(1, tensorCount))
    for i in 0..<tensorCount { (tensors + i).initialize(to: parameters + engine.offsets[i]) }
    affine = .allocate(capacity: max(1, engine.affineCount))
    state = .allocate(capacity: max(1, engine.stateCount))
    statistics = .allocate(capacity: max(1, engine.affineCount))
    slots = .allocate(capacity: 1)
    losses = .allocate(capacity: 1)
    hits = .allocate(capacity: 1)
  }

  deinit {
    parameters.deallocate()
    total.deallocate()
    tensors.deallocate()
    affine.deallocate()
    state.deallocate()
    statistics.deallocate()
    slots.deallocate()
    losses.deallocate()
    hits.deallocate()
  }

  /// Makes room for `samples` gradient slots (training only) and `workers` workspaces.
  func reserve(samples: Int, workers: Int) {
    if samples > slotCapacity {
      precondition(mode == .training, "gradient slots in an inference context")
      slots.deallocate()
      losses.deallocate()
      hits.deallocate()
      slots = .allocate(capacity: samples * max(1, engine.parameterCount))
      losses = .allocate(capacity: samples)
      hits = .allocate(capacity: samples)
      slotCapacity = samples
    }
    while workspaces.count < workers {
      workspaces.append(EngineWorkspace(engine: engine, mode: mode))
    }
  }

  /// Computes the batch norms' inference scale and shift (`BatchNorm2D.scaleAndShift`, the
  /// numbers the layer itself uses) and, in a training context, copies the network's
  /// parameters into the flat vector and its buffers into `state`, in network order.
  func load(_ layers: [any Layer]) {
    var offset = 0
    var a = 0
    var b = 0
    for layer in layers {
      if let bn = layer as? BatchNorm2D {
        let (scale, shift) = bn.scaleAndShift()
        (affine + a).update(from: scale, count: scale.count)
        (affine + a + scale.count).update(from: shift, count: shift.count)
        a += scale.count + shift.count
      }
      guard mode == .training else { continue }
      for tensor in layer.buffers {
        tensor.data.withUnsafeBufferPointer {
          (state + b).update(from: $0.baseAddress!, count: $0.count)
        }
        b += tensor.count
      }
      for tensor in layer.parameters {
        tensor.data.withUnsafeBufferPointer {
          (parameters + offset).update(from: $0.baseAddress!, count: $0.count)
        }
        offset += tensor.count
      }
    }
  }

  /// Adds the first `count` gradient slots to `total` in sample order, pieces of the parameter
  /// vector on all threads (each element's sum is the same, in the same order, whoever adds
  /// it).
  func sumSlots(_ count: Int, threads: Int) {
    let length = engine.parameterCount
    let total = SharedPointer(base: self.total)
    let slots = SharedPointer(base: self.slots)
    let piece = 2048
    Parallel.forEach((length + piece - 1) / piece, threads: threads) { q in
      let lo = q * piece
      let size = min(piece, length - lo)
      for j in 0..<count { Kernels.add(slots.base + j * length + lo, into: total.base + lo, size) }
    }
  }

  /// The buffers in `state` as tensors shaped like `layers`' buffers (network order).
  func buffers(shapedLike layers: [any Layer]) -> [Tensor] {
    var b = 0
    return layers.flatMap(\.buffers).map { t in
      defer { b += t.count }
      return Tensor(
        shape: t.shape, data: Array(UnsafeBufferPointer(start: state + b, count: t.count)))
    }
  }

  /// Runs `body(workspace, i)` for `i` in `0..<count` on up to `threads` threads, each worker
  /// with its own workspace, taking the next index not yet taken. The assignment of indices
  /// to workers therefore varies from run to run, and it must not matter: `body` writes only
  /// index `i`'s own results, and a workspace carries nothing from one index to the next (every
  /// buffer a pass reads it has written itself). Taking indices as they come (rather than
  /// `w, w + workers, ...`) keeps both cores busy to the end of a batch when one worker is
  /// slowed down by other work on its core (the next batch being made, another process).
  func run(_ count: Int, threads: Int, _ body: @Sendable (EngineWorkspace, Int) -> Void) {
    let workers = min(max(threads, 1), count)
    guard workers > 0 else { return }
    reserve(samples: 0, workers: workers)
    if workers == 1 {
      for i in 0..<count { body(workspaces[0], i) }
      return
    }
    let spaces = workspaces
    let next = Locked(0)
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      while true {
        let i = next.withValue { n -> Int in
          defer { n += 1 }
          return n
        }
        guard i < count else { return }
        body(spaces[worker], i)
      }
    }
  }
}

/// One worker thread's buffers.
///
/// Training: every step's output, every convolution's im2col matrix in the GEMM's panel
/// layout (kept from the forward pass for the weight gradient, then reused row-major for the
/// input gradient's `dCol`), two gradient buffers, the padded-input buffer and the GEMM
/// packing scratch.
///
/// Inference: a forward step reads only the previous step's output (and a residual block's end
/// its block's input), so the outputs share a few buffers (`Engine.assignBuffers`: a plain
/// chain alternates between two), every convolution shares one im2col buffer, the scratch is
/// the forward GEMMs' and there are no gradient buffers (one unused float each). A MobileNet-
/// style network may split one sample's steps over several threads ("lanes", `ForwardPass`);
/// each lane has its own scratch (`laneScratch`, the first is `scratch`), and the workspace owns
/// the lanes' threads (`LaneCrew`).
final class EngineWorkspace: @unchecked Sendable {
  let mode: EngineMode
  let activations: UnsafeMutablePointer<Float>
  /// `outputs[s]` is step `s`'s output inside `activations`.
  let outputs: [UnsafeMutablePointer<Float>]
  let colBlock: UnsafeMutablePointer<Float>
  /// `cols[s]` is step `s`'s im2col matrix (convolutions only).
  let cols: [UnsafeMutablePointer<Float>?]
  let gradientA: UnsafeMutablePointer<Float>
  let gradientB: UnsafeMutablePointer<Float>
  let scratch: UnsafeMutablePointer<Float>
  /// A convolution's input with its zero border (`im2colPanels`).
  let padded: UnsafeMutablePointer<Float>
  let exponentials: UnsafeMutablePointer<Double>
  /// One scratch per lane a sample's steps may be split over; `laneScratch[0] == scratch`.
  let laneScratch: [UnsafeMutablePointer<Float>]

  init(engine: Engine, mode: EngineMode) {
    self.mode = mode
    let training = mode == .training
    // Where each step's output and im2col matrix start, relative to their buffers.
    var outputAt: [Int] = []
    var colAt: [Int?] = []
    var activationCount = 0
    if training {
      for step in engine.steps {
        outputAt.append(activationCount)
        activationCount += step.outCount
      }
    } else {
      // The buffers of `Engine.assignBuffers`, one after the other.
      var starts: [Int] = []
      for size in engine.inferenceBufferSizes {
        starts.append(activationCount)
        activationCount += size
      }
      outputAt = engine.inferenceBuffer.map { starts[$0] }
    }
    var c = 0
    for step in engine.steps {
      switch step.op {
      case .conv(_, _, _, let g, _):
        colAt.append(training ? c : 0)
        c += g.panelledCount
      case .paddedConv(_, _, let inChannels, _, let g, _):
        colAt.append(training ? c : 0)
        c += inChannels * g.kernel * g.kernel * g.outArea
      default:
        colAt.append(nil)
      }
    }
    let activations = UnsafeMutablePointer<Float>.allocate(capacity: max(1, activationCount))
    let colBlock = UnsafeMutablePointer<Float>.allocate(
      capacity: max(1, training ? engine.colTotal : engine.largestCol))
    self.activations = activations
    self.colBlock = colBlock
    outputs = outputAt.map { activations + $0 }
    cols = colAt.map { $0.map { colBlock + $0 } }
    gradientA = .allocate(capacity: training ? engine.largestActivation : 1)
    gradientB = .allocate(capacity: training ? engine.largestActivation : 1)
    scratch = .allocate(
      capacity: max(1, training ? engine.scratchCount : engine.forwardScratchCount))
    padded = .allocate(capacity: max(1, engine.paddedInput))
    exponentials = .allocate(capacity: max(1, engine.classes))
    let lanes = engine.mobile ? Parallel.defaultThreads : 1
    laneScratch =
      [scratch]
      + (1..<max(1, lanes)).map { _ in .allocate(capacity: max(1, engine.forwardScratchCount)) }
  }

  /// The threads a sample split over `lanes` lanes runs on, started on first use.
  func crew(lanes: Int) -> LaneCrew {
    if let crew = laneCrew, crew.count == lanes { return crew }
    let crew = LaneCrew(count: lanes)
    laneCrew = crew
    return crew
  }
  private var laneCrew: LaneCrew?

  deinit {
    activations.deallocate()
    colBlock.deallocate()
    gradientA.deallocate()
    gradientB.deallocate()
    scratch.deallocate()
    padded.deallocate()
    exponentials.deallocate()
    for lane in laneScratch.dropFirst() { lane.deallocate() }
  }
}
