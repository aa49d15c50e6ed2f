import ArgumentParser
import Foundation
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// `leamoji train`: trains the CNN on labelled image folders, as Create ML's image classifier.
struct Train: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Train the mood classifier on labelled image folders.",
    discussion: """
      <Training Data> holds one subfolder per label (Happy/, Neutral/, Scary/, ...); labels are \
      the folder names in lower case. A share of each label is held out for validation (or give \
      --validation DIR); the epoch with the best validation accuracy is kept. With --test, the \
      kept model is scored on a separate folder with a confusion matrix. The same data, options \
      and --seed give a byte-identical model file.

      Examples:
        leamoji train "Training Data" --test "Testing Data" \\
          --output my-model.safetensors
        leamoji train frames-sorted/ --epochs 20 --augment flip,crop,exposure \\
          --emoji angry=😡
      """
  )

  @Argument(help: "Folder with one subfolder of images per label.", completion: .directory)
  var trainingData: String

  @Option(help: "Folder laid out the same way, scored once at the end.", completion: .directory)
  var test: String?

  @Option(
    help: "Validation folder (instead of holding out part of the training data).",
    completion: .directory)
  var validation: String?

  @Option(help: "Share of each label held out for validation when --validation is not given.")
  var validationSplit: Double = 0.1

  @Option(help: "Passes over the training data.")
  var epochs = 12

  @Option(help: "Images per training step.")
  var batchSize = 32

  @Option(help: "AdamW learning rate (decays along a cosine to 5 %).")
  var learningRate: Float = 0.003

  @Option(help: "Seed for initialisation, shuffling, augmentation and the validation split.")
  var seed: UInt64 = 42

  @Option(help: "Augmentations: a comma-separated list of flip, crop, exposure, noise (or none).")
  var augment = "flip,crop"

  @Option(help: "Input size of the network in pixels (square).")
  var size = 64

  @Option(help: "Emoji for a label, as label=emoji (repeatable).")
  var emoji: [String] = []

  @Option(help: "Where to write the model.", completion: .file(extensions: ["safetensors"]))
  var output = "leamoji.safetensors"

  @Flag(help: "Replace the output file if it exists.")
  var overwrite = false

  @Option(help: "Threads for training (the model does not depend on it).")
  var threads = Classifier.defaultThreads

  func validate() throws {
    guard epochs >= 1, epochs <= 10_000 else {
      throw ValidationError("--epochs must be 1 to 10000")
    }
    guard batchSize >= 1, batchSize <= 4096 else {
      throw ValidationError("--batch-size must be 1 to 4096")
    }
    guard learningRate > 0, learningRate < 10, learningRate.isFinite else {
      throw ValidationError("--learning-rate must be positive and small")
    }
    guard validationSplit >= 0, validationSplit < 1 else {
      throw ValidationError("--validation-split must be in [0, 1)")
    }
    guard size >= 8, size <= 512, size % 8 == 0 else {
      throw ValidationError("--size must be a multiple of 8 from 8 to 512")
    }
    guard Augmentation(parsing: augment) != nil else {
      throw ValidationError(
        "--augment takes a comma-separated list of flip, crop, exposure, noise, or none")
    }
    guard threads >= 1, threads <= 256 else { throw ValidationError("--threads must be 1 to 256") }
    _ = try customEmoji()
  }

  /// The `--emoji` entries by lower-cased label (later entries win); the standard labels keep
  /// their own emoji unless given here.
  func customEmoji() throws -> [String: String] {
    var map: [String: String] = [:]
    for entry in emoji {
      let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw ValidationError("--emoji takes label=emoji, e.g. angry=😡 (got '\(entry)')")
      }
      map[parts[0].lowercased()] = parts[1]
    }
    return map
  }

  func run() throws {
    if !overwrite, FileManager.default.fileExists(atPath: output) {
      throw CommandFailure(
        "\(output): already exists; choose another --output or pass --overwrite",
        status: .cannotWrite)
    }
    let inputSize = PixelSize(width: size, height: size)
    let all = try loadFolder(trainingData, size: inputSize, labels: nil, minimumLabels: 2)
    var training = all
    var held: ImageSet? = nil
    if let validation {
      held = try loadFolder(validation, size: inputSize, labels: all.labelNames, minimumLabels: 1)
    } else if validationSplit > 0 {
      (training, held) = Trainer.split(all, validationFraction: validationSplit, seed: seed)
      if held?.count == 0 { held = nil }
    }
    Console.print(
      "Training on \(training.count) images (\(all.labelNames.joined(separator: ", "))), validating on \(held?.count ?? 0)"
    )

    var options = TrainingOptions()
    options.epochs = epochs
    options.batchSize = batchSize
    options.learningRate = learningRate
    options.seed = seed
    options.augment = Augmentation(parsing: augment) ?? []
    options.threads = threads
    let progress = ProgressBar(label: "epoch", total: nil)
    var currentEpoch = 1
    let result: TrainingResult
    do {
      result = try Trainer.train(
        training: training, validation: held, options: options, customEmoji: try customEmoji(),
        onBatch: { done, total in
          progress.update(done, total: total, label: "epoch \(currentEpoch)/\(options.epochs)")
        },
        onEpoch: { report in
          progress.finish()
          currentEpoch = report.epoch + 1
          var validationText = report.validationAccuracy.map { "  validation \(percent($0))" } ?? ""
          if let loss = report.validationLoss {
            validationText += String(format: " (loss %.4f)", loss)
          }
          Console.print(
            String(
              format: "epoch %3d/%d  loss %.4f  training %@", report.epoch, options.epochs,
              report.loss, percent(report.trainingAccuracy))
              + validationText + String(format: "  (%.1f s)", report.seconds)
              + (report.isBest ? "  *" : ""))
        })
    } catch {
      throw CommandFailure("training failed: \(error)", status: .failure)
    }
    Console.print(
      "Kept epoch \(result.bestEpoch)"
        + (held == nil ? " (the last; no validation images)" : " (best validation accuracy)"))

    if let test {
      let testImages = try loadFolder(
        test, size: inputSize, labels: result.classifier.labelNames, minimumLabels: 1)
      let matrix = try Evaluation.confusionMatrix(
        of: result.classifier, on: testImages, threads: threads
      ).matrix
      Console.print("Test accuracy \(percent(matrix.accuracy)) on \(testImages.count) images")
      matrix.rendered().forEach { Console.print($0) }
    }
    do {
      try DurableFile(output).write(result.classifier.encoded())
    } catch {
      throw CommandFailure(error)
    }
    Console.print("Wrote \(output)")
  }
}

/// Scans and decodes a labelled folder, warning about skipped files.
func loadFolder(_ path: String, size: PixelSize, labels: [String]?, minimumLabels: Int) throws
  -> ImageSet
{
  do {
    let folder = try LabelledFolder(scanning: path, minimumLabels: minimumLabels)
    let progress = ProgressBar(label: "reading \(path)", total: folder.items.count)
    let (images, skipped) = try ImageSet.load(
      folder, size: size, labelNames: labels, threads: Classifier.defaultThreads,
      decode: ImageFiles.decoder,
      progress: { progress.update($0) })
    progress.finish()
    if let first = skipped.first {
      Console.warning("\(path): skipped \(skipped.count) unreadable file(s), e.g. \(first.reason)")
    }
    return images
  } catch {
    throw CommandFailure(error.description, status: error.exitStatus)
  }
}

extension DatasetError {
  var exitStatus: ExitStatus {
    switch self {
    case .notFound, .notAFolder, .unreadable: return .noInput
    default: return .badInput
    }
  }
}
