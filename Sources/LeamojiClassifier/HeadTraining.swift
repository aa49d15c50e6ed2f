import FoundationEssentials
import LeamojiCore
import LeamojiNN

/// Transfer learning as Create ML does it: a small head (one linear layer, or one hidden layer
/// and a linear one) trained on a frozen pretrained backbone's pooled features, then put in
/// place of the backbone's own last layer, so the model file holds backbone and head together
/// and runs like any other model.
///
/// The features are computed once per image (`FeatureSet.extract`), so an epoch is a pass over a
/// few hundred rows of 1280 floats: seconds, where training through the backbone would take
/// hours on two cores.
public enum HeadTraining {
  /// A model made by `train --backbone`, taken apart: the backbone (a classifier whose
  /// `features` are the head's input), the head's parameters and layout, the model's emoji.
  public struct Parts: Sendable {
    public let backbone: Classifier
    let head: [String: Tensor]
    /// Units of the head's hidden layer; 0 for a linear head.
    public let hidden: Int
    /// The model file's `emoji` entry.
    public let emoji: [String: String]
  }

  /// The name of the head's output layer (the backbone's last layer is replaced by it) and of
  /// its hidden layer.
  static let outputName = "fc"
  static let hiddenName = "fc_hidden"

  /// Trains a head on `training` for `backbone` (the classifier whose `features` made the sets)
  /// and returns the combined classifier of the best epoch by validation accuracy (ties: lower
  /// validation loss; the last epoch without validation). Each epoch shuffles the rows and, when
  /// the sets hold flipped features, takes each image's flipped row for half of the images
  /// (chosen by the seed). AdamW with a cosine decay, as `Trainer`. The same sets, options and
  /// seed give the same weights with any number of threads.
  /// - Parameters:
  ///   - hidden: units of a hidden ReLU layer; 0 for a linear head.
  ///   - initialHead: an existing model's parts whose head (same labels, same layout) training
  ///     starts from (`train --init` on a backbone model); nil starts fresh.
  /// - Throws: `ClassifierError` for sets that do not fit the backbone or each other.
  public static func train(
    training: FeatureSet, validation: FeatureSet?, backbone: Classifier, hidden: Int,
    options: TrainingOptions, emoji: [String: String],
    initialHead: Parts? = nil,
    onEpoch: (EpochReport) -> Void = { _ in }
  ) throws(ClassifierError) -> TrainingResult {
    let width = training.width
    let classes = training.labelNames.count
    guard classes >= 2 else { throw .badLabels(reason: "a head needs two labels or more") }
    if let validation, validation.width != width || validation.labelNames != training.labelNames {
      throw .badLabels(reason: "the validation features do not match the training features")
    }
    let specs = headSpecs(width: width, hidden: hidden, classes: classes)
    var head: Network
    do {
      head = try Network(specs: specs, inputShape: [width], seed: options.seed)
      if let initialHead {
        head = try Network(specs: specs, inputShape: [width], parameters: initialHead.head)
      }
    } catch {
      throw .network(error)
    }
    let session = TrainingSession(
      network: head,
      optimizer: AdamW(learningRate: options.learningRate, weightDecay: options.weightDecay),
      seed: options.seed)
    var order = Array(0..<training.count)
    let batchSize = max(1, options.batchSize)
    var best: (epoch: Int, score: (Double, Float), snapshot: ParameterSnapshot)? = nil
    var reports: [EpochReport] = []
    for epoch in 1...max(1, options.epochs) {
      let started = Date()
      let epochSeed = options.seed ^ (UInt64(epoch) &* 0x9E37_79B9_7F4A_7C15)
      var rng = SplitMix64(seed: epochSeed)
      Trainer.shuffle(&order, using: &rng)
      let progress = Double(epoch - 1) / Double(max(1, options.epochs - 1))
      session.optimizer.learningRate =
        options.learningRate
        * Float(0.05 + 0.95 * 0.5 * (1 + PortableMath.cos(Double.pi * progress)))
      var lossSum = 0.0
      var correct = 0
      var start = 0
      while start < order.count {
        let rows = Array(order[start..<min(order.count, start + batchSize)])
        var data: [Float] = []
        data.reserveCapacity(rows.count * width)
        for i in rows {
          let source =
            training.flipped != nil && rng.next() & 1 == 1 ? training.flipped! : training.features
          data += source[(i * width)..<((i + 1) * width)]
        }
        let result: BatchResult
        do {
          result = try session.step(
            Tensor(shape: [rows.count, width], data: data),
            labels: rows.map { training.labels[$0] },
            threads: options.threads)
        } catch {
          throw .network(error)
        }
        lossSum += Double(result.meanLoss) * Double(result.count)
        correct += result.correct
        start += rows.count
      }
      let network = session.network
      let validated = try validation.map { set throws(ClassifierError) in
        try score(network, on: set, threads: options.threads)
      }
      let epochScore = validated.map { ($0.accuracy, -$0.meanLoss) } ?? (Double(epoch), 0)
      let improved = best == nil || epochScore > best!.score
      if improved { best = (epoch, epochScore, network.snapshot()) }
      let report = EpochReport(
        epoch: epoch, loss: Float(lossSum / Double(max(1, training.count))),
        trainingAccuracy: Double(correct) / Double(max(1, training.count)),
        validationAccuracy: validated?.accuracy, validationLoss: validated?.meanLoss,
        seconds: Date().timeIntervalSince(started), isBest: improved)
      reports.append(report)
      onEpoch(report)
    }
    head = session.network
    do {
      try head.restore(best!.snapshot)
    } catch {
      throw .network(error)
    }
    let classifier = try combine(
      backbone: backbone, head: head, labelNames: training.labelNames, emoji: emoji)
    return TrainingResult(classifier: classifier, bestEpoch: best!.epoch, reports: reports)
  }

