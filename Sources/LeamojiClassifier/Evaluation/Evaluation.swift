/// Scoring a classifier on labelled images.
public enum Evaluation {
  /// One image's outcome.
  public struct Outcome: Sendable {
    /// The image file.
    public let path: String
    /// The index of its true label.
    public let truth: Int
    /// What the classifier said.
    public let prediction: Prediction
    /// Whether the prediction is the true label.
    public var isCorrect: Bool { truth == prediction.classIndex }
  }

  /// Classifies every image of `images` (whose label names must be the classifier's, in its
  /// order) and counts (truth, prediction) pairs.
  public static func confusionMatrix(
    of classifier: Classifier, on images: ImageSet, threads: Int = Classifier.defaultThreads
  ) throws(ClassifierError) -> (matrix: ConfusionMatrix, outcomes: [Outcome]) {
    var matrix = ConfusionMatrix(labels: classifier.labelNames)
    var outcomes: [Outcome] = []
    let predictions = try classifier.classify(images, threads: threads)
    for (i, prediction) in predictions.enumerated() {
      matrix.add(truth: images.labels[i], prediction: prediction.classIndex)
      outcomes.append(
        Outcome(path: images.paths[i], truth: images.labels[i], prediction: prediction))
    }
    return (matrix, outcomes)
  }
}
