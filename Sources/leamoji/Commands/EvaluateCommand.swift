import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCommandLine
import LeamojiCore

/// `leamoji evaluate`: how well a model labels a folder of labelled images.
struct Evaluate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract:
      "Score a model on labelled image folders: accuracy, confusion matrix, precision and recall.",
    discussion: """
      <Testing Data> holds one subfolder per label, like the training folder; use images the \
      model never saw in training.

      Examples:
        leamoji evaluate "Testing Data"
        leamoji evaluate my-frames/ --model my-model.safetensors --verbose
        leamoji evaluate "Testing Data" --json
      """
  )

  @Argument(help: "Folder with one subfolder of images per label.", completion: .directory)
  var testingData: String

  @OptionGroup var modelOptions: ModelOptions

  @Flag(help: "List every image with its prediction, true label and probability.")
  var verbose = false

  @Flag(help: "Print the result as one JSON object.")
  var json = false

  struct Report: Encodable {
    struct PerClass: Encodable {
      let count: Int
      let precision: Double?
      let recall: Double?
    }
    struct Image: Encodable {
      let file: String
      let label: String
      let truth: String
      let probability: Float
      let correct: Bool
    }
    let accuracy: Double
    let count: Int
    let labels: [String]
    let confusion: [[Int]]
    let perClass: [String: PerClass]
    let images: [Image]?
  }

  func run() throws {
    let classifier = try modelOptions.load().classifier
    let labels = classifier.labels
    let names = classifier.labelNames
    let images = try loadFolder(
      testingData, size: classifier.inputSize, labels: names, minimumLabels: 1)
    let (matrix, outcomes) = try Evaluation.confusionMatrix(of: classifier, on: images)
    if json {
      let perClass = Dictionary(
        uniqueKeysWithValues: names.indices.map { i in
          (
            names[i],
            Report.PerClass(
              count: matrix.counts[i].reduce(0, +), precision: matrix.precision(i),
              recall: matrix.recall(i))
          )
        })
      let list =
        verbose
        ? outcomes.map {
          Report.Image(
            file: $0.path, label: $0.prediction.label.name, truth: names[$0.truth],
            probability: $0.prediction.confidence, correct: $0.isCorrect)
        } : nil
      let report = Report(
        accuracy: matrix.accuracy, count: matrix.total, labels: names,
        confusion: matrix.counts, perClass: perClass, images: list)
      Console.printJSON(jsonText(report))
      return
    }
    if verbose {
      for outcome in outcomes {
        let mark = outcome.isCorrect ? "ok   " : "WRONG"
        let predicted = outcome.prediction.label
        let confidence = CFormat.string("%.3f", Double(outcome.prediction.confidence))
        Console.print(
          "\(mark)  predicted \(predicted.emoji) \(predicted.name.padded(toWidth: 8))"
            + " true \(names[outcome.truth].padded(toWidth: 8)) p=\(confidence)  \(outcome.path)")
      }
    }
    Console.print("Accuracy \(percent(matrix.accuracy)) on \(matrix.total) images")
    matrix.rendered().forEach { Console.print($0) }
    perLabelLines(matrix, labels: labels).forEach { Console.print($0) }
  }
}

/// Scans and decodes a labelled folder, warning about skipped files (`evaluate`'s; `train` reads
/// its folders through `TrainingPlan`).
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
    throw CommandFailure(error)
  }
}
