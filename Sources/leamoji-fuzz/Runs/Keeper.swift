import Foundation

/// A case whose input was kept: what it is and where it went.
struct Finding {
  let index: Int
  let target: Target
  let command: Command
  let outcome: Outcome
  let reason: String
  let path: String
}

/// Saves the inputs of crashes, hangs and unclear endings under the --keep folder, each with a
/// `.txt` report: the verdict, seed file and mutations, the commands that rerun and replay it,
/// and leamoji's stderr.
struct Keeper {
  let folder: String
  let runSeed: UInt64
  /// `leamoji-fuzz` arguments that reproduce the run's cases (seed, targets, clip length).
  let replayArguments: String
  let seeds: SeedSet

  /// Writes the case's input and report; returns the input's path.
  func keep(_ fuzzCase: FuzzCase, _ run: CaseRunner.Run) throws(FuzzError) -> Finding {
    try makeFolder()
    let path = folder + "/" + fuzzCase.keptName(run.verdict.outcome, runSeed: runSeed)
    try SeedSet.write(fuzzCase.bytes, to: path)
    let rerun = try rerunArguments(fuzzCase.command, input: path)
    let report = """
      outcome: \(run.verdict.outcome.rawValue) — \(run.verdict.reason)
      target: \(fuzzCase.target.rawValue), command \(fuzzCase.command.rawValue), seed file \(fuzzCase.seedName), \(fuzzCase.bytes.count) bytes, \(String(format: "%.1f", run.seconds)) s
      mutations:
      \(fuzzCase.mutations.map { "  - " + $0 }.joined(separator: "\n"))
      rerun:  leamoji \(rerun.map(Self.quoted).joined(separator: " "))
      replay: leamoji-fuzz \(replayArguments) --case \(fuzzCase.index) --verbose
      stderr:
      \(run.stderr.isEmpty ? "(empty)" : run.stderr)
      """
    try SeedSet.write(Array(report.utf8), to: path + ".txt")
    return Finding(
      index: fuzzCase.index, target: fuzzCase.target, command: fuzzCase.command,
      outcome: run.verdict.outcome,
      reason: run.verdict.reason, path: path)
  }

  /// The arguments that run `command` on a kept file; a model case's image is kept beside it.
  func rerunArguments(_ command: Command, input: String) throws(FuzzError) -> [String] {
    var kept = seeds
    if command == .classifyWithModel {
      kept.imagePath = folder + "/classify-image.png"
      if !FileManager.default.fileExists(atPath: kept.imagePath) {
        try SeedSet.write(try SeedSet.read(seeds.imagePath), to: kept.imagePath)
      }
    }
    return command.arguments(input: input, outputFolder: "/tmp", seeds: kept)
  }

  private func makeFolder() throws(FuzzError) {
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw FuzzError("\(folder): cannot create the --keep folder", status: 73)
    }
  }

  /// `text` quoted for a POSIX shell when it holds anything but plain path characters.
  static func quoted(_ text: String) -> String {
    let plain = text.allSatisfy { $0.isLetter || $0.isNumber || "/._-=,+:".contains($0) }
    return plain && !text.isEmpty
      ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
