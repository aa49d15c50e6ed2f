import FoundationEssentials
import LeamojiCore

/// Updates parameters from their gradients. Kept apart from the layers, which only know how to
/// compute gradients; the optimizer owns any per-parameter state (momentum, Adam moments).
public protocol Optimizer: Sendable {
  /// The step size; training loops may change it between steps (schedules).
  var learningRate: Float { get set }

  /// One update of `parameters` (in network order) given gradients of the same shapes.
  mutating func update(_ parameters: inout [Tensor], gradients: [Tensor])

  /// One update of parameters held in one flat buffer (network order), given the gradients in
  /// a buffer of the same layout; `segments` says where each tensor lies (only the listed
  /// ones change). Training loops use this to step without allocating (`TrainingSession`);
  /// the built-in optimisers compute exactly what `update(_:gradients:)` does.
  mutating func update(
    flat parameters: UnsafeMutablePointer<Float>, gradients: UnsafePointer<Float>,
    segments: UnsafeBufferPointer<ParameterSegment>)
}

/// Where one parameter tensor lies in a flat parameter buffer, and whether it is a weight
/// (rank ≥ 2: weight decay applies) or a bias.
public struct ParameterSegment: Equatable, Sendable {
  /// First float of the tensor in the flat buffer.
  public var offset: Int
  /// Floats in the tensor.
  public var count: Int
  /// True for weights (rank ≥ 2), false for biases.
  public var isWeight: Bool
  public init(offset: Int, count: Int, isWeight: Bool) {
    self.offset = offset
    self.count = count
    self.isWeight = isWeight
  }

  /// The segments of `tensors` laid end to end in order.
  public static func layout(of tensors: [Tensor]) -> [ParameterSegment] {
    var offset = 0
    return tensors.map { t in
      defer { offset += t.count }
      return ParameterSegment(offset: offset, count: t.count, isWeight: t.rank >= 2)
    }
  }
}

extension Optimizer {
  /// The fallback for optimisers without a flat path: copies into tensors and back (allocates).
  public mutating func update(
    flat parameters: UnsafeMutablePointer<Float>, gradients: UnsafePointer<Float>,
    segments: UnsafeBufferPointer<ParameterSegment>
  ) {
    var p = segments.map { s in
      Tensor(
        shape: s.isWeight ? [1, s.count] : [s.count],
        data: Array(UnsafeBufferPointer(start: parameters + s.offset, count: s.count)))
    }
    let g = segments.map { s in
      Tensor(
        shape: s.isWeight ? [1, s.count] : [s.count],
        data: Array(UnsafeBufferPointer(start: gradients + s.offset, count: s.count)))
    }
    update(&p, gradients: g)
    for (s, t) in zip(segments, p) {
      t.data.withUnsafeBufferPointer {
        (parameters + s.offset).update(from: $0.baseAddress!, count: s.count)
      }
    }
  }
}

/// Runs `body(segment, parameters, gradients)` for each tensor of `parameters` (network
/// order) on its place in the flat buffers, copying the results back.
private func forEachSegment(
  _ parameters: inout [Tensor], gradients: [Tensor], stateCount: Int,
  _ body: (ParameterSegment, UnsafeMutablePointer<Float>, UnsafePointer<Float>) -> Void
) {
  precondition(parameters.count == gradients.count, "one gradient per parameter")
  var offset = 0
  for t in 0..<parameters.count {
    precondition(parameters[t].shape == gradients[t].shape, "gradient shape")
    let segment = ParameterSegment(
      offset: offset, count: parameters[t].count, isWeight: parameters[t].rank >= 2)
    precondition(offset + segment.count <= stateCount, "optimizer used with another network")
    gradients[t].data.withUnsafeBufferPointer { g in
      parameters[t].data.withUnsafeMutableBufferPointer { p in
        body(segment, p.baseAddress!, g.baseAddress!)
      }
    }
    offset += segment.count
  }
  precondition(offset == stateCount, "optimizer used with another network")
}

/// Stochastic gradient descent with (heavy-ball) momentum and optional L2 weight decay:
/// `v = μ·v + (g + λ·p)`, `p -= lr · v`. Weight decay applies to weights (rank ≥ 2), not biases.
/// With an `anchor`, the penalty `pull/2 · ‖p − anchor‖²` on every parameter (weights and
/// biases) adds `pull · (p − anchor)` to the gradient: it holds the network near the weights it
/// started from ("L2-SP", Li et al. 2018). Plain gradient descent, unlike Adam, moves each
/// parameter in proportion to its gradient, so the penalty really bounds how far the network
/// goes (Adam's steps are about the learning rate in every coordinate, whatever the penalty).
public struct SGD: Optimizer {
  public var learningRate: Float
  /// Velocity decay μ (0 = plain SGD).
  public var momentum: Float
  /// L2 coefficient λ added to weight gradients.
  public var weightDecay: Float
  /// One velocity per parameter, flat in network order (sized at the first update).
  private var velocity: [Float] = []
  /// The starting point `pull` holds parameters near: one value per parameter, flat in the
  /// layout the optimiser updates (the whole network's when nothing is frozen).
  public var anchor: [Float]?
  /// The coefficient of the penalty toward `anchor` (0: none).
  public var pull: Float = 0

