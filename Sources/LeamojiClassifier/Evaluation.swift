import LeamojiNN

/// Scoring a model on labelled images.
public enum Evaluation {
  /// One image's outcome.
  public struct Outcome: Sendable {
    public let path: String
    public let truth: Int
    public let prediction: Prediction
    public var isCorrect: Bool { truth == prediction.classIndex }
  }

  /// Classifies every image of `images` (whose label names must be the model's) and counts
  /// (truth, prediction) pairs.
  public static func confusionMatrix(
    of model: Model, on images: ImageSet, threads: Int = Network.defaultThreads
  ) throws(NNError) -> (matrix: ConfusionMatrix, outcomes: [Outcome]) {
    var matrix = ConfusionMatrix(labels: model.labels)
    var outcomes: [Outcome] = []
    let predictions = try predict(model, images: images, threads: threads)
    for (i, prediction) in predictions.enumerated() {
      matrix.add(truth: images.labels[i], prediction: prediction.classIndex)
      outcomes.append(Outcome(path: images.paths[i], truth: images.labels[i], prediction: prediction))
    }
    return (matrix, outcomes)
  }

  /// Predictions for every image of `images`, in order, in batches of 64.
  public static func predict(_ model: Model, images: ImageSet, threads: Int = Network.defaultThreads) throws(NNError) -> [Prediction] {
    let maker = BatchMaker(width: model.inputWidth, height: model.inputHeight, mean: model.mean, std: model.std)
    var result: [Prediction] = []
    var start = 0
    while start < images.count {
      let indices = Array(start..<min(images.count, start + 64))
      result += try model.predict(maker.batch(from: images, indices: indices), threads: threads)
      start += indices.count
    }
    return result
  }
}
