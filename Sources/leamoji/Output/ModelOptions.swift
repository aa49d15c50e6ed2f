import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTimeline

/// `--model`, shared by every command that classifies.
struct ModelOptions: ParsableArguments {
  @Option(
    name: .long,
    help: """
      The model file (default: $LEAMOJI_MODEL, else the installed \
      <bin>/../share/leamoji/leamoji.safetensors, else Models/leamoji.safetensors in the \
      binary's folder or one above it, else ./Models/leamoji.safetensors).
      """,
    completion: .file(extensions: ["safetensors"]))
  var model: String?

  /// The path used: `--model`, `$LEAMOJI_MODEL`, or the shipped model.
  func resolvedPath() -> String { ModelLocator.resolve(model) }

  /// The model in use, for telling stored timelines made by another model: nil when none was
  /// named and none was found.
  func identity() throws(LeamojiError) -> ModelIdentity? {
    try ModelLocator.identity(given: model)
  }

  /// Reads and validates the model.
  func load() throws(LeamojiError) -> LoadedModel {
    try ModelLocator.load(resolvedPath(), given: model)
  }
}
