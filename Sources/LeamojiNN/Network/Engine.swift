import Dispatch
import FoundationEssentials
import LeamojiCore

/// The fast batch runner behind `Network.logits` and `Network.gradients`: the network's layers
/// compiled into a list of steps over raw float buffers, with every buffer a pass needs
/// (activations, im2col matrices, gradients, packing scratch) allocated once and reused.
///
/// - A convolution followed by a ReLU is one step: the GEMM's output pass adds the bias and
///   applies the ReLU (`Kernels.gemmPacked`).
/// - Samples run in parallel, each worker thread on its own `EngineWorkspace`; a sample's
///   parameter gradient goes to its own slot and slots are summed in sample order, so results
///   are bit-identical for any thread count.
/// - Buffers live in `EngineContext`s kept in a small pool: a training loop checks the same
///   context out for every step, so steady-state steps allocate no activation, gradient or
///   scratch memory. Copies of a `Network` share the engine; the pool's lock lets them run
///   at the same time.
/// - A context is made for training or for inference (`EngineMode`). An inference context
///   holds only what a forward pass needs, reused from layer to layer, and reads the weights
///   from the layers' own tensors rather than a copy: about a third of a training context's
///   memory, with bit-identical logits (same kernels, same arithmetic, other addresses).
///
/// Networks containing a layer type this file does not know run layer by layer instead
/// (`Network.forwardSample` / `backpropSample`). Batch norms (as a per-channel affine step,
/// fused with a following ReLU) and dropout (a copy) run here in their inference form only:
/// networks with them train through `Network.batchGradients`, never `backprop`.
final class Engine: @unchecked Sendable {
  /// One step of the compiled network. `weight` and `bias` are indices of parameter tensors
  /// in network order: a pass reads tensor `i` at `parameters[i]` (a table of addresses), and
  /// backprop writes its gradient at `offsets[i]` in the flat gradient vector.
  enum Op {
    /// `relu` is 1 when a ReLU is fused into the output pass, else 0. (An integer rather than a
    /// Bool: a Bool's spare bits would carry the enum's tag, and valgrind's memcheck then sees
    /// the tag test read the uninitialised bytes of the other cases' shorter payloads.)
    case conv(weight: Int, bias: Int, outChannels: Int, window: Kernels.Window, relu: UInt8)
    case relu
    case maxPool(Kernels.Window)
    case globalAvgPool(channels: Int, area: Int)
    case flatten
    case linear(weight: Int, bias: Int, inFeatures: Int, outFeatures: Int)
    /// A batch norm in its inference form, `y = x · scale + shift` per channel, then a ReLU
    /// when `relu` is 1; `scale` and `shift` are at `affine` and `affine + channels` in the
    /// context's `affine` buffer (computed by `load` from the running statistics).
    case batchNorm(affine: Int, channels: Int, area: Int, relu: UInt8)
    /// Dropout in inference: the output is the input.
    case identity
    /// A 1x1, stride-1 convolution of a MobileNet-style network: one GEMM straight on the CHW
    /// input (`W[out×in] · X[in×positions]`), its weights packed once per context (`packed`
    /// floats from `EngineContext.packed`), bias and `activation` fused.
    case pointwise(
      weight: Int, bias: Int, inChannels: Int, outChannels: Int, positions: Int, packed: Int,
      activation: Kernels.Activation)
    /// A convolution with one group and any padding (the stem): im2col, then the GEMM.
    case paddedConv(
      weight: Int, bias: Int, inChannels: Int, outChannels: Int, window: Kernels.PaddedWindow,
      packed: Int, activation: Kernels.Activation)
    /// A depthwise convolution (`Kernels.depthwise`), bias and activation fused.
    case depthwise(
      weight: Int, bias: Int, channels: Int, window: Kernels.PaddedWindow,
      activation: Kernels.Activation)
    /// min(max(x, 0), 6).
    case relu6
    /// A residual block's end: the output is the input plus the block's input, which is the
    /// output of step `source` (the network's input when -1).
    case addSkip(source: Int)
  }

