import Foundation

/// Updates parameters from their gradients. Kept apart from the layers, which only know how to
/// compute gradients; the optimizer owns any per-parameter state (momentum, Adam moments).
public protocol Optimizer: Sendable {
  /// The step size; training loops may change it between steps (schedules).
  var learningRate: Float { get set }

  /// One update of `parameters` (in network order) given gradients of the same shapes.
  mutating func update(_ parameters: inout [Tensor], gradients: [Tensor])
}

/// Stochastic gradient descent with (heavy-ball) momentum and optional L2 weight decay:
/// `v = μ·v + (g + λ·p)`, `p -= lr · v`. Weight decay applies to weights (rank ≥ 2), not biases.
public struct SGD: Optimizer {
  public var learningRate: Float
  /// Velocity decay μ (0 = plain SGD).
  public var momentum: Float
  /// L2 coefficient λ added to weight gradients.
  public var weightDecay: Float
  private var velocity: [Tensor] = []

  public init(learningRate: Float = 0.01, momentum: Float = 0.9, weightDecay: Float = 0) {
    self.learningRate = learningRate
    self.momentum = momentum
    self.weightDecay = weightDecay
  }

  public mutating func update(_ parameters: inout [Tensor], gradients: [Tensor]) {
    precondition(parameters.count == gradients.count, "one gradient per parameter")
    if velocity.isEmpty { velocity = parameters.map { Tensor(shape: $0.shape) } }
    precondition(velocity.count == parameters.count, "optimizer used with another network")
    for t in 0..<parameters.count {
      precondition(
        parameters[t].shape == gradients[t].shape && velocity[t].shape == parameters[t].shape)
      let decay = parameters[t].rank >= 2 ? weightDecay : 0
      let (lr, mu) = (learningRate, momentum)
      gradients[t].data.withUnsafeBufferPointer { g in
        parameters[t].data.withUnsafeMutableBufferPointer { p in
          velocity[t].data.withUnsafeMutableBufferPointer { v in
            var i = 0
            let (pp, gp, vp) = (p.baseAddress!, g.baseAddress!, v.baseAddress!)
            while i + 8 <= p.count {
              let vi = mu * load8(vp + i) + (load8(gp + i) + decay * load8(pp + i))
              store8(vi, vp + i)
              store8(load8(pp + i) - lr * vi, pp + i)
              i += 8
            }
            while i < p.count {
              v[i] = mu * v[i] + (g[i] + decay * p[i])
              p[i] -= lr * v[i]
              i += 1
            }
          }
        }
      }
    }
  }
}

/// Adam with decoupled weight decay (AdamW, Loshchilov & Hutter), as PyTorch's `AdamW`:
/// `p -= lr·λ·p`, then the Adam step `p -= lr · m̂ / (√v̂ + ε)`.
/// Weight decay applies to weights (rank ≥ 2), not biases.
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
  /// Updates done so far (drives the bias correction).
  public private(set) var step = 0
  private var m: [Tensor] = []
  private var v: [Tensor] = []

  public init(
    learningRate: Float = 1e-3, beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8,
    weightDecay: Float = 1e-4
  ) {
    self.learningRate = learningRate
    self.beta1 = beta1
    self.beta2 = beta2
    self.epsilon = epsilon
    self.weightDecay = weightDecay
  }

  public mutating func update(_ parameters: inout [Tensor], gradients: [Tensor]) {
    precondition(parameters.count == gradients.count, "one gradient per parameter")
    if m.isEmpty {
      m = parameters.map { Tensor(shape: $0.shape) }
      v = m
    }
    precondition(m.count == parameters.count, "optimizer used with another network")
    step += 1
    let c1 = Float(1 - pow(Double(beta1), Double(step)))
    let c2 = Float(1 - pow(Double(beta2), Double(step)))
    let (lr, b1, b2, eps) = (learningRate, beta1, beta2, epsilon)
    for t in 0..<parameters.count {
      precondition(parameters[t].shape == gradients[t].shape && m[t].shape == parameters[t].shape)
      let decay = parameters[t].rank >= 2 ? lr * weightDecay : 0
      gradients[t].data.withUnsafeBufferPointer { g in
        parameters[t].data.withUnsafeMutableBufferPointer { p in
          m[t].data.withUnsafeMutableBufferPointer { mt in
            v[t].data.withUnsafeMutableBufferPointer { vt in
              AdamW.step(
                count: p.count, p: p.baseAddress!, g: g.baseAddress!, m: mt.baseAddress!,
                v: vt.baseAddress!,
                constants: (decay: decay, lr: lr, b1: b1, b2: b2, eps: eps, c1: c1, c2: c2))
            }
          }
        }
      }
    }
  }
}

extension AdamW {
  /// One AdamW update of `count` parameters, eight lanes at a time; the lanes compute exactly
  /// the scalar expressions of the tail, so the result does not depend on where a tensor ends.
  fileprivate static func step(
    count: Int, p: UnsafeMutablePointer<Float>, g: UnsafePointer<Float>,
    m: UnsafeMutablePointer<Float>, v: UnsafeMutablePointer<Float>,
    constants k: (decay: Float, lr: Float, b1: Float, b2: Float, eps: Float, c1: Float, c2: Float)
  ) {
    var i = 0
    while i + 8 <= count {
      var pi = load8(p + i)
      let gi = load8(g + i)
      pi -= k.decay * pi
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
      p[i] -= k.decay * p[i]
      m[i] = k.b1 * m[i] + (1 - k.b1) * g[i]
      v[i] = k.b2 * v[i] + (1 - k.b2) * g[i] * g[i]
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
