import ArgumentParser
import LeamojiCommandLine
import LeamojiLab

/// `leamoji-lab card`: a model file with model-card fields set, its tensors untouched.
struct Card: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write a copy of a model file with model-card fields set, without retraining.",
    discussion: """
      The network's tensors and every other entry of the file stay as they are; only the \
      card's fields given here change (the rest of the card is kept). The copy is the very \
      file `leamoji-lab train` writes when given the same card options, so a model can be trained \
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

  @OptionGroup var text: CardTextArguments
  @OptionGroup var check: CardCheckArguments

  var edit: CardEdit {
    var edit = CardEdit()
    edit.author = text.author
    edit.description = text.description
    edit.license = text.license
    edit.modelVersion = text.modelVersion
    edit.created = text.created
    edit.evaluation = check.evaluation
    edit.scaryThreshold = check.scaryThreshold
    edit.scaryThresholdHigh = check.scaryThresholdHigh
    edit.scaryThresholdLow = check.scaryThresholdLow
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
