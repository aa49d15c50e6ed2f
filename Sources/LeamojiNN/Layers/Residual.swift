/// `x + body(x)`: the skip connection of an inverted-residual (MBConv) block. The body's layers
/// keep their own names and parameters; the block's parameters are theirs, in order.
public struct Residual: Layer {
  /// The layers whose output is added to the input.
  public var body: [any Layer]

  /// A block around `body`, which must map a sample's shape to itself (`outputShape` checks).
  public init(body: [any Layer]) { self.body = body }

  public var spec: LayerSpec { .residual(layers: body.map(\.spec)) }

  public var parameters: [Tensor] {
    get { body.flatMap(\.parameters) }
    set {
      var next = 0
      for l in body.indices {
        let n = body[l].parameters.count
        guard n > 0 else { continue }
        body[l].parameters = Array(newValue[next..<(next + n)])
        next += n
      }
      precondition(next == newValue.count, "\(newValue.count) tensors for \(spec)")
    }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    var shape = s
    for (i, layer) in body.enumerated() {
      do throws(LayerShapeError) {
        shape = try layer.outputShape(for: shape)
      } catch {
        throw LayerShapeError("residual layer \(i): \(error.reason)")
      }
    }
    guard shape == s else {
      throw LayerShapeError("a residual block must keep its input shape \(s) but gives \(shape)")
    }
    return s
  }

  /// The body's intermediate outputs: `[x, layer0(x), layer1(layer0(x)), ...]`.
  private func activations(_ input: Tensor) -> [Tensor] {
    var acts = [input]
    for layer in body { acts.append(layer.forward(acts[acts.count - 1])) }
    return acts
  }

  public func forward(_ input: Tensor) -> Tensor {
    var y = activations(input).last!
    Kernels.add(input.data, into: &y.data, y.count)
    return y
  }

  // ∂x = ∂y + body's backward pass of ∂y; the body's intermediates are computed again.
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    let acts = activations(input)
    var starts: [Int] = []
    var next = 0
    for layer in body {
      starts.append(next)
      next += layer.parameters.count
    }
    var grad = outputGradient
    for l in body.indices.reversed() {
      let n = body[l].parameters.count
      var mine = Array(parameterGradients[starts[l]..<(starts[l] + n)])
      let needs = l > 0 || needsInputGradient
      let dx = body[l].backward(
        input: acts[l], output: acts[l + 1], outputGradient: grad, parameterGradients: &mine,
        needsInputGradient: needs)
      for k in 0..<n { parameterGradients[starts[l] + k] = mine[k] }
      guard needs, let dx else { return nil }
      grad = dx
    }
    for i in grad.data.indices { grad.data[i] += outputGradient.data[i] }
    return grad
  }
}
