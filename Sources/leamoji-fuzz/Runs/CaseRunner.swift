import Foundation

/// Runs leamoji on mutants inside one worker's folder: writes the mutant as `input.<ext>`,
/// empties the output folder, runs the command with the time limit and judges the ending.
struct CaseRunner {
  let leamoji: String
  let folder: String
  let seeds: SeedSet
  let timeout: Double

  /// One finished run: its verdict, the arguments given and what leamoji wrote on stderr.
  struct Run {
    let verdict: Verdict
    let arguments: [String]
    let stderr: String
    let seconds: Double
  }

  /// Runs `command` on `bytes` written as the mutant of `target`.
  func run(_ bytes: [UInt8], target: Target, command: Command) throws(FuzzError) -> Run {
    let input = folder + "/input.\(target.fileExtension)"
    let output = folder + "/out"
    let files = FileManager.default
    try? files.removeItem(atPath: output)
    do { try files.createDirectory(atPath: output, withIntermediateDirectories: true) } catch {
      throw FuzzError("\(output): cannot create the folder")
    }
    try SeedSet.write(bytes, to: input)
    let arguments = command.arguments(input: input, outputFolder: output, seeds: seeds)
    let result = try ChildProcess(
      executable: leamoji, arguments: arguments, folder: folder, timeout: timeout
    ).run()
    let verdict = Verdict(result, inputPaths: [input], timeout: timeout)
    return Run(
      verdict: verdict, arguments: arguments, stderr: result.stderr, seconds: result.seconds)
  }
}
