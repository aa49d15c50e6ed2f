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
/// (`Network.forwardSample` / `backpropSample`). A batch norm is a per-channel affine step in
/// inference and a batch-wide step in training (`BatchNorm2D.TrainingPass`: the steps between
/// two batch norms run per sample, then the batch norm over all samples); dropout is a copy in
/// inference and its seeded mask in training. A following ReLU is fused into a batch norm.
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
    /// Batch norm `norms[norm]`, then a ReLU when `relu` is 1. Inference: `y = x · scale +
    /// shift` per channel (`scale`, `shift` in the context's `affine` buffer, computed by
    /// `load`); training: the batch's statistics, a step over all samples.
    case batchNorm(norm: Int, area: Int, relu: UInt8)
    /// Dropout of the network's layer `layer`: a copy in inference, the seeded mask in training.
    case dropout(p: Double, layer: Int)
    /// A 1x1, stride-1 convolution of a MobileNet-style network: one GEMM straight on the CHW
    /// input (`W[out×in] · X[in×positions]`), reading the weights in place, bias and
    /// `activation` fused.
    case pointwise(
      weight: Int, bias: Int, inChannels: Int, outChannels: Int, positions: Int,
      activation: Kernels.Activation)
    /// A convolution with one group and any padding (the stem): im2col, then the GEMM.
    case paddedConv(
      weight: Int, bias: Int, inChannels: Int, outChannels: Int, window: Kernels.PaddedWindow,
      activation: Kernels.Activation)
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
  /// A batch norm's numbers: its channels, where its inference `scale`/`shift` (and, in
  /// training, its batch mean and inverse deviation) lie in the context, where its running
  /// mean, variance and batch count lie in the context's `state`, its parameter tensors.
  struct Norm {
    var channels: Int
    var affine: Int
    var state: Int
    var weight: Int
    var bias: Int
    var eps: Double
    var momentum: Double
  }
  let norms: [Norm]
  /// Training: the runs of steps between batch norms, each followed by the batch norm at its
  /// end (nil for the last run). A network without batch norms is one run.
  let runs: [(steps: Range<Int>, norm: Int?)]
  /// Floats of the batch norms' running statistics (`state`).
  let stateCount: Int
  /// True for networks with version 3 layers (vector 1x1 convolutions and linear layer).
  let mobile: Bool
  /// False when a step has no backward pass here (MobileNet-style layers): such networks
  /// train layer by layer (`Network.trainsLayerByLayer`).
  let canBackprop: Bool
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
    var norms: [Norm] = []
    var state = 0
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
          outChannels: conv.outChannels, positions: inShape[1] * inShape[2],
          activation: activation)
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
            outChannels: conv.outChannels, window: window, activation: activation)
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
        op = .batchNorm(norm: norms.count, area: inCount / bn.features, relu: fuse ? 1 : 0)
        norms.append(
          Norm(
            channels: bn.features, affine: affine, state: state, weight: tensor,
            bias: tensor + 1, eps: bn.eps, momentum: bn.momentum))
        affine += 2 * bn.features
        state += 2 * bn.features + 1
      } else if let dropout = layer as? Dropout {
        op = .dropout(p: dropout.p, layer: item.index)
      } else {
        return nil
      }
      let outShape = items[outIndex - 1].outShape
      steps.append(Step(op: op, inCount: inCount, outCount: outShape.reduce(1, *)))
      i = outIndex
    }
    self.mobile = mobile
    self.canBackprop = canBackprop
    self.steps = steps
    self.norms = norms
    stateCount = state
    var runs: [(steps: Range<Int>, norm: Int?)] = []
    var start = 0
    for (s, step) in steps.enumerated() {
      guard case .batchNorm(let norm, _, _) = step.op else { continue }
      runs.append((start..<s, norm))
      start = s + 1
    }
    runs.append((start..<steps.count, nil))
    self.runs = runs
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
      case .pointwise(_, _, _, let out, _, _):
        forwardScratch = max(forwardScratch, Kernels.gemmInPlaceScratchCount(m: out))
      case .paddedConv(_, _, let inChannels, let out, let g, _):
        let count = inChannels * g.kernel * g.kernel * g.outArea
        cols += count
        largestCol = max(largestCol, count)
        forwardScratch = max(forwardScratch, Kernels.gemmInPlaceScratchCount(m: out))
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
    /// The network's layer this item is or lies in.
    var index: Int
    var startsBlock = false
    var inShape: [Int]
    var outShape: [Int]
  }

  /// The layers in running order, each residual block as start, its layers, end.
  static func flatten(_ layers: [any Layer], shapes: [[Int]]) -> [FlatItem] {
    var items: [FlatItem] = []
    func add(_ layer: any Layer, _ shape: [Int], _ index: Int) -> [Int] {
      if let block = layer as? Residual {
        items.append(
          FlatItem(layer: nil, index: index, startsBlock: true, inShape: shape, outShape: shape))
        var inner = shape
        for l in block.body { inner = add(l, inner, index) }
        items.append(
          FlatItem(layer: nil, index: index, startsBlock: false, inShape: inner, outShape: shape))
        return shape
      }
      // The shapes were checked when the network was built.
      let out = (try? layer.outputShape(for: shape)) ?? shape
      items.append(FlatItem(layer: layer, index: index, inShape: shape, outShape: out))
      return out
    }
    for (l, layer) in layers.enumerated() { _ = add(layer, shapes[l], l) }
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
