import LeamojiCore

/// Dropout (PyTorch's `Dropout`): the identity as a `Layer` (inference); in training
/// (`Network.batchGradients`) each element is zeroed with probability `p` and the others
/// multiplied by `1 / (1 − p)`, with masks drawn from a seed so training stays reproducible.
public struct Dropout: Layer {
  /// Probability of zeroing an element in training, in [0, 1).
  public let p: Double

  public init(p: Double) { self.p = p }

  public var spec: LayerSpec { .dropout(p: p) }
  public var parameters: [Tensor] {
    get { [] }
    set { precondition(newValue.isEmpty, "Dropout has no parameters") }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] { s }

  public func forward(_ input: Tensor) -> Tensor { input }

  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    needsInputGradient ? outputGradient : nil
  }

  /// The training mask for one sample of `count` elements: 0 for a dropped element, else
  /// `1 / (1 − p)`. Element `i` is dropped when the `i`-th draw of `SplitMix64(seed:)` (as a
  /// unit double) is below `p`.
  public func mask(count: Int, seed: UInt64) -> Tensor {
    var rng = SplitMix64(seed: seed)
    let keep = Float(1 / (1 - p))
    var m = Tensor(shape: [count])
    for i in 0..<count { m.data[i] = rng.nextUnitDouble() < p ? 0 : keep }
    return m
  }
}
