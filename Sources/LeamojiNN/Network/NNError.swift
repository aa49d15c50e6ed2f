/// Errors from building or running a network with inputs that do not fit it.
///
/// These come from values a caller passes in (layer lists, batches, class indices), so they are
/// thrown rather than trapping.
public enum NNError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A layer description is unusable (bad numbers, unknown type, duplicate name...).
  case invalidLayer(index: Int, reason: String)
  /// The layer list does not produce a valid output for the input shape.
  case shapeMismatch(layer: Int, reason: String)
  /// The network does not end in a vector of class scores.
  case invalidOutput(shape: [Int])
  /// A network input shape that is empty, has a non-positive dimension or is too large.
  case invalidInputShape(shape: [Int], reason: String)
  /// A batch does not have shape `[batch] + inputShape`.
  case badInput(expected: [Int], found: [Int])
  /// The label list is not one label per sample, or a label is not a valid class index.
  case badLabels(reason: String)
  /// Parameters handed to a network do not match its own (count, name or shape).
  case parameterMismatch(reason: String)

  public var description: String {
    switch self {
    case .invalidLayer(let i, let r): return "layer \(i): \(r)"
    case .shapeMismatch(let i, let r): return "layer \(i): \(r)"
    case .invalidOutput(let s): return "the network output has shape \(s); expected [classes]"
    case .invalidInputShape(let s, let r): return "input shape \(s) is invalid: \(r)"
    case .badInput(let e, let f): return "input batch has shape \(f); expected [batch] + \(e)"
    case .badLabels(let r): return "bad labels: \(r)"
    case .parameterMismatch(let r): return "parameters do not match the network: \(r)"
    }
  }
}
