import ArgumentParser
import LeamojiLab

/// `leamoji-lab card`: a model file with model-card fields set, its tensors untouched.
struct Card: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a copy of a model file with model-card fields set, without retraining.",
    discussion: """
      The network's tensors and every other entry of the file stay as they are; only the \
      card's fields given here change (the rest of the card is kept). The copy is the very \
      file `leamoji train` writes when given the same card options, so a model can be trained \
      once, checked (which tunes its scary thresholds) and then carry the thresholds and the \
      check's figures. The options are checked as train checks them. OUTPUT is written \
      atomically and never replaced without --overwrite (it may be MODEL itself).

      Examples:
        leamoji-lab card trained.safetensors --output Models/leamoji.safetensors \\
          --scary-threshold 0.4 --scary-threshold-high 0.3 \\
          --scary-threshold-low 0.42 --evaluation "real check set: ..."
        leamoji-lab card m.safetensors --output m.safetensors --overwrite \\
          --version 2.6
      """
  )

  @Argument(help: "The model file to copy.", completion: .file(extensions: ["safetensors"]))
  var model: String

  @Option(help: "Where to write the copy.", completion: .file(extensions: ["safetensors"]))
  var output: String

  @Flag(help: "Replace the output file if it exists.")
  var overwrite = false

  @Option(help: "Model card: who made the model.")
  var author: String?

  @Option(help: "Model card: what the model is for.")
  var description: String?

  @Option(help: "Model card: the model's licence (e.g. MIT, CC-BY-4.0).")
  var license: String?

  @Option(name: .customLong("version"), help: "Model card: the model's version (e.g. 1.0).")
  var modelVersion: String?

  @Option(help: "Model card: creation date, ISO 8601 or seconds since 1970.")
  var created: String?

  @Option(help: "Model card: what the model was checked on and how it did (free text).")
  var evaluation: String?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability from which analyze calls a second scary by default.",
      valueName: "p"))
  var scaryThreshold: Double?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability for analyze --sensitivity high.", valueName: "p"))
  var scaryThresholdHigh: Double?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability for analyze --sensitivity low.", valueName: "p"))
  var scaryThresholdLow: Double?

  var edit: CardEdit {
    var edit = CardEdit()
    edit.author = author
    edit.description = description
    edit.license = license
    edit.modelVersion = modelVersion
    edit.created = created
    edit.evaluation = evaluation
    edit.scaryThreshold = scaryThreshold
    edit.scaryThresholdHigh = scaryThresholdHigh
    edit.scaryThresholdLow = scaryThresholdLow
    return edit
  }

  func validate() throws {
    if let problem = edit.problem { throw ValidationError(problem) }
  }

  func run() throws {
    try edit.write(model: model, to: output, overwrite: overwrite)
    print("Wrote \(output)")
  }
}
