import LeamojiCore

/// Dropout (PyTorch's `Dropout`): the identity as a `Layer` (inference); in training (the
/// engine's dropout step) each element is zeroed with probability `p` and the others
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
  /// `1 / (1 − p)` (`apply` to ones).
  public func mask(count: Int, seed: UInt64) -> Tensor {
    var m = Tensor(shape: [count], repeating: 1)
    m.data.withUnsafeMutableBufferPointer {
      Dropout.apply(p: p, seed: seed, $0.baseAddress!, $0.baseAddress!, count)
    }
    return m
  }

  /// `y = x · mask` in training, for the forward pass (`x` the input) and the backward pass
  /// (`x` the output gradient) alike: element `i` is dropped when the `i`-th draw of
  /// `SplitMix64(seed:)` (as a unit double) is below `p`, else multiplied by `1 / (1 − p)`.
  static func apply(
    p: Double, seed: UInt64, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>,
    _ count: Int
  ) {
    var rng = SplitMix64(seed: seed)
    let keep = Float(1 / (1 - p))
    for i in 0..<count { y[i] = x[i] * (rng.nextUnitDouble() < p ? 0 : keep) }
  }

  /// The mask seed of sample `sample` in the network's layer `layer` for a step's `seed`.
  static func seed(_ seed: UInt64, layer: Int, sample: Int) -> UInt64 {
    var mix = SplitMix64(seed: seed ^ (UInt64(layer) &* 0x9E37_79B9_7F4A_7C15))
    return mix.next() ^ (UInt64(sample) &* 0xD1B5_4A32_D192_ED03)
  }
}
