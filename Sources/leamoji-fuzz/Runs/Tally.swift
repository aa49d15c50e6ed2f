import Foundation

/// Counts of outcomes, overall and per target, and the summary printed at the end.
struct Tally {
  private(set) var counts: [Outcome: Int] = [:]
  private(set) var byTarget: [Target: [Outcome: Int]] = [:]
  private(set) var findings: [Finding] = []
  var cases: Int { counts.values.reduce(0, +) }

  subscript(outcome: Outcome) -> Int { counts[outcome, default: 0] }

  mutating func add(_ outcome: Outcome, target: Target, finding: Finding?) {
    counts[outcome, default: 0] += 1
    byTarget[target, default: [:]][outcome, default: 0] += 1
    if let finding { findings.append(finding) }
  }

  /// One line of counts: "12 accepted, 180 clear errors, 8 unclear, 0 crashes, 0 hangs".
  static func countsLine(_ counts: [Outcome: Int]) -> String {
    let c = { (outcome: Outcome) in counts[outcome, default: 0] }
    return "\(c(.accepted)) accepted, \(c(.clearError)) clear errors, \(c(.unclear)) unclear, "
      + "\(c(.crash)) crashes, \(c(.hang)) hangs"
  }

  /// The end-of-run report: the summary line, one line per target, then each finding.
  func summary(seed: UInt64, seconds: Double) -> String {
    let rate = seconds > 0 ? Double(cases) / seconds : 0
    var lines = [
      "leamoji-fuzz: \(cases) cases (seed \(seed)): \(Self.countsLine(counts)) in "
        + String(format: "%.1f s (%.2f cases/s)", seconds, rate)
    ]
    for target in Target.allCases {
      guard let counts = byTarget[target] else { continue }
      lines.append(
        "  \(target.rawValue): \(counts.values.reduce(0, +)) cases, \(Self.countsLine(counts))")
    }
    for finding in findings.sorted(by: { ($0.outcome, $1.index) > ($1.outcome, $0.index) }) {
      lines.append(
        "  \(finding.outcome.rawValue): case \(finding.index) \(finding.target.rawValue) \(finding.command.rawValue) — \(finding.reason.prefix(200))"
      )
      lines.append("    kept: \(finding.path)")
    }
    return lines.joined(separator: "\n")
  }

  /// The progress line shown on a terminal: "  123/200  accepted 40  clear 70  ...".
  func progressLine(total: Int) -> String {
    "\r  \(cases)/\(total)  accepted \(self[.accepted])  clear \(self[.clearError])  unclear \(self[.unclear])  "
      + "crashes \(self[.crash])  hangs \(self[.hang])\u{1B}[K"
  }
}