  public init(learningRate: Float = 0.01, momentum: Float = 0.9, weightDecay: Float = 0) {
    self.learningRate = learningRate
    self.momentum = momentum
    self.weightDecay = weightDecay
  }

  public mutating func update(_ parameters: inout [Tensor], gradients: [Tensor]) {
    if velocity.isEmpty {
      velocity = [Float](repeating: 0, count: parameters.reduce(0) { $0 + $1.count })
    }
    let count = velocity.count
    let (lr, mu, wd) = (learningRate, momentum, weightDecay)
    let pull = anchor == nil ? 0 : self.pull
    precondition(pull == 0 || anchor!.count == count, "anchor sized for another network")
    let a = anchor ?? []
    velocity.withUnsafeMutableBufferPointer { v in
      a.withUnsafeBufferPointer { ab in
        forEachSegment(&parameters, gradients: gradients, stateCount: count) { s, p, g in
          SGD.step(
            count: s.count, p: p, g: g, v: v.baseAddress! + s.offset, lr: lr, mu: mu,
            decay: s.isWeight ? wd : 0,
            anchor: pull == 0 ? nil : ab.baseAddress! + s.offset, pull: pull)
        }
      }
    }
  }

  public mutating func update(
    flat parameters: UnsafeMutablePointer<Float>, gradients: UnsafePointer<Float>,
    segments: UnsafeBufferPointer<ParameterSegment>
  ) {
    let needed = segments.reduce(0) { max($0, $1.offset + $1.count) }
    if velocity.isEmpty { velocity = [Float](repeating: 0, count: needed) }
    precondition(velocity.count >= needed, "optimizer used with another network")
    let (lr, mu, wd) = (learningRate, momentum, weightDecay)
    let pull = anchor == nil ? 0 : self.pull
    precondition(pull == 0 || anchor!.count >= needed, "anchor sized for another network")
    let a = anchor ?? []
    velocity.withUnsafeMutableBufferPointer { v in
      a.withUnsafeBufferPointer { ab in
        for s in segments {
          SGD.step(
            count: s.count, p: parameters + s.offset, g: gradients + s.offset,
            v: v.baseAddress! + s.offset, lr: lr, mu: mu, decay: s.isWeight ? wd : 0,
            anchor: pull == 0 ? nil : ab.baseAddress! + s.offset, pull: pull)
        }
      }
    }
  }

  /// One momentum step of `count` parameters, eight lanes at a time (lanes compute exactly the
  /// scalar tail's expressions); with `anchor`, `pull · (p − anchor)` joins the gradient.
  private static func step(
    count: Int, p pp: UnsafeMutablePointer<Float>, g gp: UnsafePointer<Float>,
    v vp: UnsafeMutablePointer<Float>, lr: Float, mu: Float, decay: Float,
    anchor ap: UnsafePointer<Float>? = nil, pull: Float = 0
  ) {
    var i = 0
    while i + 8 <= count {
      var gi = load8(gp + i) + decay * load8(pp + i)
      if let ap { gi += pull * (load8(pp + i) - load8(ap + i)) }
      let vi = mu * load8(vp + i) + gi
      store8(vi, vp + i)
      store8(load8(pp + i) - lr * vi, pp + i)
      i += 8
    }
    while i < count {
      var gi = gp[i] + decay * pp[i]
      if let ap { gi += pull * (pp[i] - ap[i]) }
      vp[i] = mu * vp[i] + gi
      pp[i] -= lr * vp[i]
      i += 1
    }
  }
}

/// Adam with decoupled weight decay (AdamW, Loshchilov & Hutter), as PyTorch's `AdamW`:
/// `p -= lr·λ·p`, then the Adam step `p -= lr · m̂ / (√v̂ + ε)`.
/// Weight decay applies to weights (rank ≥ 2), not biases; so does the optional L2 penalty,
/// which is part of the loss (`penalty/2 · ‖w‖²`, so `g += penalty · w` before the moments):
/// unlike the decoupled decay, Adam's scaling does not undo it, so it really keeps a head with
/// few examples small.
public struct AdamW: Optimizer {
  public var learningRate: Float
  /// Decay of the first-moment (mean) estimate.
  public var beta1: Float
  /// Decay of the second-moment (uncentred variance) estimate.
  public var beta2: Float
  /// Added to √v̂ to avoid division by zero.
  public var epsilon: Float
  /// Decoupled decay λ: each step shrinks weights by `lr·λ`.
  public var weightDecay: Float
  /// The L2 penalty's coefficient on weights (0: none, the update is then exactly AdamW's).
  public var l2: Float
  /// Updates done so far (drives the bias correction).
  public private(set) var step = 0
  /// The moments, flat in network order (sized at the first update).
  private var m: [Float] = []
  private var v: [Float] = []

