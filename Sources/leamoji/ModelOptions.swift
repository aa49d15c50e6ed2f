import ArgumentParser
import Foundation
import LeamojiClassifier
import LeamojiCore
import LeamojiVideo

/// `--model`, shared by every command that classifies.
struct ModelOptions: ParsableArguments {
  @Option(
    name: .long,
    help: "The model file (default: $LEAMOJI_MODEL, else the shipped Models/leamoji.safetensors).",
    completion: .file(extensions: ["safetensors"]))
  var model: String?

  /// The path used: `--model`, `$LEAMOJI_MODEL`, or the shipped model found next to the
  /// executable (the repository's `Models/` when run from a build folder) or in a share folder.
  func resolvedPath() -> String {
    if let model { return model }
    if let fromEnvironment = ProcessInfo.processInfo.environment["LEAMOJI_MODEL"], !fromEnvironment.isEmpty {
      return fromEnvironment
    }
    return ModelOptions.shippedModelPath() ?? "Models/leamoji.safetensors"
  }

  static func shippedModelPath() -> String? {
    let fm = FileManager.default
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    while folder.path != "/" {
      let candidate = folder.appendingPathComponent("Models/leamoji.safetensors").path
      if fm.fileExists(atPath: candidate) { return candidate }
      folder.deleteLastPathComponent()
    }
    for shared in ["/usr/local/share/leamoji/leamoji.safetensors", "/usr/share/leamoji/leamoji.safetensors"]
    where fm.fileExists(atPath: shared) {
      return shared
    }
    return nil
  }

  /// Reads and validates the model; errors name the file as the user gave it.
  func load() throws -> (classifier: Classifier, path: String) {
    let path = resolvedPath()
    do {
      return (try Classifier(contentsOf: path), path)
    } catch {
      throw CommandFailure(error)
    }
  }
}

extension CommandFailure {
  init(_ error: ModelFileError) {
    switch error.problem {
    case .fileNotFound, .unreadable: self.init(error.description, status: .noInput)
    default: self.init(error.description, status: .badInput)
    }
  }
}

/// Decodes images for the classifier with the video module (the classifier never sees FFmpeg).
let decodeImageFile: @Sendable (String, PixelSize) throws -> RGBImage = { path, size in
  try ImageCodec.decode(path: path, size: size)
}

/// JSON text with sorted keys and unescaped slashes and emoji.
func jsonText<T: Encodable>(_ value: T, pretty: Bool = false) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = pretty ? [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
  guard let data = try? encoder.encode(value) else { return "{}" }
  return String(decoding: data, as: UTF8.self)
}

/// A percentage with one decimal: `93.3%`.
func percent(_ fraction: Double) -> String { String(format: "%.1f%%", fraction * 100) }
