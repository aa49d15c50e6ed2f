import LeamojiCore

/// A feed-forward network: an ordered list of layers applied to one sample of a fixed shape,
/// ending in a vector of class scores (logits).
///
/// It is a value: copying it copies the weights (cheaply, copy-on-write), which is also the
/// simplest "keep the best epoch" snapshot. Parameter order — and therefore gradient and
/// optimizer-state order — is layer order, weight before bias.
public struct Network: Sendable {
  /// One sample's shape, e.g. `[3, 64, 64]` (CHW).
  public let inputShape: [Int]
  /// The layers, first to last.
  public private(set) var layers: [any Layer]
  /// `shapes[i]` is the per-sample input shape of layer `i`; the last entry is the output shape.
  public let shapes: [[Int]]
  /// The compiled batch runner with its reusable buffers (nil for networks with a layer type
  /// it does not know, which run layer by layer). Shared by copies; it holds no weights.
  let engine: Engine?

  /// The threads a batch uses when the caller does not say: all active processors.
  public static var defaultThreads: Int { Parallel.defaultThreads }

  /// The largest parameter count a description may ask for (keeps allocations sane).
  public static let maxParameterCount = 1 << 28

  /// A network built from existing layers.
  /// - Throws: `NNError` when the layers do not chain for `inputShape`, names repeat, or the
  ///   output is not a non-empty vector.
  public init(layers: [any Layer], inputShape: [Int]) throws(NNError) {
    guard !inputShape.isEmpty, inputShape.allSatisfy({ $0 > 0 && $0 <= 1 << 16 }),
      let n = Tensor.checkedElementCount(inputShape), n <= 1 << 28
    else {
      throw .invalidInputShape(
        shape: inputShape, reason: "need 1 to 65536 per dimension, at most 2^28 elements")
    }
    var names = Set<String>()
    var shapes = [inputShape]
    for (i, layer) in layers.enumerated() {
      if let problem = layer.spec.problem { throw .invalidLayer(index: i, reason: problem) }
      for name in layer.spec.allNames where !names.insert(name).inserted {
        throw .invalidLayer(index: i, reason: "duplicate layer name \"\(name)\"")
      }
      do throws(LayerShapeError) {
        let next = try layer.outputShape(for: shapes[i])
        guard let count = Tensor.checkedElementCount(next), count > 0, count <= 1 << 28 else {
          throw LayerShapeError("output shape \(next) is empty or too large")
        }
        shapes.append(next)
      } catch {
        throw .shapeMismatch(layer: i, reason: error.reason)
      }
    }
    guard let out = shapes.last, out.count == 1, out[0] >= 1 else {
      throw .invalidOutput(shape: shapes.last ?? [])
    }
    self.inputShape = inputShape
    self.layers = layers
    self.shapes = shapes
    self.engine = Engine(layers: layers, shapes: shapes)
  }

  /// A freshly initialised network: He-normal weights drawn from one `SplitMix64(seed:)`
  /// stream in layer order, zero biases. The same seed always gives the same weights.
  public init(specs: [LayerSpec], inputShape: [Int], seed: UInt64) throws(NNError) {
    try Network.checkSizes(specs)
    var rng = SplitMix64(seed: seed)
    let layers = specs.map { Network.initialisedLayer($0, rng: &rng) }
    try self.init(layers: layers, inputShape: inputShape)
  }

  /// A layer for `spec` with fresh weights drawn from `rng` (residual blocks: their layers in
  /// order).
  private static func initialisedLayer(_ spec: LayerSpec, rng: inout SplitMix64) -> any Layer {
    switch spec {
    case .conv2d(let name, let i, let o, let k, let s, let p):
      return Conv2D(
        name: name, inChannels: i, outChannels: o, kernel: k, stride: s, padding: p, rng: &rng)
    case .convolution(let name, let i, let o, let k, let s, let p, let g):
      return GroupedConv2D(
        name: name, inChannels: i, outChannels: o, kernel: k, stride: s, padding: p, groups: g,
        rng: &rng)
    case .linear(let name, let i, let o):
      return Linear(name: name, inFeatures: i, outFeatures: o, rng: &rng)
    case .batchNorm2d(let name, let f, let eps, let momentum):
      return BatchNorm2D(name: name, features: f, eps: eps, momentum: momentum)
    case .residual(let inner):
      return Residual(body: inner.map { initialisedLayer($0, rng: &rng) })
    default:
      return Network.parameterFreeLayer(spec)
    }
  }

