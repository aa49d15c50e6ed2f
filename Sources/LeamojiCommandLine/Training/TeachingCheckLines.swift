import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// `train --init … --test DIR`'s before/after lines: each label's recall and the benign test
/// images called scary, for the `--init` model and the taught one, each labelling as `analyze`
/// does at its card's threshold.
func checkLines(_ check: TeachingCheck, labels: [Label]) -> [String] {
  func rule(_ threshold: Double?) -> String {
    threshold.map { "scary from p ≥ \(CFormat.string("%.2f", $0))" } ?? "the most probable label"
  }
  var lines = [
    "Before and after teaching, on the \(check.images) test images, as analyze labels them "
      + "(before: \(rule(check.before.threshold)); after: \(rule(check.after.threshold))):"
  ]
  for (i, label) in labels.enumerated() {
    let images = check.after.matrix.counts[i].reduce(0, +)
    let before = check.before.matrix.recall(i).map(percent) ?? "n/a"
    let after = check.after.matrix.recall(i).map(percent) ?? "n/a"
    lines.append(
      "  \(label.emoji) \(label.name) recall: \(before) → \(after) (\(images) images)")
  }
  func benign(_ figures: TeachingCheck.Figures) -> String {
    (figures.benignScaryShare.map(percent) ?? "n/a")
      + " (\(figures.benignCalledScary) of \(figures.benign))"
  }
  lines.append("  benign called scary: \(benign(check.before)) → \(benign(check.after))")
  return lines
}

/// The before/after figures in `train --json`'s final object.
struct CheckSummary: Encodable {
  struct Side: Encodable {
    let scaryThreshold: Double?
    let recall: [String: Double?]
    let benign: Int
    let benignCalledScary: Int

    enum CodingKeys: String, CodingKey {
      case recall, benign
      case scaryThreshold = "scary_threshold"
      case benignCalledScary = "benign_called_scary"
    }

    init(_ figures: TeachingCheck.Figures) {
      scaryThreshold = figures.threshold
      let matrix = figures.matrix
      recall = Dictionary(
        uniqueKeysWithValues: matrix.labels.indices.map { (matrix.labels[$0], matrix.recall($0)) })
      benign = figures.benign
      benignCalledScary = figures.benignCalledScary
    }
  }

  let images: Int
  let before: Side
  let after: Side

  init(_ check: TeachingCheck) {
    images = check.images
    before = Side(check.before)
    after = Side(check.after)
  }
}
