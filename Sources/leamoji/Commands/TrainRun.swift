import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// `leamoji train`'s work: load, (fine-)tune, score, write the model with its card, report.
extension Train {
  /// One epoch as a `--json` line.
  struct EpochLine: Encodable {
    let epoch: Int
    let epochs: Int
    let loss: Float
    let trainingAccuracy: Double
    let validationAccuracy: Double?
    let validationLoss: Float?
    let seconds: Double
    let best: Bool

    enum CodingKeys: String, CodingKey {
      case epoch, epochs, loss, seconds, best
      case trainingAccuracy = "training_accuracy"
      case validationAccuracy = "validation_accuracy"
      case validationLoss = "validation_loss"
    }
  }

  /// The final `--json` object.
  struct Summary: Encodable {
    let model: String
    let keptEpoch: Int
    let labels: [String]
    let card: ModelCard
    /// Per-label precision and recall on the test images (or the validation images).
    let scoredOn: String?
    let score: Scores?

    enum CodingKeys: String, CodingKey {
      case model, labels, card, score
      case keptEpoch = "kept_epoch"
      case scoredOn = "scored_on"
    }
  }

  /// The creation date for the card: `--created`, else `$SOURCE_DATE_EPOCH`, else now.
  func creationDate() throws -> String {
    if let created { return ModelCard.timestamp(ModelCard.date(parsing: created)!) }
    if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
      guard let date = ModelCard.date(parsing: epoch) else {
        throw CommandFailure(
          "SOURCE_DATE_EPOCH=\(epoch) is not a number of seconds since 1970", status: .usage)
      }
      return ModelCard.timestamp(date)
    }
    return ModelCard.timestamp(Date())
  }

  /// The model to fine-tune (`--init`), with its card's `init` entry (file name and SHA-256)
  /// and the file's SHA-256.
  func baseModel() throws -> BaseModel? {
    guard let given = self.`init` else { return nil }
    let path = given == "default" ? ModelLocator.resolve(nil) : given
    let model: LoadedModel
    do {
      model = try ModelLocator.load(path)
    } catch {
      throw CommandFailure(error)
    }
    return BaseModel(
      classifier: model.classifier,
      record: "\(PathText.lastComponent(path)) sha256:\(model.sha256)", sha256: model.sha256)
  }

  /// An `--init` model as read.
  struct BaseModel {
    let classifier: Classifier
    let record: String
    let sha256: String
  }

  func run() throws {
    if !overwrite, FileManager.default.fileExists(atPath: output) {
      throw CommandFailure(
        "\(output): already exists; choose another --output or pass --overwrite",
        status: .cannotWrite)
    }
    let createdText = try creationDate()
    if let backbone {
      return try runHead(backboneFile: ModelLocator.resolveBackbone(backbone), base: nil)
    }
    let base = try baseModel()
    if let base, let size, size != base.classifier.inputSize.width {
      throw CommandFailure(
        "--input-size \(size) does not fit --init: the model takes \(base.classifier.inputSize) images",
        status: .usage)
    }
    if let base, HeadTraining.split(base.classifier) != nil {
      // A model trained on a backbone's features trains on them again.
      if freeze != 0 {
        throw CommandFailure(
          "--freeze: \(self.`init`!) is a backbone with a head; only the head trains",
          status: .usage)
      }
      return try runHead(backboneFile: nil, base: base)
    }
    if let base {
      let weighted = base.classifier.layersWithWeights
      guard freeze < weighted else {
        throw CommandFailure(
          "--freeze \(freeze): \(self.`init`!) has \(weighted) layers with weights and the last one must train (use 0 to \(weighted - 1))",
          status: .usage)
      }
    }
    let inputSize = base?.classifier.inputSize ?? PixelSize(width: size ?? 64, height: size ?? 64)
    let blocks = try capacity().widths.count
    if base == nil, inputSize.width >> blocks < 1 {
      throw CommandFailure(
        "--input-size \(inputSize.width) is too small for \(blocks) blocks (each halves it)",
        status: .usage)
    }
    // Fine-tuning on the base model's labels keeps its head: read the folders in its order.
    var order: [String]? = nil
    if let base {
      let names = try scanLabels(trainingData)
      if Set(names) == Set(base.classifier.labelNames) { order = base.classifier.labelNames }
    }
    let all = try loadFolder(trainingData, size: inputSize, labels: order, minimumLabels: 2)
    var training = all
    var held: ImageSet? = nil
    if let validation {
      held = try loadFolder(validation, size: inputSize, labels: all.labelNames, minimumLabels: 1)
    } else if validationSplit > 0 {
      (training, held) = Trainer.split(all, validationFraction: validationSplit, seed: seed)
      if held?.count == 0 { held = nil }
    }
    if !json {
      Console.print(
        "Training on \(training.count) images (\(all.labelNames.joined(separator: ", "))), validating on \(held?.count ?? 0)"
          + (base.map { ", fine-tuning \($0.record.split(separator: " ")[0])" } ?? ""))
    }

    var options = trainingOptions()
    options.freeze = freeze
    options.capacity = try capacity()
    let progress = ProgressBar(label: "epoch", total: nil)
    var currentEpoch = 1
    let result: TrainingResult
    do {
      result = try Trainer.train(
        training: training, validation: held, options: options, customEmoji: try customEmoji(),
        initial: base?.classifier,
        onBatch: { done, total in
          progress.update(done, total: total, label: "epoch \(currentEpoch)/\(options.epochs)")
        },
        onEpoch: { report in
          progress.finish()
          currentEpoch = report.epoch + 1
          printEpoch(report, of: options.epochs)
        })
    } catch {
      throw CommandFailure("training failed: \(error)", status: .failure)
    }
    printKept(result, validated: held != nil)
    var record = trainingRecord(result, initFrom: base?.record)
    record.frozenLayers = base == nil ? nil : freeze
    // Without --test the per-label scores are the validation images'.
    let validationMatrix = try held.flatMap { set throws -> ConfusionMatrix? in
      test != nil
        ? nil
        : try Evaluation.confusionMatrix(of: result.classifier, on: set, threads: threads).matrix
    }
    try finish(
      result, trainingData: ModelCard.TrainingData(images: all, root: trainingData),
      record: record, held: validationMatrix, createdText: createdText)
  }

  /// The options every kind of training takes from the command line.
  func trainingOptions() -> TrainingOptions {
    var options = TrainingOptions()
    options.epochs = epochs
    options.batchSize = batchSize
    options.learningRate = learningRate
    options.seed = seed
    options.augment = augmentations
    options.threads = threads
    return options
  }

  /// The card's record of a finished run (the kind of training adds its own fields).
  func trainingRecord(_ result: TrainingResult, initFrom: String?) -> ModelCard.TrainingRecord {
    ModelCard.TrainingRecord(
      epochs: epochs, bestEpoch: result.bestEpoch, seed: seed, batchSize: batchSize,
      learningRate: learningRate, augmentations: augmentations.list, initFrom: initFrom)
  }

  /// Which epoch was kept, and why.
  func printKept(_ result: TrainingResult, validated: Bool) {
    guard !json else { return }
    Console.print(
      "Kept epoch \(result.bestEpoch)"
        + (validated ? " (best validation accuracy)" : " (the last; no validation images)"))
  }

  /// Scores the kept model on --test (else reports the validation matrix `held`), writes it
  /// with its model card and prints the summary.
  func finish(
    _ result: TrainingResult, trainingData data: ModelCard.TrainingData,
    record: ModelCard.TrainingRecord, held: ConfusionMatrix?, createdText: String
  ) throws {
    var testAccuracy: Double? = nil
    var scored: (name: String, matrix: ConfusionMatrix)? = held.map { ("validation", $0) }
    if let test {
      let testImages = try loadFolder(
        test, size: result.classifier.inputSize, labels: result.classifier.labelNames,
        minimumLabels: 1)
      let matrix = try Evaluation.confusionMatrix(
        of: result.classifier, on: testImages, threads: threads
      ).matrix
      testAccuracy = matrix.accuracy
      scored = ("test", matrix)
      if !json {
        Console.print("Test accuracy \(percent(matrix.accuracy)) on \(testImages.count) images")
        matrix.rendered().forEach { Console.print($0) }
      }
    }
    let best = result.bestReport
    let card = ModelCard(
      author: author, description: description, license: license, modelVersion: modelVersion,
      created: createdText, trainingData: data, training: record,
      accuracy: ModelCard.Accuracy(
        training: best.trainingAccuracy, validation: best.validationAccuracy, test: testAccuracy),
      evaluation: evaluation, scaryThreshold: scaryThreshold)
    let classifier = result.classifier.with(card: card)
    do {
      try DurableFile(output).write(classifier.encoded())
    } catch {
      throw CommandFailure(error)
    }
    if json {
      Console.printJSON(
        jsonText(
          Summary(
            model: output, keptEpoch: result.bestEpoch, labels: classifier.labelNames, card: card,
            scoredOn: scored?.name, score: scored.map { Scores($0.matrix) })))
      return
    }
    if let scored {
      Console.print("Per label, on the \(scored.name) images:")
      perLabelLines(scored.matrix, labels: classifier.labels).forEach { Console.print($0) }
    }
    Console.print("Wrote \(output)")
  }

  func printEpoch(_ report: EpochReport, of epochs: Int) {
    if json {
      Console.printJSON(
        jsonText(
          EpochLine(
            epoch: report.epoch, epochs: epochs, loss: report.loss,
            trainingAccuracy: report.trainingAccuracy,
            validationAccuracy: report.validationAccuracy, validationLoss: report.validationLoss,
            seconds: (report.seconds * 1000).rounded() / 1000, best: report.isBest)))
      return
    }
    var validationText = report.validationAccuracy.map { "  validation \(percent($0))" } ?? ""
    if let loss = report.validationLoss {
      validationText += CFormat.string(" (loss %.4f)", loss)
    }
    Console.print(
      CFormat.string("epoch %3ld/%ld  loss %.4f  training ", report.epoch, epochs, report.loss)
        + percent(report.trainingAccuracy)
        + validationText + CFormat.string("  (%.1f s)", report.seconds)
        + (report.isBest ? "  *" : ""))
  }
}

/// The label names of a labelled folder (its subfolders), without reading any image.
func scanLabels(_ path: String) throws -> [String] {
  do {
    return try LabelledFolder(scanning: path, minimumLabels: 1).labels
  } catch {
    throw CommandFailure(error)
  }
}