  /// The confusion matrix of `model` (made by `train`) on a feature set of its backbone:
  /// its head run on the (unflipped) features, as the whole model would on the images.
  public static func confusionMatrix(of model: Classifier, on set: FeatureSet, threads: Int)
    throws(ClassifierError) -> ConfusionMatrix
  {
    guard let parts = split(model) else {
      throw .cannotFineTune(reason: "the model is not a backbone with a head")
    }
    let head: Network
    do {
      head = try Network(
        specs: headSpecs(width: set.width, hidden: parts.hidden, classes: model.labelNames.count),
        inputShape: [set.width], parameters: parts.head)
    } catch {
      throw .network(error)
    }
    var matrix = ConfusionMatrix(labels: model.labelNames)
    var start = 0
    while start < set.count {
      let end = min(set.count, start + Classifier.batchSize)
      let logits: Tensor
      do {
        logits = try head.logits(
          Tensor(
            shape: [end - start, set.width],
            data: Array(set.features[(start * set.width)..<(end * set.width)])),
          threads: threads)
      } catch {
        throw .network(error)
      }
      for i in 0..<(end - start) {
        let row = logits.slice(i).data
        let best = row.indices.max { row[$0] < row[$1] || (row[$0] == row[$1] && $0 > $1) }!
        matrix.add(truth: set.labels[start + i], prediction: best)
      }
      start = end
    }
    return matrix
  }

  /// The head's layers: `fc` alone, or `fc_hidden`, ReLU, `fc`.
  static func headSpecs(width: Int, hidden: Int, classes: Int) -> [LayerSpec] {
    guard hidden > 0 else {
      return [.linear(name: outputName, inFeatures: width, outFeatures: classes)]
    }
    return [
      .linear(name: hiddenName, inFeatures: width, outFeatures: hidden), .relu,
      .linear(name: outputName, inFeatures: hidden, outFeatures: classes),
    ]
  }

