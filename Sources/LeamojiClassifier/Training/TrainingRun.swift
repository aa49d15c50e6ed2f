import FoundationEssentials
import LeamojiCore

/// One `TrainingPlan.run`: the plan, its event handler and the card's date.
struct Run {
  let plan: TrainingPlan
  let events: TrainingEvents
  let created: String

  var options: TrainingOptions { plan.options }

  /// Trains the whole CNN, afresh or from `base` (`--init`), and writes it.
  func network(base: BaseModel?) throws(TrainingError) -> TrainingOutcome {
    if let base, let pull = options.l2SP, pull > 0 {
      throw TrainingError(
        .usage,
        "--l2-sp holds a retrained head near its start: \(base.name) is not a backbone with a head")
    }
    if let base {
      let weighted = base.classifier.layersWithWeights
      guard options.freeze < weighted else {
        throw TrainingError(
          .usage,
          "--freeze \(options.freeze): \(base.name) has \(weighted) layers with weights and the last one must train (use 0 to \(weighted - 1))"
        )
      }
    }
    let side = plan.inputSize ?? 64
    let inputSize = base?.classifier.inputSize ?? PixelSize(width: side, height: side)
    let blocks = options.capacity.widths.count
    if base == nil, inputSize.width >> blocks < 1 {
      throw TrainingError(
        .usage,
        "--input-size \(inputSize.width) is too small for \(blocks) blocks (each halves it)")
    }
    // Fine-tuning on the base model's labels keeps its head: read the folders in its order.
    var order: [String]? = nil
    if let base {
      let names = try scanLabels(plan.trainingData)
      if Set(names) == Set(base.classifier.labelNames) { order = base.classifier.labelNames }
    }
    let all = try loadFolder(plan.trainingData, size: inputSize, labels: order, minimumLabels: 2)
    let events = self.events
    let epochs = options.epochs
    var currentEpoch = 1
    let (result, validationMatrix) = try train(
      all, fineTuning: base.map { String($0.record.split(separator: " ")[0]) }, backbone: nil,
      validationFolder: { path throws(TrainingError) in
        try loadFolder(path, size: inputSize, labels: all.labelNames, minimumLabels: 1)
      },
      loop: { training, held throws(ClassifierError) in
        try Trainer.train(
          training: training, validation: held, options: options, customEmoji: plan.emoji,
          initial: base?.classifier,
          onBatch: { done, total in
            events(.batch(epoch: currentEpoch, epochs: epochs, done: done, total: total))
          },
          onEpoch: { report in
            currentEpoch = report.epoch + 1
            events(.epoch(report, epochs: epochs))
          })
      },
      score: { classifier, held throws(ClassifierError) in
        try Evaluation.confusionMatrix(of: classifier, on: held, threads: options.threads).matrix
      })
    var record = trainingRecord(result, initFrom: base?.record)
    record.frozenLayers = base == nil ? nil : options.freeze
    return try finish(
      result, trainingData: ModelCard.TrainingData(images: all, root: plan.trainingData),
      record: record, held: validationMatrix, base: base)
  }

  /// What both kinds of training do around their loop. The held-out examples are the
  /// `--validation` folder's (read by `load`), else `plan.validationSplit` of `all`, chosen by
  /// the seed (none when that leaves none out); the start is reported, `loop` trains on the
  /// training part and checks each epoch on the held-out one, a failure of it ends the run, and
  /// the kept epoch is reported. Without a test folder `score` then gives the kept model's
  /// confusion matrix on the held-out examples: the card's per-label scores.
  func train<Samples: LabelledSamples>(
    _ all: Samples, fineTuning: String?, backbone: String?,
    validationFolder load: (String) throws(TrainingError) -> Samples,
    loop: (_ training: Samples, _ held: Samples?) throws(ClassifierError) -> TrainingResult,
    score: (Classifier, Samples) throws(ClassifierError) -> ConfusionMatrix
  ) throws(TrainingError) -> (result: TrainingResult, validation: ConfusionMatrix?) {
    var training = all
    var held: Samples? = nil
    if let validation = plan.validation {
      held = try load(validation)
    } else if plan.validationSplit > 0 {
      (training, held) = Trainer.split(
        all, validationFraction: plan.validationSplit, seed: options.seed)
      if held?.count == 0 { held = nil }
    }
    events(
      .started(
        TrainingStart(
          trainingImages: training.count, validationImages: held?.count ?? 0,
          labels: all.labelNames, fineTuning: fineTuning, backbone: backbone)))
    let result: TrainingResult
    do {
      result = try loop(training, held)
    } catch {
      throw TrainingError(.failed, "training failed: \(error)")
    }
    events(.kept(epoch: result.bestEpoch, validated: held != nil))
    guard let held, plan.test == nil else { return (result, nil) }
    do {
      return (result, try score(result.classifier, held))
    } catch {
      throw TrainingError(.failed, "\(error)")
    }
  }