  /// A network with given weights, keyed by parameter name (`conv1.weight`, `fc.bias`...),
  /// buffers (`bn1.running_mean`...) included.
  /// - Throws: `NNError.parameterMismatch` naming the first missing, extra or misshapen tensor.
  public init(specs: [LayerSpec], inputShape: [Int], parameters: [String: Tensor]) throws(NNError) {
    try Network.checkSizes(specs)
    var used = 0
    var layers: [any Layer] = []
    for spec in specs {
      layers.append(try Network.loadedLayer(spec, parameters: parameters, used: &used))
    }
    if used != parameters.count {
      let known = Set(specs.flatMap { ($0.parameterShapes + $0.bufferShapes).map(\.name) })
      let extra = parameters.keys.sorted().first { !known.contains($0) } ?? "?"
      throw .parameterMismatch(reason: "unexpected tensor \(extra)")
    }
    try self.init(layers: layers, inputShape: inputShape)
  }

  /// A layer for `spec` with its tensors taken from `parameters` by name; `used` counts them.
  private static func loadedLayer(
    _ spec: LayerSpec, parameters: [String: Tensor], used: inout Int
  ) throws(NNError) -> any Layer {
    if case .residual(let inner) = spec {
      var body: [any Layer] = []
      for s in inner { body.append(try loadedLayer(s, parameters: parameters, used: &used)) }
      return Residual(body: body)
    }
    var given: [Tensor] = []
    for (name, shape) in spec.parameterShapes + spec.bufferShapes {
      guard let t = parameters[name] else {
        throw .parameterMismatch(reason: "missing tensor \(name)")
      }
      guard t.shape == shape else {
        throw .parameterMismatch(reason: "\(name) has shape \(t.shape), expected \(shape)")
      }
      given.append(t)
      used += 1
    }
    switch spec {
    case .conv2d(let name, _, _, _, let s, let p):
      return Conv2D(name: name, stride: s, padding: p, weight: given[0], bias: given[1])
    case .convolution(let name, _, _, _, let s, let p, let g):
      return GroupedConv2D(
        name: name, stride: s, padding: p, groups: g, weight: given[0], bias: given[1])
    case .linear(let name, _, _):
      return Linear(name: name, weight: given[0], bias: given[1])
    case .batchNorm2d(let name, _, let eps, let momentum):
      return BatchNorm2D(
        name: name, eps: eps, momentum: momentum, weight: given[0], bias: given[1],
        runningMean: given[2], runningVar: given[3], batchesTracked: given[4])
    default:
      return Network.parameterFreeLayer(spec)
    }
  }

  /// Checks each description and the total parameter count before anything is allocated.
  private static func checkSizes(_ specs: [LayerSpec]) throws(NNError) {
    var total = 0
    for (i, spec) in specs.enumerated() {
      if let problem = spec.problem { throw .invalidLayer(index: i, reason: problem) }
      for (_, shape) in spec.parameterShapes {
        guard let n = Tensor.checkedElementCount(shape), total <= maxParameterCount - n else {
          throw .invalidLayer(index: i, reason: "more than \(maxParameterCount) parameters")
        }
        total += n
      }
    }
  }

  private static func parameterFreeLayer(_ spec: LayerSpec) -> any Layer {
    switch spec {
    case .relu: return ReLU()
    case .maxPool2d(let k, let s): return MaxPool2D(kernel: k, stride: s)
    case .globalAvgPool: return GlobalAvgPool()
    case .flatten: return Flatten()
    case .dropout(let p): return Dropout(p: p)
    case .relu6: return ReLU6()
    case .conv2d, .linear, .batchNorm2d, .convolution, .residual:
      preconditionFailure("layer with parameters")
    }
  }

  /// The layer descriptions, in order (what a model file stores as `layers`).
  public var specs: [LayerSpec] { layers.map(\.spec) }

  /// One sample's output shape, `[classes]`.
  public var outputShape: [Int] { shapes[shapes.count - 1] }

  /// Number of classes (length of the logits vector).
  public var classCount: Int { outputShape[0] }

  /// Parameter names in network order: `conv1.weight`, `conv1.bias`, ..., `fc.bias`.
  public var parameterNames: [String] { layers.flatMap { $0.spec.parameterShapes.map(\.name) } }

