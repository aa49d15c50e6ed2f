import Foundation
import LeamojiTestSupport
import Testing

/// Inputs on which the mutation fuzzer (`make fuzz`, Sources/leamoji-fuzz) saw leamoji end
/// badly, shrunk and kept in Fixtures/fuzz-regressions/. A file's name gives its command:
/// `video-analyze-…` (poster on), `video-analyze-no-poster-…`, `video-frames-…`,
/// `image-classify-…`, `image-analyze-no-poster-…`, and `model-classify-model-…` (the file is
/// the model that classifies `classify-image.png`). Each must end without a signal, with
/// status 0 or a documented error status and one error line that names the file.
@Suite struct FuzzRegressionTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/fuzz-regressions")

  /// Address space each run may use: 4 GiB, ten times what analysing 8K video needs.
  static let memoryLimit = 4 << 30

  /// The image every model case classifies.
  static let image = folder.appendingPathComponent("classify-image.png").path

  /// The kept inputs: every fixture but the shared image.
  static let inputs: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    .filter { $0 != "classify-image.png" && !$0.hasPrefix(".") }
    .sorted()

  @Test(arguments: inputs)
  func endsWithSuccessOrOneClearError(_ name: String) throws {
    let input = Self.folder.appendingPathComponent(name).path
    let output = try ScratchFolder.url("fuzz-regression")
    defer { try? FileManager.default.removeItem(at: output) }
    let arguments = try #require(
      Self.arguments(for: name, input: input, output: output.path), "no command for \(name)")
    // Under an address-space limit, so an input that makes leamoji allocate gigabytes fails
    // here (as a crash) instead of taking the machine's memory.
    let result = try ProcessRunner.run(
      "prlimit", ["--as=\(Self.memoryLimit)", CLI.binary] + arguments)
    #expect(!result.signalled, "\(name): ended by signal \(result.status)\n\(result.stderr)")
    guard !result.signalled, result.status != 0 else { return }
    #expect(
      [64, 65, 66, 73].contains(result.status), "\(name): status \(result.status)\n\(result.stderr)"
    )
    let errors = result.stderrLines.filter { !$0.hasPrefix("leamoji: warning: ") }
    #expect(errors.count == 1, "\(name): \(errors.count) error lines\n\(result.stderr)")
    if let line = errors.first {
      #expect(
        line.hasPrefix("leamoji: ") && line.contains(input),
        "\(name): the error line does not name the file: \(line)")
    }
  }

  /// The leamoji arguments for a kept input, from its name's prefix.
  static func arguments(for name: String, input: String, output: String) -> [String]? {
    let movieData = output + "/MovieData.json"
    let commands: [(prefix: String, arguments: [String])] = [
      ("video-analyze-no-poster-", ["analyze", input, "--output", movieData, "--no-poster"]),
      ("video-analyze-", ["analyze", input, "--output", movieData]),
      ("video-frames-", ["frames", input, "--out", output + "/frames"]),
      ("image-classify-", ["classify", input]),
      ("image-analyze-no-poster-", ["analyze", input, "--output", movieData, "--no-poster"]),
      ("model-classify-model-", ["classify", image, "--model", input]),
    ]
    return commands.first { name.hasPrefix($0.prefix) }?.arguments
  }
}
