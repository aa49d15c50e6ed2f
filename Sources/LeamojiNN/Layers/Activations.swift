/// Rectified linear unit: `max(x, 0)` element-wise, any shape.
public struct ReLU: Layer {
  public init() {}
  public var spec: LayerSpec { .relu }
  public var parameters: [Tensor] {
    get { [] }
    set { precondition(newValue.isEmpty, "ReLU has no parameters") }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] { s }

  public func forward(_ input: Tensor) -> Tensor {
    var y = Tensor(shape: input.shape)
    input.data.withUnsafeBufferPointer { x in
      y.data.withUnsafeMutableBufferPointer { o in
        Kernels.relu(x.baseAddress!, o.baseAddress!, o.count)
      }
    }
    return y
  }

  // ∂x = ∂y where the output is positive, else 0 (the subgradient 0 at x = 0).
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    guard needsInputGradient else { return nil }
    var dx = Tensor(shape: output.shape)
    output.data.withUnsafeBufferPointer { y in
      outputGradient.data.withUnsafeBufferPointer { dy in
        dx.data.withUnsafeMutableBufferPointer { d in
          Kernels.reluBackward(y.baseAddress!, dy.baseAddress!, d.baseAddress!, d.count)
        }
      }
    }
    return dx
  }
}

/// Flattens one sample of any shape into a vector (row-major), e.g. before a linear layer.
public struct Flatten: Layer {
  public init() {}
  public var spec: LayerSpec { .flatten }
  public var parameters: [Tensor] {
    get { [] }
    set { precondition(newValue.isEmpty, "Flatten has no parameters") }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard let n = Tensor.checkedElementCount(s) else {
      throw LayerShapeError("flatten: shape \(s) too large")
    }
    return [n]
  }

  public func forward(_ input: Tensor) -> Tensor { input.reshaped([input.count]) }

  // The gradient is the output gradient seen with the input's shape.
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    needsInputGradient ? outputGradient.reshaped(input.shape) : nil
  }
}
