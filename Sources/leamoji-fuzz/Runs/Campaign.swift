import Foundation
import LeamojiCore

/// Runs the cases of a run on `jobs` worker threads, each with its own folder, keeps the
/// findings, and shows progress on stderr when it is a terminal.
struct Campaign {
  let maker: CaseMaker
  let leamoji: String
  let workFolder: String
  let timeout: Double
  let jobs: Int
  let keeper: Keeper
  let verbose: Bool

  /// Runs the cases `indices` and returns their tally.
  func run(_ indices: [Int]) throws(FuzzError) -> Tally {
    let next = Locked(0)
    let tally = Locked(Tally())
    let failure = Locked<FuzzError?>(nil)
    let showProgress = isatty(2) == 1 && !verbose
    let workers = min(jobs, max(1, indices.count))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      let folder = workFolder + "/worker-\(worker)"
      try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      let runner = CaseRunner(
        leamoji: leamoji, folder: folder, seeds: maker.seeds, timeout: timeout)
      while failure.withValue({ $0 == nil }) {
        let position = next.withValue { value in
          defer { value += 1 }
          return value
        }
        guard position < indices.count else { break }
        do throws(FuzzError) {
          let fuzzCase = maker.make(indices[position])
          let run = try runner.run(
            fuzzCase.bytes, target: fuzzCase.target, command: fuzzCase.command)
          let finding = run.verdict.outcome.isFinding ? try keeper.keep(fuzzCase, run) : nil
          let line = tally.withValue { tally in
            tally.add(run.verdict.outcome, target: fuzzCase.target, finding: finding)
            return showProgress ? tally.progressLine(total: indices.count) : nil
          }
          if let line { Self.printError(line, newline: false) }
          if verbose { Self.printError(Self.caseLine(fuzzCase, run)) }
        } catch {
          failure.withValue { $0 = $0 ?? error }
        }
      }
    }
    if showProgress { Self.printError("") }
    if let error = failure.withValue({ $0 }) { throw error }
    return tally.withValue { $0 }
  }

  /// "case 17 video analyze night-walk: clear-error — status 65: leamoji: …  (0.8 s)".
  static func caseLine(_ fuzzCase: FuzzCase, _ run: CaseRunner.Run) -> String {
    "case \(fuzzCase.index) \(fuzzCase.target.rawValue) \(fuzzCase.command.rawValue) \(fuzzCase.seedName): "
      + "\(run.verdict.outcome.rawValue) — \(run.verdict.reason.prefix(240))  "
      + String(format: "(%.1f s; %@)", run.seconds, fuzzCase.mutations.joined(separator: "; "))
  }

  /// Writes `text` to stderr in one write.
  static func printError(_ text: String, newline: Bool = true) {
    _ = FileDescriptor.writeAll(Array((newline ? text + "\n" : text).utf8), to: 2)
  }
}
