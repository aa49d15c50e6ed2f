import FoundationEssentials
import LeamojiCore
import LeamojiNN

/// How to train.
public struct TrainingOptions: Sendable {
  public var epochs = 12
  public var batchSize = 32
  public var learningRate: Float = 0.003
  /// The step of the gradient descent that teaches an `--init` head (`HeadTraining`), on
  /// features scaled to a mean square of 1; `train --learning-rate` sets both.
  public var teachingRate: Float = 0.1
  public var weightDecay: Float = 0.0001
  /// The L2 penalty on weights (`AdamW.l2`): 0 by default; a head on a backbone trained on a
  /// few hundred real pictures generalises better with a strong one (`train --l2`).
  public var l2: Float = 0
  /// The L2-SP penalty (`train --l2-sp`): holds a head trained again from an `--init` model's
  /// head near that head's weights and biases, so that a few frames of one film teach it
  /// without undoing what it knew. Nil: `defaultL2SP` when a head starts from an `--init`
  /// head, none otherwise (a fresh head has nothing to be held near).
  public var l2SP: Float?
  /// The default L2-SP strength, chosen by the teaching trial in docs/model.md.
  public static let defaultL2SP: Float = 10
  public var seed: UInt64 = 42
  public var augment: Augmentation = [.flip, .crop]
  /// Threads for the forward/backward passes; the model file does not depend on it.
  public var threads = Classifier.defaultThreads
  /// When fine-tuning, how many parameterised layers from the input (conv1, conv2 ...) keep
  /// their weights: their parameters are left out of the optimizer's update altogether.
  public var freeze = 0
  /// The network of a fresh model (ignored when fine-tuning, which keeps the model's own).
  public var capacity = NetworkCapacity()
  /// Heads on a backbone (`HeadTraining`): each epoch shows every label's images as often as
  /// the most frequent label's (the rarer ones repeated), so that a label with few examples
  /// (often the frightening one) is not drowned by the others.
  public var balanceLabels = false

  public init() {}
}

/// What one epoch achieved.
public struct EpochReport: Sendable {
  public let epoch: Int
  /// Mean training loss over the epoch (augmented data, weights changing during the epoch).
  public let loss: Float
  public let trainingAccuracy: Double
  /// Accuracy on the held-out validation images (nil without any).
  public let validationAccuracy: Double?
  /// Mean cross-entropy on the validation images (nil without any).
  public let validationLoss: Float?
  public let seconds: Double
  /// Whether this epoch is the best so far (and so the one kept, unless a later one beats it).
  public let isBest: Bool
}

/// A finished training run.
public struct TrainingResult: Sendable {
  /// The classifier of the best epoch.
  public let classifier: Classifier
  public let bestEpoch: Int
  public let reports: [EpochReport]

  /// The report of the kept epoch.
  public var bestReport: EpochReport { reports.first { $0.epoch == bestEpoch }! }
}

