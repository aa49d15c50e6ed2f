import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCommandLine
import LeamojiCore

/// `leamoji classify`: the label and probabilities of still images.
struct Classify: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Label still images as happy, neutral or scary (or the model's own labels).",
    discussion: """
      With --json, one line per image: \
      {"file","label","probabilities":{label:p},"logits":[...]}. An image that cannot be read \
      is reported on stderr; the others are still classified, and the exit status is 65. \
      --features adds "features": the numbers the model's last (linear) layer receives, e.g. \
      the 1280 pooled channels of a backbone, to train a head on (implies --json).

      Examples:
        leamoji classify frames/000042.png
        leamoji classify frames/*.png --json --model my-model.safetensors
        leamoji classify frames/000042.png --features
      """
  )

  @Argument(help: "Image files (PNG, JPEG, BMP, WebP, ...).", completion: .file())
  var images: [String]

  @OptionGroup var modelOptions: ModelOptions

  @Flag(help: "Print one JSON object per image.")
  var json = false

  @Flag(help: "Also print each image's pooled features (the last layer's input); implies --json.")
  var features = false

  struct Line: Encodable {
    let file: String
    let label: String
    let probabilities: [String: Float]
    let logits: [Float]
    var features: [Float]? = nil
  }

  func validate() throws {
    if images.isEmpty { throw ValidationError("give at least one image") }
  }

  func run() throws {
    let classifier = try modelOptions.load().classifier
    let names = classifier.labelNames
    var failure: CommandFailure? = nil
    for path in images {
      let prediction: Prediction
      var pooled: [Float]? = nil
      do {
        prediction = try ImageFiles.classify(path: path, with: classifier)
        if features { pooled = try ImageFiles.features(path: path, with: classifier) }
      } catch {
        let problem = CommandFailure(error)
        Console.error(problem.message)
        failure = failure ?? problem
        continue
      }
      let label = prediction.label
      if json || features {
        let probabilities = Dictionary(uniqueKeysWithValues: zip(names, prediction.probabilities))
        let line = Line(
          file: path, label: label.name, probabilities: probabilities, logits: prediction.logits,
          features: pooled)
        Console.printJSON(jsonText(line))
      } else {
        let details = zip(names, prediction.probabilities)
          .map { "\($0) \(CFormat.string("%.3f", $1))" }.joined(separator: ", ")
        Console.print("\(path): \(label.emoji) \(label.name) (\(details))")
      }
    }
    if let failure {
      // Each bad image already has its line on stderr; only the status is left to give.
      throw ExitCode(failure.status.rawValue)
    }
  }
}
