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

  public func forward(_ input: Tensor) -> Tensor {
    var y = Tensor(shape: [outFeatures])
    Linear.forward(
      weight: weight.data, bias: bias.data, input: input.data, output: &y.data,
      inFeatures: inFeatures, outFeatures: outFeatures)
    return y
  }

  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    var dx = Tensor(shape: [needsInputGradient ? inFeatures : 0])
    var (dw, db) = (parameterGradients[0], parameterGradients[1])
    parameterGradients = []  // dw and db are then the only owners: no copy on write
    dx.data.withUnsafeMutableBufferPointer { d in
      Linear.backward(
        weight: weight.data, input: input.data, outputGradient: outputGradient.data,
        dWeight: &dw.data, dBias: &db.data, accumulate: true,
        inputGradient: needsInputGradient ? d.baseAddress! : nil, inFeatures: inFeatures,
        outFeatures: outFeatures)
    }
    parameterGradients = [dw, db]
    return needsInputGradient ? dx : nil
  }

  /// `y[o] = b[o] + Σ_i W[o, i] · x[i]`, summed in index order. (The engine's MobileNet-style
  /// networks use an 8-lane dot product instead.)
  static func forward(
    weight: UnsafePointer<Float>, bias: UnsafePointer<Float>, input: UnsafePointer<Float>,
    output: UnsafeMutablePointer<Float>, inFeatures: Int, outFeatures: Int,
    outputs: Range<Int>? = nil
  ) {
    for o in outputs ?? 0..<outFeatures {
      var sum = bias[o]
      let row = weight + o * inFeatures
      for i in 0..<inFeatures { sum += row[i] * input[i] }
      output[o] = sum
    }
  }

  /// `∂W[o, i] = ∂y[o] · x[i]`, `∂b[o] = ∂y[o]` (added with `accumulate`) and, when
  /// `inputGradient` is given, `∂x[i] = Σ_o W[o, i] · ∂y[o]` there (every element set).
  static func backward(
    weight: UnsafePointer<Float>, input: UnsafePointer<Float>,
    outputGradient dy: UnsafePointer<Float>, dWeight: UnsafeMutablePointer<Float>,
    dBias: UnsafeMutablePointer<Float>, accumulate: Bool,
    inputGradient dx: UnsafeMutablePointer<Float>?, inFeatures: Int, outFeatures: Int
  ) {
    for o in 0..<outFeatures {
      let row = dWeight + o * inFeatures
      if accumulate {
        for i in 0..<inFeatures { row[i] += dy[o] * input[i] }
        dBias[o] += dy[o]
      } else {
        for i in 0..<inFeatures { row[i] = dy[o] * input[i] }
        dBias[o] = dy[o]
      }
    }
    guard let dx else { return }
    dx.update(repeating: 0, count: inFeatures)
    for o in 0..<outFeatures {
      let row = weight + o * inFeatures
      for i in 0..<inFeatures { dx[i] += row[i] * dy[o] }
    }
  }
}
