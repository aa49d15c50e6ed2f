import LeamojiCore
import LeamojiNN

/// `train --init … --test DIR`: the model taught and the model it started from, scored on the
/// same test images as `analyze` labels seconds (a second is scary when its scary probability
/// reaches the card's threshold, else its most probable other label), so that teaching one
/// film shows what it does to the others before the model is used.
public struct TeachingCheck: Equatable, Sendable {
  /// One model's figures on the test images.
  public struct Figures: Equatable, Sendable {
    /// The scary threshold the labels were decided with (nil: the most probable label).
    public let threshold: Double?
    /// Truth × decided label, in the model's label order.
    public let matrix: ConfusionMatrix
    /// Images whose truth is not scary, and those of them decided scary.
    public let benign: Int
    public let benignCalledScary: Int

    /// The share of benign images called scary (nil without benign images).
    public var benignScaryShare: Double? {
      benign == 0 ? nil : Double(benignCalledScary) / Double(benign)
    }
  }

  /// The test images scored.
  public let images: Int
  /// The `--init` model at its own card's threshold, and the taught one at its own.
  public let before: Figures
  public let after: Figures

  /// The figures of probability rows `rows` (label order `labels`) against `truth`.
  static func figures(
    rows: [[Float]], truth: [Int], labels: [String], threshold: Double?
  ) -> Figures {
    var matrix = ConfusionMatrix(labels: labels)
    let scary = labels.firstIndex(of: Label.scary.name)
    var benign = 0
    var called = 0
    for (row, label) in zip(rows, truth) {
      let decided = LabelRule.decide(row, threshold: threshold, scary: scary)
      matrix.add(truth: label, prediction: decided)
      if label != scary {
        benign += 1
        if decided == scary { called += 1 }
      }
    }
    return Figures(
      threshold: threshold, matrix: matrix, benign: benign, benignCalledScary: called)
  }

  /// The probabilities `model` (a backbone ending in global average pooling, then its head:
  /// a linear one, a hidden layer, or two experts and a gate) gives each row of `set`, whose
  /// features are the pooled ones of that backbone: the head alone run on them, as the whole
  /// model would run on the images.
  static func probabilities(of model: Classifier, on set: FeatureSet, threads: Int)
    throws(ClassifierError) -> [[Float]]
  {
    let specs = model.network.specs
    guard let pool = specs.lastIndex(of: .globalAvgPool) else {
      throw .badLabels(reason: "the model has no pooled features to score a head on")
    }
    let head = try HeadTraining.part(
      of: model, specs: Array(specs[(pool + 1)...]), inputShape: [set.width])
    return try HeadTraining.logitRows(of: head, on: set, shape: [set.width], threads: threads)
      .map { SoftmaxCrossEntropy.softmax(Tensor(shape: [$0.count], data: $0)).data }
  }

  /// Scores `before` and `after` (same labels, same backbone) on `set`, each at its card's
  /// scary threshold.
  static func compare(before: Classifier, after: Classifier, on set: FeatureSet, threads: Int)
    throws(ClassifierError) -> TeachingCheck
  {
    let labels = after.labelNames
    let old = try probabilities(of: before, on: set, threads: threads)
    let new = try probabilities(of: after, on: set, threads: threads)
    // The base rows in the taught model's label order.
    let order = labels.map { before.labelNames.firstIndex(of: $0)! }
    return TeachingCheck(
      images: set.count,
      before: figures(
        rows: old.map { row in order.map { row[$0] } }, truth: set.labels, labels: labels,
        threshold: before.card.scaryThreshold),
      after: figures(
        rows: new, truth: set.labels, labels: labels, threshold: after.card.scaryThreshold))
  }
}

/// How the gate of a model of two experts shares pictures out: those the primary expert answers
/// for alone, those between, those the secondary answers for.
public struct GateRouting: Equatable, Sendable {
  public let primary: Int
  public let between: Int
  public let secondary: Int
}
