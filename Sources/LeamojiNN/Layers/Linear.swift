import LeamojiCore

/// A fully connected layer on one sample's feature vector: `y = W·x + b`.
public struct Linear: Layer {
  /// Layer name; the parameters are `<name>.weight` and `<name>.bias`.
  public let name: String
  /// Length of the input vector.
  public let inFeatures: Int
  /// Length of the output vector.
  public let outFeatures: Int
  /// Weights, shape `[out, in]` (PyTorch layout).
  public var weight: Tensor
  /// Bias, shape `[out]`.
  public var bias: Tensor

  /// A linear layer with He-normal weights (fan-in `in`) and zero bias.
  public init(name: String, inFeatures: Int, outFeatures: Int, rng: inout SplitMix64) {
    self.init(
      name: name,
      weight: Initializer.heNormal(shape: [outFeatures, inFeatures], fanIn: inFeatures, rng: &rng),
      bias: Tensor(shape: [outFeatures]))
  }

  /// A linear layer with given weights `[out, in]` and bias `[out]`.
  public init(name: String, weight: Tensor, bias: Tensor) {
    precondition(
      weight.rank == 2 && bias.shape == [weight.shape[0]],
      "linear needs weight [out, in], bias [out]")
    self.name = name
    self.outFeatures = weight.shape[0]
    self.inFeatures = weight.shape[1]
    self.weight = weight
    self.bias = bias
  }

  public var spec: LayerSpec {
    .linear(name: name, inFeatures: inFeatures, outFeatures: outFeatures)
  }

  public var parameters: [Tensor] {
    get { [weight, bias] }
    set {
      precondition(
        newValue.count == 2 && newValue[0].shape == weight.shape && newValue[1].shape == bias.shape)
      weight = newValue[0]
      bias = newValue[1]
    }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard s == [inFeatures] else {
      throw LayerShapeError("linear \(name) expects [\(inFeatures)] but gets \(s)")
    }
    return [outFeatures]
  }

  // y[o] = b[o] + Σ_i W[o, i] · x[i]
  public func forward(_ input: Tensor) -> Tensor {
    var y = bias
    weight.data.withUnsafeBufferPointer { w in
      input.data.withUnsafeBufferPointer { x in
        y.data.withUnsafeMutableBufferPointer { out in
          for o in 0..<outFeatures {
            var s = out[o]
            let row = w.baseAddress! + o * inFeatures
            for i in 0..<inFeatures { s += row[i] * x[i] }
            out[o] = s
          }
        }
      }
    }
    return y
  }

  // ∂W[o, i] += ∂y[o] · x[i];  ∂b[o] += ∂y[o];  ∂x[i] = Σ_o W[o, i] · ∂y[o]
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    let dy = outputGradient.data
    input.data.withUnsafeBufferPointer { x in
      parameterGradients[0].data.withUnsafeMutableBufferPointer { dw in
        for o in 0..<outFeatures {
          let row = dw.baseAddress! + o * inFeatures
          for i in 0..<inFeatures { row[i] += dy[o] * x[i] }
        }
      }
    }
    parameterGradients[1].data.withUnsafeMutableBufferPointer { db in
      for o in 0..<outFeatures { db[o] += dy[o] }
    }
    guard needsInputGradient else { return nil }
    var dx = Tensor(shape: [inFeatures])
    weight.data.withUnsafeBufferPointer { w in
      dx.data.withUnsafeMutableBufferPointer { d in
        for o in 0..<outFeatures {
          let row = w.baseAddress! + o * inFeatures
          for i in 0..<inFeatures { d[i] += row[i] * dy[o] }
        }
      }
    }
    return dx
  }
}