  /// Accuracy and mean loss of the head on `set`'s (unflipped) features, in batches of 64.
  static func score(_ head: Network, on set: FeatureSet, threads: Int) throws(ClassifierError)
    -> BatchResult
  {
    var correct = 0
    var loss = 0.0
    var start = 0
    while start < set.count {
      let end = min(set.count, start + Classifier.batchSize)
      let result: BatchResult
      do {
        result = try head.evaluate(
          Tensor(
            shape: [end - start, set.width],
            data: Array(set.features[(start * set.width)..<(end * set.width)])),
          labels: Array(set.labels[start..<end]), threads: threads)
      } catch {
        throw .network(error)
      }
      correct += result.correct
      loss += Double(result.meanLoss) * Double(result.count)
      start = end
    }
    return BatchResult(
      meanLoss: Float(loss / Double(max(1, set.count))), correct: correct, count: set.count)
  }

  /// The backbone with its last layer replaced by `head`'s layers: one network, one file.
  static func combine(
    backbone: Classifier, head: Network, labelNames: [String], emoji: [String: String]
  ) throws(ClassifierError) -> Classifier {
    guard case .linear(let lastName, _, _) = backbone.network.specs.last else {
      throw .cannotFineTune(reason: "the backbone's last layer is not a linear layer")
    }
    let specs = Array(backbone.network.specs.dropLast()) + head.specs
    var parameters = backbone.network.namedTensors.filter { !$0.key.hasPrefix(lastName + ".") }
    parameters.merge(head.namedParameters) { _, new in new }
    let network: Network
    do {
      network = try Network(
        specs: specs, inputShape: backbone.network.inputShape, parameters: parameters)
    } catch {
      throw .network(error)
    }
    return try Classifier(
      network: network, labelNames: labelNames, normalisation: backbone.normalisation,
      emoji: emoji)
  }

  /// For a model made by `train --backbone`: the backbone part (the layers before the head,
  /// ending in global average pooling) as a classifier whose `features` are the head's input,
  /// the head's parameters, and its hidden units (0 for a linear head). Nil for other models.
  public static func split(_ model: Classifier) -> Parts? {
    let specs = model.network.specs
    guard let pool = specs.lastIndex(of: .globalAvgPool), model.network.splitsOneSample else {
      return nil
    }
    let headSpecs = Array(specs[(pool + 1)...])
    let hidden: Int
    switch headSpecs.count {
    case 1:
      guard case .linear(outputName, _, _) = headSpecs[0] else { return nil }
      hidden = 0
    case 3:
      guard case .linear(hiddenName, _, let units) = headSpecs[0], headSpecs[1] == .relu,
        case .linear(outputName, _, _) = headSpecs[2]
      else { return nil }
      hidden = units
    default:
      return nil
    }
    let names = Set(
      headSpecs.compactMap { spec -> String? in
        if case .linear(let name, _, _) = spec { return name }
        return nil
      })
    let head = model.network.namedParameters.filter {
      names.contains(String($0.key.split(separator: ".")[0]))
    }
    // The backbone alone: the layers to the pooling and a placeholder last layer (zeros, never
    // used: only `features`, its input, is asked of it).
    let width = model.network.shapes[pool + 1].reduce(1, *)
    let classes = model.labelNames.count
    var parameters = model.network.namedTensors.filter {
      !names.contains(String($0.key.split(separator: ".")[0]))
    }
    parameters[outputName + ".weight"] = Tensor(shape: [classes, width])
    parameters[outputName + ".bias"] = Tensor(shape: [classes])
    guard
      let network = try? Network(
        specs: Array(specs[...pool]) + [
          .linear(name: outputName, inFeatures: width, outFeatures: classes)
        ],
        inputShape: model.network.inputShape, parameters: parameters),
      let backbone = try? Classifier(
        network: network, labelNames: model.labelNames, normalisation: model.normalisation,
        emoji: model.emojiEntry)
    else { return nil }
    return Parts(backbone: backbone, head: head, hidden: hidden, emoji: model.emojiEntry)
  }
}
