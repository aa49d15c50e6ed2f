import Foundation

/// A trained classifier: the network plus everything needed to use it — class labels, input
/// normalisation and emoji. This is what a `.safetensors` model file holds.
///
/// Immutable once validated; to train, take `network`, train it, and build a new `Model` from
/// the result (the initialiser re-checks that labels and outputs still agree).
public struct Model: Sendable {
  /// The `format` metadata value of leamoji model files.
  public static let format = "leamoji-cnn"
  /// The model file version written (and the only one read).
  public static let version = "1"
  /// Emoji of the three standard moods.
  public static let standardEmoji: [String: String] = ["happy": "😀", "neutral": "😐", "scary": "😱"]
  /// Emoji for a label without one.
  public static let unknownEmoji = "❔"

  /// The network; its input shape is `[3, height, width]`.
  public let network: Network
  /// Class names in class-index order (`labels[i]` is logit `i`).
  public let labels: [String]
  /// Per-channel mean of `pixel / 255` subtracted before the network.
  public let mean: [Float]
  /// Per-channel standard deviation divided by before the network.
  public let std: [Float]
  /// Emoji by label (labels without one show `unknownEmoji`).
  public let emoji: [String: String]

  /// A model around an existing network.
  /// - Throws: `NNError` when the network input is not `[3, H, W]`, the labels are not one
  ///   unique non-empty name per class, or `mean`/`std` are unusable.
  public init(
    network: Network, labels: [String], mean: [Float] = Preprocessing.imageNetMean,
    std: [Float] = Preprocessing.imageNetStd, emoji: [String: String] = Model.standardEmoji
  ) throws(NNError) {
    guard network.inputShape.count == 3, network.inputShape[0] == 3 else {
      throw .invalidInputShape(shape: network.inputShape, reason: "a model takes RGB images, [3, height, width]")
    }
    guard labels.count == network.classCount else {
      throw .badLabels(reason: "\(labels.count) labels for \(network.classCount) network outputs")
    }
    guard Set(labels).count == labels.count, labels.allSatisfy({ !$0.isEmpty }) else {
      throw .badLabels(reason: "labels must be unique and non-empty: \(labels)")
    }
    try Preprocessing.checkStatistics(mean: mean, std: std, channels: 3)
    self.network = network
    self.labels = labels
    self.mean = mean
    self.std = std
    self.emoji = emoji
  }

  /// A freshly initialised model with the default architecture
  /// (`LayerSpec.defaultArchitecture`) for `width` x `height` RGB input.
  public static func makeDefault(
    labels: [String], width: Int = 64, height: Int = 64, seed: UInt64,
    mean: [Float] = Preprocessing.imageNetMean, std: [Float] = Preprocessing.imageNetStd,
    emoji: [String: String] = Model.standardEmoji
  ) throws(NNError) -> Model {
    let network = try Network(
      specs: LayerSpec.defaultArchitecture(classes: labels.count), inputShape: [3, height, width], seed: seed)
    return try Model(network: network, labels: labels, mean: mean, std: std, emoji: emoji)
  }

  /// Input image width the network expects.
  public var inputWidth: Int { network.inputShape[2] }
  /// Input image height the network expects.
  public var inputHeight: Int { network.inputShape[1] }

  /// The emoji for a label, or `unknownEmoji`.
  public func emoji(for label: String) -> String { emoji[label] ?? Model.unknownEmoji }

  /// Network input for one RGB image of exactly the model's input size (resize first).
  /// - Throws: `NNError.badPreprocessing` for a wrong size or byte count.
  public func preprocess(rgb: [UInt8], width: Int, height: Int) throws(NNError) -> Tensor {
    guard width == inputWidth, height == inputHeight else {
      throw .badPreprocessing(reason: "image is \(width)x\(height), the model takes \(inputWidth)x\(inputHeight)")
    }
    return try Preprocessing.tensor(rgb: rgb, width: width, height: height, mean: mean, std: std)
  }

  /// Predictions for a preprocessed batch `[batch, 3, H, W]`, in batch order.
  public func predict(_ batch: Tensor, threads: Int = Network.defaultThreads) throws(NNError) -> [Prediction] {
    let z = try network.logits(batch, threads: threads)
    return (0..<z.shape[0]).map { b in
      let logits = z.slice(b)
      let p = SoftmaxCrossEntropy.softmax(logits)
      let best = SoftmaxCrossEntropy.argmax(logits)
      return Prediction(classIndex: best, label: labels[best], probabilities: p.data, logits: logits.data)
    }
  }
}

/// The classification of one image.
public struct Prediction: Equatable, Sendable {
  /// Index of the most probable class.
  public var classIndex: Int
  /// Its label.
  public var label: String
  /// Softmax probabilities in class-index order.
  public var probabilities: [Float]
  /// Raw network outputs in class-index order.
  public var logits: [Float]
  /// The probability of the predicted class.
  public var confidence: Float { probabilities[classIndex] }
}
