import LeamojiCore
import LeamojiNN

/// The mood classifier: a network with its labels and its input normalisation — what a model
/// file holds. It loads and checks model files, turns RGB images into network input (the one
/// path of `InputNormalisation`) and predicts in batches; training makes new ones.
///
/// A value: copies share their weights until one is changed.
public struct Classifier: Sendable {
  /// The labels in output order (`labels[i]` is logit `i`), with the model's emoji.
  public let labels: [Label]
  /// How pixels become network input.
  public let normalisation: InputNormalisation
  /// The network; its input is `[3, height, width]`, its output one logit per label.
  public let network: Network
  /// The model file's `emoji` entry, label name → emoji. It may name labels the model does not
  /// have (training starts from the standard labels' emoji); kept as it is so that a
  /// classifier written again gives the same bytes.
  let emojiEntry: [String: String]
  /// What the model file says about itself (empty for files from before the card).
  public private(set) var card = ModelCard()

  /// The same classifier with `card` as its model card (written with it to the file).
  public func with(card: ModelCard) -> Classifier {
    var copy = self
    copy.card = card
    return copy
  }

  /// The threads a batch uses when the caller does not say: all active processors.
  public static var defaultThreads: Int { Network.defaultThreads }
  /// Images per network batch when classifying many.
  static let batchSize = 64

  /// A classifier around an existing network.
  /// - Parameters:
  ///   - labelNames: one unique, non-empty name per network output, in output order.
  ///   - emoji: the model file's `emoji` entry; a label it does not name shows ❔.
  /// - Throws: `ClassifierError` when the network does not take `[3, H, W]` images or the
  ///   labels do not fit its outputs.
  public init(
    network: Network, labelNames: [String], normalisation: InputNormalisation = .imageNet,
    emoji: [String: String] = Classifier.emojiEntry(adding: [:])
  ) throws(ClassifierError) {
    guard network.inputShape.count == 3, network.inputShape[0] == 3 else {
      throw .notAnImageNetwork(inputShape: network.inputShape)
    }
    guard labelNames.count == network.classCount else {
      throw .badLabels(
        reason: "\(labelNames.count) labels for \(network.classCount) network outputs")
    }
    guard Set(labelNames).count == labelNames.count, labelNames.allSatisfy({ !$0.isEmpty }) else {
      throw .badLabels(reason: "labels must be unique and non-empty: \(labelNames)")
    }
    self.network = network
    self.labels = labelNames.map { Label(name: $0, emoji: emoji[$0] ?? Label.unknownEmoji) }
    self.normalisation = normalisation
    self.emojiEntry = emoji
  }

  /// A freshly initialised classifier with the default architecture
  /// (`LayerSpec.defaultArchitecture`) for images of `size`; the same seed gives the same
  /// weights.
  ///
  /// `capacity` chooses another network of the same shape (`LayerSpec.architecture`): other
  /// channel widths and depth, batch normalisation, dropout.
  public static func untrained(
    labelNames: [String], size: PixelSize = PixelSize(width: 64, height: 64), seed: UInt64,
    normalisation: InputNormalisation = .imageNet,
    emoji: [String: String] = Classifier.emojiEntry(adding: [:]),
    capacity: NetworkCapacity = NetworkCapacity()
  ) throws(ClassifierError) -> Classifier {
    let network: Network
    do {
      network = try Network(
        specs: capacity.specs(classes: labelNames.count),
        inputShape: [3, size.height, size.width], seed: seed)
    } catch {
      throw .network(error)
    }
    return try Classifier(
      network: network, labelNames: labelNames, normalisation: normalisation, emoji: emoji)
  }

  /// The `emoji` entry of a new model: the standard labels' emoji with `custom` (label name →
  /// emoji) over them.
  public static func emojiEntry(adding custom: [String: String]) -> [String: String] {
    var entry = Dictionary(uniqueKeysWithValues: Label.standard.map { ($0.name, $0.emoji) })
    entry.merge(custom) { _, new in new }
    return entry
  }

  /// The size of the images the network takes.
  public var inputSize: PixelSize {
    PixelSize(width: network.inputShape[2], height: network.inputShape[1])
  }

  /// The labels' names in output order.
  public var labelNames: [String] { labels.map(\.name) }

  /// True when one image's pass is split over the threads `classify` is given
  /// (`Network.splitsOneSample`): worth more than one thread even for one image.
  public var splitsOneImage: Bool { network.splitsOneSample }

  /// Layers with weights (convolutions, linear layers, batch norms), as `--freeze` counts them.
  public var layersWithWeights: Int { network.layers.filter { !$0.parameters.isEmpty }.count }

  /// Weights and biases in all, for `leamoji model`.
  public var parameterCount: Int { network.parameterCount }

  /// Whether this network can be a backbone for a head (`train --backbone`): MobileNet-style,
  /// split over threads for one image, and ending in a linear layer that a head replaces.
  public var isBackbone: Bool {
    guard splitsOneImage, case .linear = network.specs.last else { return false }
    return true
  }

