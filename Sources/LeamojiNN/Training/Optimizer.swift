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
            for i in 0..<p.count {
              v[i] = mu * v[i] + (g[i] + decay * p[i])
              p[i] -= lr * v[i]
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
              for i in 0..<p.count {
                p[i] -= decay * p[i]
                mt[i] = b1 * mt[i] + (1 - b1) * g[i]
                vt[i] = b2 * vt[i] + (1 - b2) * g[i] * g[i]
                let mHat = mt[i] / c1
                let vHat = vt[i] / c2
                p[i] -= lr * mHat / (vHat.squareRoot() + eps)
              }
            }
          }
        }
      }
    }
  }
}
