import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

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

  /// Reads and validates the model.
  func load() throws -> LoadedModel {
    do {
      return try ModelLocator.load(resolvedPath(), given: model)
    } catch {
      throw CommandFailure(error)
    }
  }
}

/// JSON text with sorted keys and unescaped slashes and emoji.
func jsonText<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting =
    pretty
    ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
    : [.sortedKeys, .withoutEscapingSlashes]
  guard let data = try? encoder.encode(value) else { return "{}" }
  return String(decoding: data, as: UTF8.self)
}

/// A percentage with one decimal: `93.3%`.
func percent(_ fraction: Double) -> String { CFormat.string("%.1f%%", fraction * 100) }