  /// Predictions for `images`, in order, in batches of 64. The result for an image does not
  /// depend on the batch it is in, nor on `threads`.
  /// - Throws: `ClassifierError.imageSize` when an image is not `inputSize`.
  public func classify(
    _ images: [RGBImage], threads: Int = Classifier.defaultThreads
  ) throws(ClassifierError) -> [Prediction] {
    if let wrong = images.first(where: { $0.size != inputSize }) {
      throw .imageSize(found: wrong.size, expected: inputSize)
    }
    let maker = BatchMaker(size: inputSize, normalisation: normalisation)
    var result: [Prediction] = []
    var start = 0
    while start < images.count {
      let end = min(images.count, start + Classifier.batchSize)
      result += try predictions(for: maker.batch(Array(images[start..<end])), threads: threads)
      start = end
    }
    return result
  }

  /// Predictions for every image of `images` (decoded at `inputSize`), in order, in batches of
  /// 64: the same as `classify` gives for each image on its own.
  /// - Throws: `ClassifierError.imageSize` when the set's images are not `inputSize`.
  public func classify(
    _ images: ImageSet, threads: Int = Classifier.defaultThreads
  ) throws(ClassifierError) -> [Prediction] {
    guard images.size == inputSize else {
      throw .imageSize(found: images.size, expected: inputSize)
    }
    let maker = BatchMaker(size: inputSize, normalisation: normalisation)
    var result: [Prediction] = []
    var start = 0
    while start < images.count {
      let indices = Array(start..<min(images.count, start + Classifier.batchSize))
      result += try predictions(for: maker.batch(from: images, indices: indices), threads: threads)
      start += indices.count
    }
    return result
  }

  /// Predictions for a batch made by `BatchMaker`.
  /// The pooled features of `images` (what the model's last, linear layer receives: 1280
  /// numbers for an EfficientNet-Lite0 backbone), one array per image, in order: the input a
  /// head is trained on.
  /// - Throws: `ClassifierError.imageSize` when an image is not `inputSize`, `.network` when
  ///   the model does not end in a linear layer.
  public func features(
    _ images: [RGBImage], threads: Int = Classifier.defaultThreads
  ) throws(ClassifierError) -> [[Float]] {
    if let wrong = images.first(where: { $0.size != inputSize }) {
      throw .imageSize(found: wrong.size, expected: inputSize)
    }
    let maker = BatchMaker(size: inputSize, normalisation: normalisation)
    var result: [[Float]] = []
    var start = 0
    while start < images.count {
      let end = min(images.count, start + Classifier.batchSize)
      let f: Tensor
      do {
        f = try network.features(maker.batch(Array(images[start..<end])), threads: threads)
      } catch {
        throw .network(error)
      }
      result += (0..<f.shape[0]).map { f.slice($0).data }
      start = end
    }
    return result
  }

  func predictions(for batch: Tensor, threads: Int) throws(ClassifierError) -> [Prediction] {
    let z: Tensor
    do {
      z = try network.logits(batch, threads: threads)
    } catch {
      throw .network(error)
    }
    return (0..<z.shape[0]).map { b in
      let logits = z.slice(b)
      let best = SoftmaxCrossEntropy.argmax(logits)
      return Prediction(
        classIndex: best, label: labels[best],
        probabilities: SoftmaxCrossEntropy.softmax(logits).data, logits: logits.data)
    }
  }
}

/// The classification of one image.
public struct Prediction: Equatable, Sendable {
  /// Index of the most probable label.
  public var classIndex: Int
  /// The most probable label.
  public var label: Label
  /// Softmax probabilities in label order.
  public var probabilities: [Float]
  /// Raw network outputs in label order (what `classify --json` prints).
  public var logits: [Float]
  /// The probability of the predicted label.
  public var confidence: Float { probabilities[classIndex] }

  public init(classIndex: Int, label: Label, probabilities: [Float], logits: [Float]) {
    self.classIndex = classIndex
    self.label = label
    self.probabilities = probabilities
    self.logits = logits
  }
}

/// The capacity of a new network (`train --widths --depth --batch-norm --dropout`): one
/// conv block per width, batch normalisation after each convolution or not, dropout before
/// the classifier. The default is the network leamoji has always shipped.
public struct NetworkCapacity: Equatable, Sendable {
  /// Output channels of each conv block (the number of blocks is the depth).
  public var widths: [Int]
  /// A batch norm after each convolution.
  public var batchNorm: Bool
  /// Dropout probability before the classifier (0: none).
  public var dropout: Double

  public init(widths: [Int] = [16, 32, 64], batchNorm: Bool = false, dropout: Double = 0) {
    self.widths = widths
    self.batchNorm = batchNorm
    self.dropout = dropout
  }

  /// Widths for `depth` blocks when none are given: 16, 32, 64, 128, ... (doubling).
  public static func widths(depth: Int) -> [Int] { (0..<depth).map { 16 << min($0, 10) } }

  /// The layer descriptions for `classes` outputs.
  public func specs(classes: Int) -> [LayerSpec] {
    LayerSpec.architecture(
      classes: classes, widths: widths, batchNorm: batchNorm, dropout: dropout)
  }
}