  /// The parameters in network order (same order as `parameterNames`).
  public var parameters: [Tensor] { layers.flatMap(\.parameters) }

  /// The parameters keyed by name.
  public var namedParameters: [String: Tensor] {
    Dictionary(uniqueKeysWithValues: zip(parameterNames, parameters))
  }

  /// Buffer names in network order (`bn1.running_mean`, `bn1.running_var`,
  /// `bn1.num_batches_tracked`, ...); empty for networks without batch normalisation.
  public var bufferNames: [String] { layers.flatMap { $0.spec.bufferShapes.map(\.name) } }

  /// The buffers in network order (same order as `bufferNames`).
  public var buffers: [Tensor] { layers.flatMap(\.buffers) }

  /// Parameters and buffers keyed by name: every tensor a model file stores.
  public var namedTensors: [String: Tensor] {
    Dictionary(
      uniqueKeysWithValues: zip(parameterNames + bufferNames, parameters + buffers))
  }

  /// True when one sample's forward pass is itself split over the threads it is given
  /// (MobileNet-style networks): a batch of one then still uses every core.
  public var splitsOneSample: Bool { engine?.mobile ?? false }

  /// True when training runs layer by layer (the layers' own backward passes): a step the
  /// engine runs forward only, or a layer type it does not know.
  var trainsLayerByLayer: Bool { !(engine?.canBackprop ?? false) }

  /// True when a layer behaves differently in training (batch normalisation, dropout).
  public var dependsOnTrainingMode: Bool { layers.contains { $0.spec.dependsOnTrainingMode } }

  /// Replaces every buffer (network order, shapes as `buffers`).
  /// - Throws: `NNError.parameterMismatch` when the count or a shape differs.
  public mutating func setBuffers(_ tensors: [Tensor]) throws(NNError) {
    let current = buffers
    guard tensors.count == current.count,
      zip(tensors, current).allSatisfy({ $0.shape == $1.shape })
    else {
      throw .parameterMismatch(reason: "\(tensors.count) buffers do not fit \(bufferNames)")
    }
    distribute(tensors, into: \.buffers)
  }

  /// Total number of trainable scalars.
  public var parameterCount: Int { parameters.reduce(0) { $0 + $1.count } }

  /// Replaces every parameter (network order).
  /// - Throws: `NNError.parameterMismatch` when the count or a shape differs.
  public mutating func setParameters(_ tensors: [Tensor]) throws(NNError) {
    let current = parameters
    guard tensors.count == current.count else {
      throw .parameterMismatch(reason: "\(tensors.count) tensors for \(current.count) parameters")
    }
    for (i, (new, old)) in zip(tensors, current).enumerated() where new.shape != old.shape {
      throw .parameterMismatch(
        reason: "\(parameterNames[i]) has shape \(new.shape), expected \(old.shape)")
    }
    distribute(tensors, into: \.parameters)
  }

  /// Hands `tensors` (network order, already checked to fit) to the layers, each taking as
  /// many as it holds now in `part` (its parameters or its buffers).
  private mutating func distribute(
    _ tensors: [Tensor], into part: WritableKeyPath<any Layer, [Tensor]>
  ) {
    var next = 0
    for l in layers.indices {
      let n = layers[l][keyPath: part].count
      if n > 0 {
        layers[l][keyPath: part] = Array(tensors[next..<(next + n)])
        next += n
      }
    }
  }

  /// A copy of the current parameters, e.g. to keep the best epoch while training goes on.
  public func snapshot() -> ParameterSnapshot {
    ParameterSnapshot(names: parameterNames, tensors: parameters, buffers: buffers)
  }

  /// Puts back parameters taken with `snapshot()`.
  /// - Throws: `NNError.parameterMismatch` when the snapshot is from another architecture.
  public mutating func restore(_ snapshot: ParameterSnapshot) throws(NNError) {
    guard snapshot.names == parameterNames else {
      throw .parameterMismatch(reason: "snapshot has parameters \(snapshot.names)")
    }
    try setParameters(snapshot.tensors)
    try setBuffers(snapshot.buffers)
  }
}

/// Parameters of a network at one moment, by name, in network order.
public struct ParameterSnapshot: Equatable, Sendable {
  /// Parameter names (`conv1.weight`...), network order.
  public let names: [String]
  /// The values, same order as `names`.
  public let tensors: [Tensor]
  /// The buffers (batch norm running statistics), network order.
  public var buffers: [Tensor] = []
}