/// The training loop: shuffled mini-batches, AdamW with a cosine learning-rate decay, the best
/// epoch by validation accuracy kept (ties go to the lower validation loss: the more confident
/// of two equally accurate epochs). The same images, options and seed give bit-identical
/// weights with any number of threads.
public enum Trainer {
  /// Trains a fresh classifier (`options.capacity`; the default architecture unless changed) on
  /// `training`, its input normalisation
  /// measured on those images, choosing the epoch with the best accuracy on `validation` (the
  /// last epoch when there is none).
  ///
  /// With `initial`, fine-tunes that classifier instead (`train --init`): the same layers,
  /// weights and input normalisation; a new, freshly initialised head (the last linear layer)
  /// when `training`'s labels are not the model's labels in its order; the first
  /// `options.freeze` parameterised layers unchanged.
  /// - Throws: `ClassifierError`: `.imageSize` when the validation images are not the size of
  ///   the training images (or the training images not `initial`'s input size),
  ///   `.badLabels` for unusable label names, `.cannotFineTune` for a `freeze` that leaves
  ///   nothing to train or a model without a linear head, `.network` if the network refuses a
  ///   batch.
  /// - Parameters:
  ///   - customEmoji: emoji for labels (name → emoji) over the standard labels' own; the
  ///     model file keeps them all.
  ///   - onBatch: called after each batch with (batches done, batches per epoch).
  ///   - onEpoch: called after each epoch.
  public static func train(
    training: ImageSet, validation: ImageSet?, options: TrainingOptions,
    customEmoji: [String: String] = [:], initial: Classifier? = nil,
    onBatch: (Int, Int) -> Void = { _, _ in }, onEpoch: (EpochReport) -> Void = { _ in }
  ) throws(ClassifierError) -> TrainingResult {
    if let validation, validation.size != training.size {
      throw .imageSize(found: validation.size, expected: training.size)
    }
    let start: Classifier
    if let initial {
      start = try FineTuning.start(
        from: initial, labelNames: training.labelNames, size: training.size, seed: options.seed,
        customEmoji: customEmoji)
    } else {
      start = try Classifier.untrained(
        labelNames: training.labelNames, size: training.size, seed: options.seed,
        normalisation: InputNormalisation.measured(over: training.pixels),
        emoji: Classifier.emojiEntry(adding: customEmoji), capacity: options.capacity)
    }
    let normalisation = start.normalisation
    let emoji = start.emojiEntry
    let frozen = try FineTuning.frozenParameterCount(start.network, layers: options.freeze)
    // The network's input size (the classifier's), which the images were checked against.
    let maker = BatchMaker(size: start.inputSize, normalisation: normalisation)
    let session = TrainingSession(
      network: start.network,
      optimizer: AdamW(
        learningRate: options.learningRate, weightDecay: options.weightDecay, l2: options.l2),
      frozen: frozen, seed: options.seed)
    let pipeline = BatchPipeline(
      maker: maker, images: training, augment: options.augment, threads: options.threads)
    var order = Array(0..<training.count)
    let batchSize = max(1, options.batchSize)
    let batches = (training.count + batchSize - 1) / batchSize
    var best: (epoch: Int, score: (Double, Float), snapshot: ParameterSnapshot)? = nil
    var reports: [EpochReport] = []

    for epoch in 1...max(1, options.epochs) {
      let started = Date()
      let epochSeed = Trainer.epochSeed(options.seed, epoch: epoch)
      var shuffler = SplitMix64(seed: epochSeed)
      shuffle(&order, using: &shuffler)
      session.optimizer.learningRate = Trainer.learningRate(
        options.learningRate, epoch: epoch, of: options.epochs)
      var lossSum = 0.0
      var correct = 0
      let batchIndices = (0..<batches).map {
        Array(order[($0 * batchSize)..<min(training.count, ($0 + 1) * batchSize)])
      }
      pipeline.start(batches: batchIndices, seed: epochSeed)
      for b in 0..<batches {
        let input = pipeline.take(b)
        let result: BatchResult
        do {
          result = try session.step(
            input, labels: batchIndices[b].map { training.labels[$0] }, threads: options.threads)
        } catch {
          pipeline.finish()
          throw .network(error)
        }
        lossSum += Double(result.meanLoss) * Double(result.count)
        correct += result.correct
        onBatch(b + 1, batches)
      }
      let network = session.network
      let validated = try validation.map { set throws(ClassifierError) in
        try Trainer.score(of: network, on: set, maker: maker, threads: options.threads)
      }
      // Higher accuracy wins, then lower loss; without validation, the latest epoch.
      let epochScore = validated.map { ($0.accuracy, -$0.meanLoss) } ?? (Double(epoch), 0)
      let improved = best == nil || epochScore > best!.score
      if improved { best = (epoch, epochScore, network.snapshot()) }
      let report = EpochReport(
        epoch: epoch, loss: Float(lossSum / Double(training.count)),
        trainingAccuracy: Double(correct) / Double(training.count),
        validationAccuracy: validated?.accuracy,
        validationLoss: validated?.meanLoss,
        seconds: Date().timeIntervalSince(started), isBest: improved)
      reports.append(report)
      onEpoch(report)
    }
    var network = session.network
    do {
      try network.restore(best!.snapshot)
    } catch {
      throw .network(error)
    }
    let classifier = try Classifier(
      network: network, labelNames: start.labelNames, normalisation: normalisation,
      emoji: emoji)
    return TrainingResult(classifier: classifier, bestEpoch: best!.epoch, reports: reports)
  }

