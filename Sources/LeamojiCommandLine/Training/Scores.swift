import LeamojiClassifier
import LeamojiCore

/// Per-label precision and recall from a confusion matrix, as `evaluate` and `train` print
/// them: `😀 happy: precision 93.3%, recall 90.0% (30 images)`.
public func perLabelLines(_ matrix: ConfusionMatrix, labels: [Label]) -> [String] {
  labels.enumerated().map { i, label in
    let p = matrix.precision(i).map(percent) ?? "n/a"
    let r = matrix.recall(i).map(percent) ?? "n/a"
    return
      "\(label.emoji) \(label.name): precision \(p), recall \(r) (\(matrix.counts[i].reduce(0, +)) images)"
  }
}

/// Accuracy, confusion counts and per-label precision and recall, for JSON output.
public struct Scores: Encodable {
  public struct PerClass: Encodable {
    let count: Int
    let precision: Double?
    let recall: Double?
  }
  let accuracy: Double
  let count: Int
  let confusion: [[Int]]
  let perClass: [String: PerClass]

  public init(_ matrix: ConfusionMatrix) {
    accuracy = matrix.accuracy
    count = matrix.total
    confusion = matrix.counts
    perClass = Dictionary(
      uniqueKeysWithValues: matrix.labels.indices.map { i in
        (
          matrix.labels[i],
          PerClass(
            count: matrix.counts[i].reduce(0, +), precision: matrix.precision(i),
            recall: matrix.recall(i))
        )
      })
  }
}
