import Foundation
import LeamojiTestSupport

/// The built `leamoji-lab` and `leamoji` binaries, which the lab's tests run as a user would.
enum Lab {
  static var binary: String { Repository.leamojiLab }

  /// Runs `leamoji-lab` with `arguments` (COLUMNS fixed, so help wraps the same everywhere).
  static func run(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(binary, arguments, environment: ["COLUMNS": "80"], timeout: 300)
  }

  /// Runs `leamoji` with `arguments`.
  static func leamoji(_ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(Repository.leamoji, arguments, timeout: 600)
  }

  /// A tiny generated training set (16x16 scenes, 12 per label), made once per test run.
  static let trainingData: Result<URL, HarnessError> = {
    do {
      let root = try ScratchFolder.removedAtExit("lab-scenes")
      let made = try run([
        "scenes", "dataset", "--out", root.path, "--train-per-class", "12", "--test-per-class",
        "2", "--size", "16",
      ])
      guard made.status == 0 else { return .failure(HarnessError("scenes: \(made.stderr)")) }
      return .success(root.appendingPathComponent("Training Data"))
    } catch {
      return .failure(HarnessError("\(error)"))
    }
  }()

  /// `leamoji-lab train` on the tiny set (one epoch, fixed seed and date) with `card` options.
  static func train(to output: URL, card: [String] = []) throws -> ProcessResult {
    try run(
      [
        "train", try trainingData.get().path, "--epochs", "1", "--size", "16", "--seed", "7",
        "--created", "2026-11-23T12:00:00Z", "--output", output.path,
      ] + card)
  }
}
