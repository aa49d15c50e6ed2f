import ArgumentParser
import FoundationEssentials
import LeamojiClassifier
import LeamojiCore

/// What only the model's workshop chooses when training (`leamoji-lab train`): the CNN's shape,
/// the head's hidden layer and fine-tuned layers, two experts joined by a gate, balanced labels,
/// a plain L2 penalty, and the card's check fields (evaluation, scary thresholds). `leamoji
/// train` trains with the defaults, `LabChoices()`.
public struct LabChoices: Sendable, Equatable {
  public var hidden = 0
  public var fineTune = 0
  /// "PRIMARY,SECONDARY": two head model files to join with a gate.
  public var experts: String?
  public var balance = false
  public var inputSize: Int?
  /// Channels of each conv block, comma-separated.
  public var widths: String?
  public var depth: Int?
  public var batchNorm = false
  public var dropout: Double = 0
  public var l2: Float = 0
  public var evaluation: String?
  public var scaryThreshold: Double?
  public var scaryThresholdHigh: Double?
  public var scaryThresholdLow: Double?

  public init() {}

  /// Throws a usage error for a value out of range, or scary thresholds a card cannot hold
  /// together (`ModelCard.thresholdsProblem`); what needs the product's options too is checked
  /// by `TrainingArguments.check`.
  func check() throws {
    if let inputSize, !(inputSize >= 8 && inputSize <= 512 && inputSize % 8 == 0) {
      throw ValidationError(
        "--input-size must be a multiple of 8 from 8 to 512, e.g. 64, 96 or 128 (got \(inputSize))"
      )
    }
    guard hidden >= 0, hidden <= 4096 else { throw ValidationError("--hidden must be 0 to 4096") }
    guard fineTune >= 0, fineTune <= 100 else {
      throw ValidationError("--fine-tune must be 0 to 100")
    }
    guard l2.isFinite, l2 >= 0, l2 <= 1000 else {
      throw ValidationError("--l2 must be 0 to 1000 (got \(l2))")
    }
    if let problem = ModelCard.thresholdsProblem(
      normal: scaryThreshold, high: scaryThresholdHigh, low: scaryThresholdLow)
    {
      throw ValidationError(problem)
    }
  }

  /// The two files `experts` names.
  func expertFiles() throws -> ExpertFiles? {
    guard let experts else { return nil }
    let files = experts.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard files.count == 2, !files[0].isEmpty, !files[1].isEmpty else {
      throw ValidationError("--experts takes two model files: PRIMARY,SECONDARY")
    }
    return ExpertFiles(primary: files[0], secondary: files[1])
  }

  /// The network `widths`, `depth`, `batchNorm` and `dropout` ask for.
  func capacity() throws -> NetworkCapacity {
    var widths = NetworkCapacity().widths
    if let depth {
      guard (1...5).contains(depth) else {
        throw ValidationError("--depth must be 1 to 5 (got \(depth))")
      }
      widths = NetworkCapacity.widths(depth: depth)
    }
    if let text = self.widths {
      let parsed = text.split(separator: ",", omittingEmptySubsequences: false).map {
        Int($0.trimmingWhitespace)
      }
      guard (1...5).contains(parsed.count), parsed.allSatisfy({ ($0 ?? 0) >= 1 && $0! <= 512 })
      else {
        throw ValidationError(
          "--widths takes 1 to 5 comma-separated channel counts from 1 to 512, e.g. 16,32,64 (got '\(text)')"
        )
      }
      if let depth, depth != parsed.count {
        throw ValidationError("--depth \(depth) but --widths gives \(parsed.count) blocks")
      }
      widths = parsed.map { $0! }
    }
    guard dropout.isFinite, dropout >= 0, dropout <= 0.9 else {
      throw ValidationError("--dropout must be 0 to 0.9 (got \(dropout))")
    }
    return NetworkCapacity(widths: widths, batchNorm: batchNorm, dropout: dropout)
  }
}
