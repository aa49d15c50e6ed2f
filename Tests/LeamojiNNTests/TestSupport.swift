import Foundation
import LeamojiCore
import LeamojiNN
import Testing

/// Helpers shared by the LeamojiNN tests.
enum TestSupport {
  /// A tensor of uniform values in `range`, reproducible from `seed`.
  static func random(_ shape: [Int], seed: UInt64, range: ClosedRange<Float> = -1...1) -> Tensor {
    var rng = SplitMix64(seed: seed)
    var t = Tensor(shape: shape)
    for i in 0..<t.count {
      t.data[i] =
        range.lowerBound + Float(rng.nextUnitDouble()) * (range.upperBound - range.lowerBound)
    }
    return t
  }

  /// `Σ r·y` in Double: a scalar "loss" whose gradient with respect to `y` is `r`.
  static func dot(_ a: Tensor, _ b: Tensor) -> Double {
    zip(a.data, b.data).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
  }

  /// Central finite differences of `f` with respect to each element of `x`.
  static func numericGradient(of x: Tensor, eps: Float, _ f: (Tensor) -> Double) -> Tensor {
    var g = Tensor(shape: x.shape)
    for i in 0..<x.count {
      var plus = x
      var minus = x
      plus.data[i] += eps
      minus.data[i] -= eps
      // Use the step actually taken after float rounding.
      let h = Double(plus.data[i]) - Double(minus.data[i])
      g.data[i] = Float((f(plus) - f(minus)) / h)
    }
    return g
  }

  /// The largest violation of `|a - b| <= abs + rel * max(|a|, |b|)` (≤ 0 when all elements pass).
  static func worstError(_ a: Tensor, _ b: Tensor, rel: Float = 1e-3, abs: Float = 1e-4) -> Float {
    precondition(a.shape == b.shape)
    var worst: Float = -.infinity
    for (x, y) in zip(a.data, b.data) {
      worst = max(worst, Swift.abs(x - y) - (abs + rel * max(Swift.abs(x), Swift.abs(y))))
    }
    return a.count == 0 ? 0 : worst
  }

  /// Bit patterns, so `-0` / `0` and NaNs compare exactly.
  static func bits(_ tensors: [Tensor]) -> [[UInt32]] { tensors.map { $0.data.map(\.bitPattern) } }

  /// A small network for 3xSxS input: conv(3→8)-relu-maxpool-conv(8→16)-relu-gap-fc(16→classes).
  static func smallSpecs(classes: Int = 3) -> [LayerSpec] {
    [
      .conv2d(name: "conv1", inChannels: 3, outChannels: 8, kernel: 3, stride: 1, padding: 1),
      .relu, .maxPool2d(kernel: 2, stride: 2),
      .conv2d(name: "conv2", inChannels: 8, outChannels: 16, kernel: 3, stride: 1, padding: 1),
      .relu, .globalAvgPool,
      .linear(name: "fc", inFeatures: 16, outFeatures: classes),
    ]
  }

  /// Checks a network's parameter gradients `analytic` against central differences (step 2e-3)
  /// of `loss`, which is given a copy of the network with one parameter tensor changed.
  static func checkNetworkGradients(
    _ network: Network, _ analytic: [Tensor], rel: Float, abs: Float,
    loss: (Network) -> Double
  ) {
    for p in network.parameters.indices {
      let numeric = numericGradient(of: network.parameters[p], eps: 2e-3) { value in
        var changed = network
        var all = changed.parameters
        all[p] = value
        try! changed.setParameters(all)
        return loss(changed)
      }
      #expect(
        worstError(analytic[p], numeric, rel: rel, abs: abs) <= 0,
        "parameter \(network.parameterNames[p])")
    }
  }

  /// Checks ∂L/∂input and ∂L/∂parameters of `layer` at `x` against central finite differences,
  /// in float32 with a relative tolerance of 1e-3 (plus 1e-4 absolute, `worstError`). The scalar
  /// checked is `L = Σ r ⊙ layer(x)` for a random `r`.
  static func checkGradients(_ layer: some Layer, input x: Tensor, eps: Float, seed: UInt64) {
    let y = layer.forward(x)
    let r = random(y.shape, seed: seed)
    var grads = layer.parameters.map { Tensor(shape: $0.shape) }
    let dx = layer.backward(
      input: x, output: y, outputGradient: r, parameterGradients: &grads,
      needsInputGradient: true)
    let numericDx = numericGradient(of: x, eps: eps) { dot(layer.forward($0), r) }
    #expect(dx != nil)
    if let dx { #expect(worstError(dx, numericDx) <= 0, "input gradient of \(layer.spec)") }

    for p in 0..<layer.parameters.count {
      let numeric = numericGradient(of: layer.parameters[p], eps: eps) { value in
        var changed = layer
        changed.parameters[p] = value
        return dot(changed.forward(x), r)
      }
      #expect(worstError(grads[p], numeric) <= 0, "parameter \(p) of \(layer.spec)")
    }

    // Gradients accumulate: a second backward pass doubles them.
    var twice = grads
    _ = layer.backward(
      input: x, output: y, outputGradient: r, parameterGradients: &twice,
      needsInputGradient: false)
    for p in 0..<grads.count {
      #expect(
        worstError(
          twice[p], Tensor(shape: grads[p].shape, data: grads[p].data.map { 2 * $0 }),
          rel: 1e-5, abs: 1e-6) <= 0)
    }
  }
}
