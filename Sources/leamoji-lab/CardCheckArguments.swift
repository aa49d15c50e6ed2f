import ArgumentParser
import LeamojiCommandLine

/// The card's fields a check decides: what the model was checked on, and the scary thresholds
/// tuned there. `leamoji-lab train` and `leamoji-lab card` take them (with the authorship of
/// `CardTextArguments`).
struct CardCheckArguments: ParsableArguments {
  @Option(help: "Model card: what the model was checked on and how it did (free text).")
  var evaluation: String?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability from which analyze calls a second scary by default (tuned on a check set).",
      valueName: "p"))
  var scaryThreshold: Double?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability for analyze --sensitivity high (default half of --scary-threshold).",
      valueName: "p"))
  var scaryThresholdHigh: Double?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability for analyze --sensitivity low (default half-way from --scary-threshold to 1).",
      valueName: "p"))
  var scaryThresholdLow: Double?

  /// Sets the fields on the workshop's training choices.
  func apply(to choices: inout LabChoices) {
    choices.evaluation = evaluation
    choices.scaryThreshold = scaryThreshold
    choices.scaryThresholdHigh = scaryThresholdHigh
    choices.scaryThresholdLow = scaryThresholdLow
  }
}
