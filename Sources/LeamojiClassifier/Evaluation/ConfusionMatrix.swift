/// Counts of (true label, predicted label) pairs, and the measures derived from them.
public struct ConfusionMatrix: Equatable, Sendable {
  public let labels: [String]
  /// `counts[truth][prediction]`.
  public private(set) var counts: [[Int]]

  public init(labels: [String]) {
    self.labels = labels
    counts = Array(repeating: Array(repeating: 0, count: labels.count), count: labels.count)
  }

  public mutating func add(truth: Int, prediction: Int) {
    counts[truth][prediction] += 1
  }

  public var total: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }

  /// Fraction classified correctly (0 when empty).
  public var accuracy: Double {
    let correct = labels.indices.reduce(0) { $0 + counts[$1][$1] }
    return total == 0 ? 0 : Double(correct) / Double(total)
  }

  /// Of the images predicted as `label`, the fraction that really are (nil when none predicted).
  public func precision(_ label: Int) -> Double? {
    let predicted = labels.indices.reduce(0) { $0 + counts[$1][label] }
    return predicted == 0 ? nil : Double(counts[label][label]) / Double(predicted)
  }

  /// Of the images that are `label`, the fraction predicted as such (nil when there are none).
  public func recall(_ label: Int) -> Double? {
    let actual = counts[label].reduce(0, +)
    return actual == 0 ? nil : Double(counts[label][label]) / Double(actual)
  }

  /// A text table: one row per true label, one column per prediction.
  public func rendered() -> [String] {
    let width = max(8, (labels.map(\.count).max() ?? 0) + 1)
    func pad(_ s: String) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
    var lines = ["true ↓ / predicted →", pad("") + labels.map(pad).joined()]
    for (i, label) in labels.enumerated() {
      lines.append(pad(label) + counts[i].map { pad(String($0)) }.joined())
    }
    return lines
  }
}
