import FoundationEssentials
import LeamojiClassifier
import LeamojiCore
import LeamojiNN
import LeamojiTimeline

/// A model as read from its file: the classifier and the SHA-256 of exactly the bytes it was
/// built from (MovieData.json records the hash as the model's identity).
public struct LoadedModel: Sendable {
  public let classifier: Classifier
  /// SHA-256 of the file, lower-case hex.
  public let sha256: String

  public init(classifier: Classifier, sha256: String) {
    self.classifier = classifier
    self.sha256 = sha256
  }

  /// What an analysis records about the model.
  public var info: ModelInfo { ModelInfo(labels: classifier.labelNames, sha256: sha256) }
}

/// Where the model comes from when none is named, in this order:
///
/// 1. `$LEAMOJI_MODEL`;
/// 2. `../share/leamoji/leamoji.safetensors` from the executable's folder (where
///    `make install` puts it: `PREFIX/bin/leamoji` → `PREFIX/share/leamoji/`);
/// 3. `Models/leamoji.safetensors` in the executable's folder or a folder above it (the
///    repository's `Models/` when run from a build folder);
/// 4. `Models/leamoji.safetensors` in the current folder.
///
/// The executable is found through `/proc/self/exe` (a copied or linked binary still finds its
/// own folder), falling back to `argv[0]`.
public enum ModelLocator {
  /// The search order, as `--help` and the "no model" error state it.
  public static let searchOrder =
    "$LEAMOJI_MODEL, else ../share/leamoji/leamoji.safetensors from the leamoji binary's folder, "
    + "else Models/leamoji.safetensors in the binary's folder or one above it, "
    + "else ./Models/leamoji.safetensors"

  /// The conventional relative path of the shipped model.
  public static let defaultRelativePath = "Models/leamoji.safetensors"

  /// The path to use for `given` (the `--model` option, when set); the last candidate
  /// (`Models/leamoji.safetensors`) when nothing is found, so that the error names a file.
  public static func resolve(_ given: String?) -> String {
    if let given { return given }
    if let fromEnvironment = environmentModel() { return fromEnvironment }
    return shippedModelPath() ?? defaultRelativePath
  }

  /// `$LEAMOJI_MODEL` when set and not empty.
  static func environmentModel() -> String? {
    guard let value = ProcessInfo.processInfo.environment["LEAMOJI_MODEL"], !value.isEmpty else {
      return nil
    }
    return value
  }

  /// The shipped model found by steps 2 to 4 of the search, if present.
  public static func shippedModelPath() -> String? {
    candidates().first { FileManager.default.fileExists(atPath: $0) }
  }

  /// Steps 2 to 4 of the search, in order, for the model file `fileName`.
  static func candidates(fileName: String = "leamoji.safetensors") -> [String] {
    let relative = "Models/" + fileName
    var paths: [String] = []
    if let executable = executablePath() {
      var folder = URL(fileURLWithPath: executable).deletingLastPathComponent()
      paths.append(
        folder.deletingLastPathComponent().appendingPathComponent("share/leamoji/" + fileName)
          .standardizedFileURL.path)
      while true {
        paths.append(folder.appendingPathComponent(relative).path)
        if folder.path == "/" || folder.path.isEmpty { break }
        folder.deleteLastPathComponent()
      }
    }
    paths.append(relative)
    return paths
  }

  /// The file of the pretrained backbone `name` (`train --backbone`): `name` itself when it is
  /// a path (has a `/` or ends in `.safetensors`), else `NAME.safetensors` where the shipped
  /// model is looked for (steps 2 to 4), else `Models/NAME.safetensors`, so the error names it.
  public static func resolveBackbone(_ name: String) -> String {
    if name.contains("/") || name.hasSuffix(".safetensors") { return name }
    let found = candidates(fileName: name + ".safetensors")
    return found.first { FileManager.default.fileExists(atPath: $0) } ?? found.last!
  }

  /// The running executable's real path: `/proc/self/exe`, else `argv[0]` with links resolved.
  static func executablePath() -> String? {
    if let real = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
      real.hasPrefix("/")
    {
      return real
    }
    guard let first = CommandLine.arguments.first, !first.isEmpty else { return nil }
    return URL(fileURLWithPath: first).resolvingSymlinksInPath().path
  }

  /// The identity of the model in use for comparing stored timelines with it (`list`,
  /// `timeline`, `report`): `given` (`--model`), else `$LEAMOJI_MODEL`, else the shipped model;
  /// nil when none was named and none was found. Only the file's hash and its card's
  /// `model_version` are read, not the network.
  /// - Throws: `LeamojiError` when the named model is missing, unreadable or not a model file.
  public static func identity(given: String?) throws(LeamojiError) -> ModelIdentity? {
    if given == nil, environmentModel() == nil, shippedModelPath() == nil { return nil }
    let path = resolve(given)
    let bytes: [UInt8]
    let metadata: [String: String]
    do {
      bytes = try ModelFile.readBytes(path: path)
      metadata = try SafetensorsFile.metadata(bytes, path: path)
    } catch {
      throw LeamojiError(error)
    }
    guard metadata["format"] == ModelFile.format else {
      throw LeamojiError.badInput("\(path): not a leamoji model file")
    }
    return ModelIdentity(sha256: SHA256.hex(bytes), version: metadata["model_version"])
  }

  /// Reads and validates the model at `path` (named as given in errors). When no model was
  /// named (`given` nil) and none was found, the error states where leamoji looked.
  public static func load(_ path: String, given: String? = "") throws(LeamojiError) -> LoadedModel {
    if given == nil, environmentModel() == nil, !FileManager.default.fileExists(atPath: path) {
      throw LeamojiError.noInput(
        "\(path): no such file (no model found: looked at \(searchOrder); "
          + "name one with --model)")
    }
    do {
      let (classifier, bytes) = try Classifier.read(path: path)
      return LoadedModel(classifier: classifier, sha256: SHA256.hex(bytes))
    } catch {
      throw LeamojiError(error)
    }
  }
}