  struct Step {
    var op: Op
    /// Floats of one sample's input and output.
    var inCount: Int
    var outCount: Int
  }

  let steps: [Step]
  /// True for networks with version 3 layers (vector 1x1 convolutions and linear layer).
  let mobile: Bool
  /// False when a step has no backward pass here (MobileNet-style layers): such networks
  /// train layer by layer (`Network.trainsLayerByLayer`).
  let canBackprop: Bool
  /// Floats of the GEMM weights packed once per context (pointwise and im2col steps).
  let packedCount: Int
  let inputCount: Int
  let classes: Int
  let parameterCount: Int
  /// `offsets[i]` is parameter tensor `i`'s position in the flat parameter (and gradient)
  /// vector; `offsets.count` is the number of parameter tensors.
  let offsets: [Int]
  /// Floats per workspace buffer kind, computed once.
  let activationTotal: Int
  let largestActivation: Int
  let colTotal: Int
  let paddedInput: Int
  let scratchCount: Int
  /// The largest single im2col matrix and the GEMM scratch of the forward passes alone: what
  /// an inference workspace holds instead of `colTotal` and `scratchCount`.
  let largestCol: Int
  let forwardScratchCount: Int
  /// Floats of the batch norms' inference `scale`/`shift` pairs.
  let affineCount: Int

  private let lock = ThreadLock()
  private var idle: [EngineContext] = []

