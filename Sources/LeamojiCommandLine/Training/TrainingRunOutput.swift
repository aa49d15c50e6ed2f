import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// `train`'s run: the plan from the arguments, one `TrainingPlan.run`, the printing.
extension TrainingArguments {
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
    /// With --init and --test: the base model and the taught one on the test images.
    let check: CheckSummary?

    enum CodingKeys: String, CodingKey {
      case model, labels, card, score, check
      case keptEpoch = "kept_epoch"
      case scoredOn = "scored_on"
    }
  }

  /// Trains as the options and the workshop's choices ask, printing as `leamoji train` does.
  public func run(_ lab: LabChoices) throws {
    let plan = try self.plan(lab)
    let outcome: TrainingOutcome
    do {
      outcome = try plan.run(events: TrainingPrinter(json: json).show)
    } catch {
      throw CommandFailure(error)
    }
    if json {
      Console.printJSON(
        jsonText(
          Summary(
            model: outcome.output, keptEpoch: outcome.keptEpoch,
            labels: outcome.classifier.labelNames, card: outcome.card,
            scoredOn: outcome.scoredOn, score: outcome.score.map { Scores($0) },
            check: outcome.check.map(CheckSummary.init))))
      return
    }
    if let routing = outcome.routing {
      let total = routing.primary + routing.between + routing.secondary
      Console.print(
        "The gate hands \(routing.primary) of the \(total) training pictures to the primary expert (the one taught), \(routing.between) partly, \(routing.secondary) to the secondary"
      )
    }
    if let scoredOn = outcome.scoredOn, let score = outcome.score {
      Console.print("Per label, on the \(scoredOn) images:")
      // The scored model's labels: the gate's (primary, secondary) after --experts.
      let labels = score.labels.map { name in
        outcome.classifier.labels.first { $0.name == name } ?? Label(name: name)
      }
      perLabelLines(score, labels: labels).forEach { Console.print($0) }
    }
    if let check = outcome.check {
      checkLines(check, labels: outcome.classifier.labels).forEach { Console.print($0) }
    }
    Console.print("Wrote \(outcome.output)")
  }

  /// The training the options and the workshop's choices ask for.
  func plan(_ lab: LabChoices) throws -> TrainingPlan {
    var plan = TrainingPlan(trainingData: trainingData, decode: ImageFiles.decoder)
    if let backbone {
      plan.start = .backbone(path: ModelLocator.resolveBackbone(backbone))
    } else if let given = self.`init` {
      plan.start = .model(
        path: given == "default" ? ModelLocator.resolve(nil) : given, name: given)
    }
    plan.validation = validation
    plan.validationSplit = validationSplit
    plan.test = test
    plan.options.epochs = epochs
    plan.options.batchSize = batchSize
    if let learningRate {
      plan.options.learningRate = learningRate
      plan.options.teachingRate = learningRate
    }
    plan.options.seed = seed
    plan.options.l2 = lab.l2
    plan.options.l2SP = l2SP
    plan.options.augment = augmentations
    plan.options.threads = threads
    plan.options.freeze = freeze
    plan.options.capacity = try lab.capacity()
    plan.options.balanceLabels = lab.balance
    plan.inputSize = lab.inputSize
    plan.emoji = try customEmoji()
    plan.hidden = lab.hidden
    plan.fineTune = lab.fineTune
    plan.experts = try lab.expertFiles()
    plan.featureCache =
      featureCache == "none" ? .none : featureCache.map { .folder($0) } ?? .standard
    plan.output = output
    plan.overwrite = overwrite
    plan.card.author = card.author
    plan.card.description = card.description
    plan.card.license = card.license
    plan.card.modelVersion = card.modelVersion
    plan.card.evaluation = lab.evaluation
    plan.card.scaryThreshold = lab.scaryThreshold
    plan.card.scaryThresholdHigh = lab.scaryThresholdHigh
    plan.card.scaryThresholdLow = lab.scaryThresholdLow
    plan.created = card.created
    plan.sourceDateEpoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"]
    return plan
  }
}

/// Prints a training run's events: progress bars and warnings on stderr, the epochs and the
/// summary lines on stdout (only the epochs' JSON lines with `--json`).
final class TrainingPrinter: @unchecked Sendable {
  private let json: Bool
  private let lock = ThreadLock()
  private var bar: ProgressBar?

  init(json: Bool) { self.json = json }

  func show(_ event: TrainingEvent) {
    lock.lock()
    defer { lock.unlock() }
    switch event {
    case .readingStarted(let reading, let folder, let total):
      let label = reading == .images ? "reading \(folder)" : "features of \(folder)"
      bar = ProgressBar(label: label, total: total)
    case .reading(_, _, let done):
      bar?.update(done)
    case .readingFinished:
      bar?.finish()
      bar = nil
    case .skipped(let folder, let count, let example):
      Console.warning("\(folder): skipped \(count) unreadable file(s), e.g. \(example)")
    case .started(let start):
      guard !json else { return }
      let labels = start.labels.joined(separator: ", ")
      if let backbone = start.backbone {
        Console.print(
          "Training a head on \(start.trainingImages) images (\(labels)), validating on \(start.validationImages), backbone \(backbone)"
        )
      } else {
        Console.print(
          "Training on \(start.trainingImages) images (\(labels)), validating on \(start.validationImages)"
            + (start.fineTuning.map { ", fine-tuning \($0)" } ?? ""))
      }
    case .batch(let epoch, let epochs, let done, let total):
      if bar == nil { bar = ProgressBar(label: "epoch", total: nil) }
      bar?.update(done, total: total, label: "epoch \(epoch)/\(epochs)")
    case .epoch(let report, let epochs):
      bar?.finish()
      bar = nil
      printEpoch(report, of: epochs)
    case .kept(let epoch, let validated):
      guard !json else { return }
      Console.print(
        "Kept epoch \(epoch)"
          + (validated ? " (best validation accuracy)" : " (the last; no validation images)"))
    case .tested(let matrix, let images):
      guard !json else { return }
      Console.print("Test accuracy \(percent(matrix.accuracy)) on \(images) images")
      matrix.rendered().forEach { Console.print($0) }
    }
  }

  private func printEpoch(_ report: EpochReport, of epochs: Int) {
    if json {
      Console.printJSON(
        jsonText(
          TrainingArguments.EpochLine(
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