  /// Accuracy and mean loss of the network on `images` (in batches of 64, summed in order).
  static func score(
    of network: Network, on images: ImageSet, maker: BatchMaker, threads: Int
  ) throws(ClassifierError) -> BatchResult {
    var correct = 0
    var loss = 0.0
    var start = 0
    while start < images.count {
      let indices = Array(start..<min(images.count, start + Classifier.batchSize))
      let result: BatchResult
      do {
        result = try network.evaluate(
          maker.batch(from: images, indices: indices), labels: indices.map { images.labels[$0] },
          threads: threads)
      } catch {
        throw .network(error)
      }
      correct += result.correct
      loss += Double(result.meanLoss) * Double(result.count)
      start += indices.count
    }
    let n = max(1, images.count)
    return BatchResult(meanLoss: Float(loss / Double(n)), correct: correct, count: images.count)
  }

  /// Splits `samples` (images, or a backbone's features of them) into training and validation
  /// parts: `fraction` of each label (at least one example of a label with two or more) goes to
  /// validation, chosen by `seed`. Images and their features split alike for the same labels
  /// and seed.
  public static func split<Samples: LabelledSamples>(
    _ samples: Samples, validationFraction fraction: Double, seed: UInt64
  ) -> (training: Samples, validation: Samples) {
    let (training, validation) = splitIndices(
      labels: samples.labels, labelCount: samples.labelNames.count, validationFraction: fraction,
      seed: seed)
    return (samples.subset(training), samples.subset(validation))
  }

  /// Indices of the training and validation parts (each sorted).
  static func splitIndices(
    labels: [Int], labelCount: Int, validationFraction fraction: Double, seed: UInt64
  ) -> ([Int], [Int]) {
    var rng = SplitMix64(seed: seed ^ 0x5EED_5EED)
    var trainingIndices: [Int] = []
    var validationIndices: [Int] = []
    for label in 0..<labelCount {
      var members = labels.indices.filter { labels[$0] == label }
      shuffle(&members, using: &rng)
      var take = Int((Double(members.count) * fraction).rounded())
      if fraction > 0, members.count >= 2 { take = max(1, min(take, members.count - 1)) }
      validationIndices += members.prefix(take)
      trainingIndices += members.dropFirst(take)
    }
    return (trainingIndices.sorted(), validationIndices.sorted())
  }

  /// The seed of epoch `epoch`'s shuffle and augmentation.
  static func epochSeed(_ seed: UInt64, epoch: Int) -> UInt64 {
    seed ^ (UInt64(epoch) &* 0x9E37_79B9_7F4A_7C15)
  }

  /// Epoch `epoch`'s learning rate: a cosine decay from the full `rate` to 5 % of it over
  /// `epochs` epochs.
  static func learningRate(_ rate: Float, epoch: Int, of epochs: Int) -> Float {
    let progress = Double(epoch - 1) / Double(max(1, epochs - 1))
    return rate * Float(0.05 + 0.95 * 0.5 * (1 + PortableMath.cos(Double.pi * progress)))
  }

  /// Fisher–Yates with our own generator (the standard library's shuffle algorithm may change).
  static func shuffle<T>(_ items: inout [T], using rng: inout SplitMix64) {
    guard items.count > 1 else { return }
    for i in stride(from: items.count - 1, to: 0, by: -1) {
      let j = Int(rng.next() % UInt64(i + 1))
      items.swapAt(i, j)
    }
  }
}