  /// The compiled form of `layers`, or nil when a layer type is not one of the built-in ones.
  init?(layers: [any Layer], shapes: [[Int]]) {
    // MobileNet-style networks (version 3 layers) run their 1x1 convolutions and linear layer
    // on the vector kernels; older networks keep the steps they always had, bit for bit.
    let mobile = layers.contains { $0.spec.requiredVersion >= 3 }
    let items = Engine.flatten(layers, shapes: shapes)
    var steps: [Step] = []
    var offsets: [Int] = []
    var offset = 0
    var affine = 0
    var packed = 0
    var canBackprop = true
    var blockStarts: [Int] = []
    var i = 0
    while i < items.count {
      let item = items[i]
      let inShape = item.inShape
      let inCount = inShape.reduce(1, *)
      guard let layer = item.layer else {
        if item.startsBlock {
          // The block's input is the output of the last step so far (-1: the network's input).
          blockStarts.append(steps.count - 1)
        } else {
          steps.append(
            Step(
              op: .addSkip(source: blockStarts.removeLast()), inCount: inCount, outCount: inCount))
          canBackprop = false
        }
        i += 1
        continue
      }
      // The layer's first parameter tensor (its weight, then its bias).
      let tensor = offsets.count
      for t in layer.parameters {
        offsets.append(offset)
        offset += t.count
      }
      var outIndex = i + 1
      /// The activation of the next item when it can be fused into this step.
      func fusedActivation() -> Kernels.Activation {
        guard i + 1 < items.count, let next = items[i + 1].layer else { return .none }
        if next is ReLU6 { return .relu6 }
        if next is ReLU { return .relu }
        return .none
      }
      let op: Op
      if let conv = layer as? Conv2D, mobile, conv.kernel == 1, conv.stride == 1,
        conv.padding == 0
      {
        let activation = fusedActivation()
        if activation != .none { outIndex += 1 }
        op = .pointwise(
          weight: tensor, bias: tensor + 1, inChannels: conv.inChannels,
          outChannels: conv.outChannels, positions: inShape[1] * inShape[2], packed: packed,
          activation: activation)
        packed += Kernels.packedCount(m: conv.outChannels, k: conv.inChannels)
        canBackprop = false
      } else if let conv = layer as? Conv2D {
        let fuse = i + 1 < items.count && items[i + 1].layer is ReLU
        if fuse { outIndex += 1 }
        op = .conv(
          weight: tensor, bias: tensor + 1, outChannels: conv.outChannels,
          window: conv.window(inShape), relu: fuse ? 1 : 0)
      } else if let conv = layer as? GroupedConv2D {
        let activation = fusedActivation()
        if activation != .none { outIndex += 1 }
        let window = conv.geometry(inShape)
        if conv.isDepthwise {
          op = .depthwise(
            weight: tensor, bias: tensor + 1, channels: conv.inChannels, window: window,
            activation: activation)
        } else if conv.groups == 1 {
          op = .paddedConv(
            weight: tensor, bias: tensor + 1, inChannels: conv.inChannels,
            outChannels: conv.outChannels, window: window, packed: packed,
            activation: activation)
          packed += Kernels.packedCount(
            m: conv.outChannels, k: conv.inChannels * conv.kernel * conv.kernel)
        } else {
          return nil
        }
        canBackprop = false
      } else if let linear = layer as? Linear {
        op = .linear(
          weight: tensor, bias: tensor + 1, inFeatures: linear.inFeatures,
          outFeatures: linear.outFeatures)
      } else if layer is ReLU {
        op = .relu
      } else if layer is ReLU6 {
        op = .relu6
        canBackprop = false
      } else if let pool = layer as? MaxPool2D {
        op = .maxPool(pool.window(inShape))
      } else if layer is GlobalAvgPool {
        op = .globalAvgPool(channels: inShape[0], area: inShape[1] * inShape[2])
      } else if layer is Flatten {
        op = .flatten
      } else if let bn = layer as? BatchNorm2D {
        let fuse = i + 1 < items.count && items[i + 1].layer is ReLU
        if fuse { outIndex += 1 }
        op = .batchNorm(
          affine: affine, channels: bn.features, area: inCount / bn.features, relu: fuse ? 1 : 0)
        affine += 2 * bn.features
      } else if layer is Dropout {
        op = .identity
      } else {
        return nil
      }
      let outShape = items[outIndex - 1].outShape
      steps.append(Step(op: op, inCount: inCount, outCount: outShape.reduce(1, *)))
      i = outIndex
    }
    self.mobile = mobile
    self.canBackprop = canBackprop
    self.packedCount = packed
    self.steps = steps
    inputCount = shapes[0].reduce(1, *)
    classes = shapes[shapes.count - 1].reduce(1, *)
    parameterCount = offset
    self.offsets = offsets
    activationTotal = steps.reduce(0) { $0 + $1.outCount }
    largestActivation = steps.reduce(inputCount) { max($0, $1.outCount) }
    var cols = 0
    var largestCol = 0
    var padded = 0
    var scratch = 0
    var forwardScratch = 0
    for step in steps {
      switch step.op {
      case .pointwise(_, _, _, let out, _, _, _):
        forwardScratch = max(forwardScratch, Kernels.gemmPrepackedScratchCount(m: out))
      case .paddedConv(_, _, let inChannels, let out, let g, _, _):
        let count = inChannels * g.kernel * g.kernel * g.outArea
        cols += count
        largestCol = max(largestCol, count)
        forwardScratch = max(forwardScratch, Kernels.gemmPrepackedScratchCount(m: out))
      case .depthwise(_, _, _, let g, _):
        forwardScratch = max(forwardScratch, Kernels.depthwiseScratchCount(g))
      default:
        break
      }
      scratch = max(scratch, forwardScratch)
      guard case .conv(_, _, let out, let g, _) = step.op else { continue }
      cols += g.panelledCount
      largestCol = max(largestCol, g.panelledCount)
      padded = max(padded, g.paddedCount)
      let forward = Kernels.gemmScratchCount(m: out, k: g.patchSize)
      forwardScratch = max(forwardScratch, forward)
      scratch = max(
        scratch, forward, Kernels.gemmScratchCount(m: out, k: g.positions),
        Kernels.gemmScratchCount(m: g.patchSize, k: out))
    }
    colTotal = cols
    self.largestCol = largestCol
    paddedInput = padded
    scratchCount = scratch
    forwardScratchCount = forwardScratch
    affineCount = affine
    (inferenceBuffer, inferenceBufferSizes) = Engine.assignBuffers(steps)
  }

