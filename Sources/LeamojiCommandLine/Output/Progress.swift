import FoundationEssentials
import LeamojiCore

/// A one-line progress bar on stderr, drawn only when stderr is a terminal (at most ten times
/// a second). Safe to update from worker threads.
public final class ProgressBar: @unchecked Sendable {
  private var total: Int?
  private var label: String
  private let enabled: Bool
  private let started = Date()
  private var lastDraw = Date.distantPast
  private let lock = ThreadLock()

  public init(label: String, total: Int?, enabled: Bool = Console.stderrIsTerminal) {
    self.label = Console.safe(label)
    self.total = total
    self.enabled = enabled
  }

  /// Redraws with `done` items finished, optionally changing the total and the label.
  public func update(_ done: Int, total newTotal: Int? = nil, label newLabel: String? = nil) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    if let newTotal { total = newTotal }
    if let newLabel { label = Console.safe(newLabel) }
    let now = Date()
    if now.timeIntervalSince(lastDraw) < 0.1 && done != total { return }
    lastDraw = now
    let rate = Double(done) / max(now.timeIntervalSince(started), 0.001)
    var line = "\r\u{1B}[2K\(label) "
    if let total, total > 0 {
      let fraction = min(1, Double(done) / Double(total))
      let width = 30
      let filled = Int(fraction * Double(width))
      line +=
        "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        + "] "
      line += "\(done)/\(total)"
    } else {
      line += "\(done)"
    }
    line += CFormat.string("  %.1f/s", rate)
    Console.writeStderr(line)
  }

  /// Clears the bar so the next output starts on a clean line.
  public func finish() {
    guard enabled else { return }
    Console.writeStderr("\r\u{1B}[2K")
  }
}

/// One status line for all running jobs: `id [####----] 12/30 s  id 5 s`.
public final class BatchProgress: @unchecked Sendable {
  private let lock = ThreadLock()
  private let enabled: Bool
  private var jobs: [(id: String, done: Int, total: Int?)] = []
  private var lastDraw = Date.distantPast

  public init(enabled: Bool) { self.enabled = enabled }

  public func update(_ id: String, done: Int, total: Int?) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    if let i = jobs.firstIndex(where: { $0.id == id }) {
      jobs[i] = (id, done, total)
    } else {
      jobs.append((id, done, total))
    }
    let now = Date()
    guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = now
    let parts = jobs.map { job -> String in
      let name = Console.safe(job.id)
      guard let total = job.total, total > 0 else { return "\(name) \(job.done) s" }
      let filled = min(20, job.done * 20 / total)
      let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled)
      return "\(name) [\(bar)] \(job.done)/\(total) s"
    }
    Console.writeStderr("\r\u{1B}[2K" + parts.joined(separator: "  "))
  }

  public func remove(_ id: String) {
    lock.lock()
    jobs.removeAll { $0.id == id }
    lock.unlock()
  }

  public func clear() {
    guard enabled else { return }
    Console.writeStderr("\r\u{1B}[2K")
  }
}