  public init(
    learningRate: Float = 1e-3, beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8,
    weightDecay: Float = 1e-4, l2: Float = 0
  ) {
    self.learningRate = learningRate
    self.beta1 = beta1
    self.beta2 = beta2
    self.epsilon = epsilon
    self.weightDecay = weightDecay
    self.l2 = l2
  }

  public mutating func update(_ parameters: inout [Tensor], gradients: [Tensor]) {
    if m.isEmpty {
      m = [Float](repeating: 0, count: parameters.reduce(0) { $0 + $1.count })
      v = m
    }
    let k = nextConstants()
    let count = m.count
    m.withUnsafeMutableBufferPointer { mb in
      v.withUnsafeMutableBufferPointer { vb in
        forEachSegment(&parameters, gradients: gradients, stateCount: count) { s, p, g in
          AdamW.step(
            count: s.count, p: p, g: g, m: mb.baseAddress! + s.offset,
            v: vb.baseAddress! + s.offset,
            constants: k, decay: s.isWeight ? k.lr * weightDecay : 0,
            penalty: s.isWeight ? l2 : 0)
        }
      }
    }
  }

  public mutating func update(
    flat parameters: UnsafeMutablePointer<Float>, gradients: UnsafePointer<Float>,
    segments: UnsafeBufferPointer<ParameterSegment>
  ) {
    let needed = segments.reduce(0) { max($0, $1.offset + $1.count) }
    if m.isEmpty {
      m = [Float](repeating: 0, count: needed)
      v = m
    }
    precondition(m.count >= needed, "optimizer used with another network")
    let k = nextConstants()
    let wd = weightDecay
    let penalty = l2
    m.withUnsafeMutableBufferPointer { mb in
      v.withUnsafeMutableBufferPointer { vb in
        for s in segments {
          AdamW.step(
            count: s.count, p: parameters + s.offset, g: gradients + s.offset,
            m: mb.baseAddress! + s.offset, v: vb.baseAddress! + s.offset, constants: k,
            decay: s.isWeight ? k.lr * wd : 0, penalty: s.isWeight ? penalty : 0)
        }
      }
    }
  }

  /// Counts the step and returns its constants; the bias corrections `1 - βᵗ` use
  /// `PortableMath.power` (exact repeated squaring), not the platform's `pow`.
  private mutating func nextConstants() -> AdamConstants {
    step += 1
    return AdamConstants(
      lr: learningRate, b1: beta1, b2: beta2, eps: epsilon,
      c1: Float(1 - PortableMath.power(Double(beta1), step)),
      c2: Float(1 - PortableMath.power(Double(beta2), step)))
  }
}

/// The per-step constants of an AdamW update.
private struct AdamConstants {
  var lr: Float
  var b1: Float
  var b2: Float
  var eps: Float
  var c1: Float
  var c2: Float
}

extension AdamW {
  /// One AdamW update of `count` parameters, eight lanes at a time; the lanes compute exactly
  /// the scalar expressions of the tail, so the result does not depend on where a tensor ends.
  /// `penalty` adds the L2 term's gradient; at 0 the gradient is used as it is.
  fileprivate static func step(
    count: Int, p: UnsafeMutablePointer<Float>, g: UnsafePointer<Float>,
    m: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>,
    constants k: AdamConstants, decay: Float, penalty: Float
  ) {
    var i = 0
    while i + 8 <= count {
      var pi = load8(p + i)
      let gi = penalty == 0 ? load8(g + i) : load8(g + i) + penalty * pi
      pi -= decay * pi
      let mi = k.b1 * load8(m + i) + (1 - k.b1) * gi
      let vi = k.b2 * load8(v + i) + (1 - k.b2) * gi * gi
      let mHat = mi / k.c1
      let vHat = vi / k.c2
      pi -= k.lr * mHat / (vHat.squareRoot() + k.eps)
      store8(mi, m + i)
      store8(vi, v + i)
      store8(pi, p + i)
      i += 8
    }
    while i < count {
      let gi = penalty == 0 ? g[i] : g[i] + penalty * p[i]
      p[i] -= decay * p[i]
      m[i] = k.b1 * m[i] + (1 - k.b1) * gi
      v[i] = k.b2 * v[i] + (1 - k.b2) * gi * gi
      let mHat = m[i] / k.c1
      let vHat = v[i] / k.c2
      p[i] -= k.lr * mHat / (vHat.squareRoot() + k.eps)
      i += 1
    }
  }
}

@inline(__always)
private func load8(_ p: UnsafePointer<Float>) -> SIMD8<Float> {
  UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Float>.self)
}

@inline(__always)
private func store8(_ v: SIMD8<Float>, _ p: UnsafeMutablePointer<Float>) {
  UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD8<Float>.self)
}