  /// Inference: which of a few reused buffers each step writes its output to, and their sizes.
  /// A step's output lives until the next step has read it, or until the `addSkip` that reads
  /// it as a residual block's input; a buffer is reused once its last output is dead. A chain
  /// without blocks alternates between two buffers.
  let inferenceBuffer: [Int]
  let inferenceBufferSizes: [Int]

  static func assignBuffers(_ steps: [Step]) -> ([Int], [Int]) {
    var lastUse = steps.indices.map { $0 + 1 }
    for (t, step) in steps.enumerated() {
      if case .addSkip(let source) = step.op, source >= 0 {
        lastUse[source] = max(lastUse[source], t)
      }
    }
    var buffer: [Int] = []
    var sizes: [Int] = []
    var holder: [Int] = []  // the step whose output each buffer holds
    for (t, step) in steps.enumerated() {
      if let free = holder.indices.first(where: { lastUse[holder[$0]] < t }) {
        buffer.append(free)
        holder[free] = t
        sizes[free] = max(sizes[free], step.outCount)
      } else {
        buffer.append(holder.count)
        holder.append(t)
        sizes.append(step.outCount)
      }
    }
    return (buffer, sizes)
  }

  /// One entry of a network's layers with residual blocks opened up: a layer, or a block's
  /// start or end (`layer` nil).
  struct FlatItem {
    var layer: (any Layer)?
    var startsBlock = false
    var inShape: [Int]
    var outShape: [Int]
  }

  /// The layers in running order, each residual block as start, its layers, end.
  static func flatten(_ layers: [any Layer], shapes: [[Int]]) -> [FlatItem] {
    var items: [FlatItem] = []
    func add(_ layer: any Layer, _ shape: [Int]) -> [Int] {
      if let block = layer as? Residual {
        items.append(FlatItem(layer: nil, startsBlock: true, inShape: shape, outShape: shape))
        var inner = shape
        for l in block.body { inner = add(l, inner) }
        items.append(FlatItem(layer: nil, startsBlock: false, inShape: inner, outShape: shape))
        return shape
      }
      // The shapes were checked when the network was built.
      let out = (try? layer.outputShape(for: shape)) ?? shape
      items.append(FlatItem(layer: layer, inShape: shape, outShape: out))
      return out
    }
    for (l, layer) in layers.enumerated() { _ = add(layer, shapes[l]) }
    return items
  }

  /// A context for one call, from the pool or new.
  func checkOut(_ mode: EngineMode = .training) -> EngineContext {
    lock.lock()
    defer { lock.unlock() }
    if let i = idle.lastIndex(where: { $0.mode == mode }) { return idle.remove(at: i) }
    return EngineContext(engine: self, mode: mode)
  }

  /// Gives a context back for the next call (the pool keeps a few).
  func checkIn(_ context: EngineContext) {
    lock.lock()
    defer { lock.unlock() }
    if idle.count < 4 { idle.append(context) }
  }
}

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
    slots = .allocate(capacity: 1)
    losses = .allocate(capacity: 1)
    hits = .allocate(capacity: 1)
  }

  deinit {
    parameters.deallocate()
    total.deallocate()
    tensors.deallocate()
    affine.deallocate()
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
  /// parameters into the flat vector, in network order.
  func load(_ layers: [any Layer]) {
    var offset = 0
    var a = 0
    for layer in layers {
      if let bn = layer as? BatchNorm2D {
        let (scale, shift) = bn.scaleAndShift()
        (affine + a).update(from: scale, count: scale.count)
        (affine + a + scale.count).update(from: shift, count: shift.count)
        a += scale.count + shift.count
      }
      guard mode == .training else { continue }
      for tensor in layer.parameters {
        tensor.data.withUnsafeBufferPointer {
          (parameters + offset).update(from: $0.baseAddress!, count: $0.count)
        }
        offset += tensor.count
      }
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
/// style network may split one sample's steps over several threads ("lanes"); each lane has
/// its own scratch (`laneScratch`, the first is `scratch`).
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
      case .paddedConv(_, _, let inChannels, _, let g, _, _):
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
