import Foundation

/// The repository the tests run in, its shipped assets and fixture files, and the built binary.
public enum Repository {
  /// The repository's root (this file is `Tests/LeamojiTestSupport/Repository.swift`).
  public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// `relative` inside the repository.
  public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

  /// The path of `relative` inside the repository.
  public static func path(_ relative: String) -> String { url(relative).path }

  /// The shipped default model (`Models/leamoji.safetensors`: since 2.0 a mood head on
  /// EfficientNet-Lite0, 3x224x224 input).
  public static let modelPath = path("Models/leamoji.safetensors")

  /// The shipped backbone (`Models/efficientnet-lite0.safetensors`).
  public static let backbonePath = path("Models/efficientnet-lite0.safetensors")

  /// The model shipped as 1.2 (a 64x64 CNN with a model card), kept as a fixture: a file an
  /// earlier version wrote, which must keep loading, and the CNN tests' real trained network.
  public static let cnnModelPath = path(
    "Tests/LeamojiClassifierTests/Fixtures/leamoji-1.2.safetensors")

  /// The model shipped until issue 11, kept as a fixture: a file written before the classifier
  /// took over the model metadata and before model cards.
  public static let oldModelPath = path(
    "Tests/LeamojiClassifierTests/Fixtures/leamoji-2026-11-22.safetensors")

  /// The bundled sample videos (`SampleVideos/`), their names, and one of them.
  public static let sampleVideos = url("SampleVideos")
  public static let sampleNames = ["meadow-storm", "night-walk", "party-cellar"]
  public static func sampleVideo(_ name: String) -> String {
    sampleVideos.appendingPathComponent("\(name).mp4").path
  }

  /// The CLI tests' fixtures (goldens, hostile inputs, models).
  public static let cliFixtures = url("Tests/LeamojiCLITests/Fixtures")

  /// The sample videos' timeline as leamoji wrote it (the CLI tests' golden file).
  public static let sampleCatalogue = cliFixtures.appendingPathComponent(
    "golden/sample-videos.MovieData.json")

  /// The folder holding the built products (the test runner sits next to the binary).
  public static let productsFolder: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/"
      && !FileManager.default.fileExists(atPath: url.appendingPathComponent("leamoji").path)
    {
      url.deleteLastPathComponent()
    }
    return url
  }()

  /// The built `leamoji` binary.
  public static var leamoji: String { productsFolder.appendingPathComponent("leamoji").path }

  /// Whether `LEAMOJI_UPDATE_GOLDEN` is set (and not 0): golden tests then rewrite their
  /// committed files instead of comparing, and fail so that such a run never passes.
  public static var updatingGoldens: Bool {
    ProcessInfo.processInfo.environment["LEAMOJI_UPDATE_GOLDEN"].map { !$0.isEmpty && $0 != "0" }
      ?? false
  }

  /// The built `leamoji-lab` binary (the model's workshop).
  public static var leamojiLab: String {
    productsFolder.appendingPathComponent("leamoji-lab").path
  }
}
