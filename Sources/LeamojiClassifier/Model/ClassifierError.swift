import LeamojiCore
import LeamojiNN

/// Why a classifier cannot be built, or cannot classify or train on what it was given. (A model
/// file's problems are `ModelFileError`s.)
public enum ClassifierError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An image is not the classifier's input size (decode or resize it to `inputSize` first).
  case imageSize(found: PixelSize, expected: PixelSize)
  /// The labels are not one unique, non-empty name per network output.
  case badLabels(reason: String)
  /// The input normalisation is unusable.
  case badNormalisation(reason: String)
  /// The network does not take RGB images (`[3, height, width]`).
  case notAnImageNetwork(inputShape: [Int])
  /// The network refused its input or parameters (a description of what did not fit).
  case network(NNError)
  /// Fine-tuning cannot start from this model as asked (`train --init`, `--freeze`).
  case cannotFineTune(reason: String)
  /// Two expert heads and a gate cannot make one model (`train --experts`).
  case cannotCombine(reason: String)

  public var description: String {
    switch self {
    case .imageSize(let found, let expected):
      return "image is \(found), the classifier takes \(expected)"
    case .badLabels(let reason): return "bad labels: \(reason)"
    case .badNormalisation(let reason): return "bad input normalisation: \(reason)"
    case .notAnImageNetwork(let shape):
      return "the network takes \(shape), not RGB images [3, height, width]"
    case .network(let error): return error.description
    case .cannotFineTune(let reason): return "cannot fine-tune: \(reason)"
    case .cannotCombine(let reason): return "cannot combine the experts: \(reason)"
    }
  }
}
