import Foundation
import LeamojiClassifier

/// Where the model comes from when none is named: `$LEAMOJI_MODEL`, else the shipped
/// `Models/leamoji.safetensors` found from the executable's folder upwards (the repository's
/// `Models/` when run from a build folder), else a share folder.
public enum ModelLocator {
  /// The path to use for `given` (the `--model` option, when set).
  public static func resolve(_ given: String?) -> String {
    if let given { return given }
    if let fromEnvironment = ProcessInfo.processInfo.environment["LEAMOJI_MODEL"],
      !fromEnvironment.isEmpty
    {
      return fromEnvironment
    }
    return shippedModelPath() ?? "Models/leamoji.safetensors"
  }

  /// The shipped model beside the executable or in a share folder, if present.
  public static func shippedModelPath() -> String? {
    let files = FileManager.default
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
    while folder.path != "/" {
      let candidate = folder.appendingPathComponent("Models/leamoji.safetensors").path
      if files.fileExists(atPath: candidate) { return candidate }
      folder.deleteLastPathComponent()
    }
    let shared = [
      "/usr/local/share/leamoji/leamoji.safetensors", "/usr/share/leamoji/leamoji.safetensors",
    ]
    return shared.first { files.fileExists(atPath: $0) }
  }

  /// Reads and validates the model at `path` (named as given in errors).
  public static func load(_ path: String) throws(LeamojiError) -> Classifier {
    do {
      return try Classifier(contentsOf: path)
    } catch {
      throw LeamojiError(error)
    }
  }
}