  /// The card's record of a finished run (the kind of training adds its own fields).
  func trainingRecord(_ result: TrainingResult, initFrom: String?) -> ModelCard.TrainingRecord {
    var record = ModelCard.TrainingRecord(
      epochs: options.epochs, bestEpoch: result.bestEpoch, seed: options.seed,
      batchSize: options.batchSize, learningRate: options.learningRate,
      augmentations: options.augment.list, initFrom: initFrom)
    if options.l2 > 0 { record.l2 = options.l2 }
    return record
  }

  /// Scores the kept model on the test folder (else keeps the validation matrix `held`) and
  /// writes it (or `written`, the model made from it) with its model card, which keeps the
  /// `--init` model's (`base`) decision settings when the labels are its own.
  /// - Parameters:
  ///   - tested: the test folder's matrix and image count when the caller scored it already
  ///     (a head, on the test features).
  ///   - check: the test figures of `base` and of the written model, made by `checkAgainst`
  ///     once the card is known.
  func finish(
    _ result: TrainingResult, trainingData data: ModelCard.TrainingData,
    record: ModelCard.TrainingRecord, held: ConfusionMatrix?, written: Classifier? = nil,
    base: BaseModel? = nil, tested: (matrix: ConfusionMatrix, images: Int)? = nil,
    checkAgainst: ((Classifier) throws(TrainingError) -> TeachingCheck?)? = nil
  ) throws(TrainingError) -> TrainingOutcome {
    var testAccuracy: Double? = nil
    var scored: (name: String, matrix: ConfusionMatrix)? = held.map { ("validation", $0) }
    if let tested {
      testAccuracy = tested.matrix.accuracy
      scored = ("test", tested.matrix)
      events(.tested(tested.matrix, images: tested.images))
    } else if let test = plan.test {
      let testImages = try loadFolder(
        test, size: result.classifier.inputSize, labels: result.classifier.labelNames,
        minimumLabels: 1)
      let matrix: ConfusionMatrix
      do {
        matrix = try Evaluation.confusionMatrix(
          of: result.classifier, on: testImages, threads: options.threads
        ).matrix
      } catch {
        throw TrainingError(.failed, "\(error)")
      }
      testAccuracy = matrix.accuracy
      scored = ("test", matrix)
      events(.tested(matrix, images: testImages.count))
    }
    let best = result.bestReport
    let text = plan.card
    let model = written ?? result.classifier
    var record = record
    record.initVersion = base?.classifier.card.modelVersion
    var card = ModelCard(
      author: text.author, description: text.description, license: text.license,
      modelVersion: text.modelVersion, created: created, trainingData: data, training: record,
      accuracy: ModelCard.Accuracy(
        training: best.trainingAccuracy, validation: best.validationAccuracy, test: testAccuracy),
      evaluation: text.evaluation, scaryThreshold: text.scaryThreshold,
      scaryThresholdHigh: text.scaryThresholdHigh, scaryThresholdLow: text.scaryThresholdLow)
    if let base, Set(base.classifier.labelNames) == Set(model.labelNames) {
      card.carryDecisions(from: base.classifier.card)
    }
    let classifier = model.with(card: card)
    let check = try checkAgainst?(classifier)
    do {
      try DurableFile(plan.output).write(classifier.encoded())
    } catch {
      throw TrainingError(error)
    }
    return TrainingOutcome(
      output: plan.output, classifier: classifier, keptEpoch: result.bestEpoch, card: card,
      scoredOn: scored?.name, score: scored?.matrix, check: check)
  }

  /// The label names of a labelled folder (its subfolders), without reading any image.
  func scanLabels(_ path: String) throws(TrainingError) -> [String] {
    do {
      return try LabelledFolder(scanning: path, minimumLabels: 1).labels
    } catch {
      throw TrainingError(error)
    }
  }

  /// Scans and decodes a labelled folder, reporting progress and skipped files.
  func loadFolder(_ path: String, size: PixelSize, labels: [String]?, minimumLabels: Int)
    throws(TrainingError) -> ImageSet
  {
    do {
      let folder = try LabelledFolder(scanning: path, minimumLabels: minimumLabels)
      let events = self.events
      events(.readingStarted(.images, folder: path, total: folder.items.count))
      let (images, skipped) = try ImageSet.load(
        folder, size: size, labelNames: labels, threads: plan.decodingThreads,
        decode: plan.decode,
        progress: { events(.reading(.images, folder: path, done: $0)) })
      events(.readingFinished(.images, folder: path))
      if let first = skipped.first {
        events(.skipped(folder: path, count: skipped.count, example: first.reason))
      }
      return images
    } catch {
      throw TrainingError(error)
    }
  }
}
