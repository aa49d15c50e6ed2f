/// What one run of leamoji on a mutated input amounted to.
enum Outcome: String, CaseIterable, Comparable {
  /// Exit status 0.
  case accepted
  /// A documented error status and one error line on stderr, starting "leamoji: " and naming the input.
  case clearError = "clear-error"
  /// Any other ending that is not a crash or a hang (status 1 or undocumented, several or no error lines).
  case unclear
  /// Ended by a signal, or a Swift runtime "Fatal error" / crash report on stderr.
  case crash
  /// Still running at the time limit; killed.
  case hang

  /// Whether the input is saved under --keep.
  var isFinding: Bool { self == .unclear || self == .crash || self == .hang }

  static func < (lhs: Outcome, rhs: Outcome) -> Bool {
    allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
  }
}

/// An outcome with the reason for it, e.g. "signal 11 (SIGSEGV)" or "3 error lines".
struct Verdict {
  let outcome: Outcome
  let reason: String

  /// What a shrunk input must keep: the outcome and, for a crash, the signal or status.
  var signature: String {
    outcome.rawValue + " " + (reason.split(separator: ":").first.map(String.init) ?? "")
  }

  /// The error statuses of the README other than 1 ("unexpected failure"): usage, bad input,
  /// missing input, cannot write.
  static let documentedErrors: Set<Int32> = [64, 65, 66, 73]

  /// Judges a finished run. Lines starting "leamoji: warning: " may come with either ending and
  /// are not counted as error lines; the one error line must name one of `inputPaths`.
  init(_ result: ChildResult, inputPaths: [String], timeout: Double) {
    let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true).map(
      String.init)
    let crashLine = lines.first { $0.contains("Fatal error") || $0.contains("Program crashed") }
    if result.timedOut {
      (outcome, reason) = (.hang, "still running after \(Int(timeout)) s")
    } else if let signal = result.signal {
      (outcome, reason) = (
        .crash,
        "signal \(signal) (\(Self.signalName(signal)))" + (crashLine.map { ": \($0)" } ?? "")
      )
    } else if let crashLine {
      (outcome, reason) = (.crash, "status \(result.status ?? -1): \(crashLine)")
    } else if result.status == 0 {
      (outcome, reason) = (.accepted, "status 0")
    } else {
      (outcome, reason) = Self.judgeError(
        status: result.status ?? -1, lines: lines, inputPaths: inputPaths)
    }
  }

  private static func judgeError(status: Int32, lines: [String], inputPaths: [String]) -> (
    Outcome, String
  ) {
    let errors = lines.filter { !$0.hasPrefix("leamoji: warning: ") }
    guard documentedErrors.contains(status) else {
      return (.unclear, "status \(status)" + firstLine(errors))
    }
    guard errors.count == 1, let line = errors.first else {
      return (
        .unclear,
        errors.isEmpty
          ? "status \(status) with no error line"
          : "status \(status) with \(errors.count) error lines" + firstLine(errors)
      )
    }
    guard line.hasPrefix("leamoji: ") else {
      return (.unclear, "error line without the 'leamoji: ' prefix" + firstLine(errors))
    }
    guard inputPaths.contains(where: { line.contains($0) }) else {
      return (.unclear, "error line does not name the input" + firstLine(errors))
    }
    return (.clearError, "status \(status): \(line)")
  }

  private static func firstLine(_ lines: [String]) -> String {
    lines.first.map { ": \($0.prefix(300))" } ?? ""
  }

  static func signalName(_ signal: Int32) -> String {
    let names: [Int32: String] = [
      4: "SIGILL", 5: "SIGTRAP", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE", 9: "SIGKILL",
      11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM",
    ]
    return names[signal] ?? "signal \(signal)"
  }
}
