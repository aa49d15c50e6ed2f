import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Runs `leamoji label` (or another interactive command) in a private tmux window from a script
/// that records its process id and, when leamoji ends, `status=<$?>`.
struct InteractiveRun {
  let tmux = Tmux()
  let work: URL

  /// Starts `leamoji <arguments>` in `work`.
  init(_ arguments: [String], in work: URL) throws {
    self.work = work
    let words = ([CLI.binary] + arguments).map {
      "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let script = "echo $$ > script.pid\n" + words.joined(separator: " ") + "\necho status=$?\n"
    try Data(script.utf8).write(to: work.appendingPathComponent("run.sh"))
    try? FileManager.default.removeItem(at: work.appendingPathComponent("script.pid"))
    try tmux.start(in: work)
    try tmux.type("sh run.sh", "Enter")
  }

  func stop() { tmux.stop() }

  /// The command's process id: the child of the script.
  func pid() -> pid_t? {
    let file = work.appendingPathComponent("script.pid")
    for _ in 0..<300 {
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      if let script = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
        let child = PlaySignalTmuxTests().childPID(of: script)
      {
        return child
      }
      usleep(20_000)
    }
    return nil
  }

  /// Waits (up to `seconds`) until the screen contains `text`; returns the screen.
  @discardableResult
  func wait(for text: String, seconds: Double = 60) throws -> String {
    let deadline = Date().addingTimeInterval(seconds)
    var screen = ""
    repeat {
      screen = try tmux.screen()
      if screen.contains(text) { return screen }
      usleep(20_000)
    } while Date() < deadline
    throw HarnessError("waited \(seconds) s for \"\(text)\"; the screen:\n\(screen)")
  }

  /// Sends `key` and returns the seconds until the screen shows `expected`, polling as fast as
  /// tmux answers (so the figure includes tmux's own delays: an upper bound).
  func press(_ key: String, until expected: String) throws -> Double {
    let start = Date()
    try tmux.type(key)
    while Date().timeIntervalSince(start) < 20 {
      if try tmux.screen().contains(expected) { return Date().timeIntervalSince(start) }
    }
    throw HarnessError("after \(key), \"\(expected)\" never appeared:\n\(try tmux.screen())")
  }

  /// The screen once the script printed `status=N` (up to 30 s), and N.
  func waitForExit() throws -> (screen: String, status: Int?) {
    try PlaySignalTmuxTests().waitForExit(tmux)
  }

  /// True when the terminal is back to normal: main screen, cursor shown, a typed line echoed
  /// and run by the shell.
  func terminalRestored() throws -> Bool {
    guard try !tmux.alternateScreenOn() else { return false }
    let cursor = try tmux.run(["display-message", "-t", tmux.session, "-p", "#{cursor_flag}"])
    guard cursor.stdout.hasPrefix("1") else { return false }
    try tmux.type("echo restored-$((6 * 7))", "Enter")
    for _ in 0..<300 {  // up to 30 s on a busy machine
      if try tmux.screen().contains("restored-42") { return true }
      usleep(100_000)
    }
    return false
  }
}

/// The label folder's PNG files, as `Label/name.png`, sorted.
func labelledFiles(in folder: URL) -> [String] {
  let enumerator = FileManager.default.enumerator(atPath: folder.path)
  var found: [String] = []
  while let name = enumerator?.nextObject() as? String {
    if name.hasSuffix(".png") { found.append(name) }
  }
  return found.sorted()
}

/// The decisions in a label journal, parsed with JSONSerialization (independently of the
/// product's decoder); nil when it is missing or not valid JSON of the documented shape.
func journalDecisions(in folder: URL) -> [[String: Any]]? {
  guard let data = try? Data(contentsOf: folder.appendingPathComponent(".leamoji-label.json")),
    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
    object["format"] as? String == "leamoji-label-journal",
    let decisions = object["decisions"] as? [[String: Any]]
  else { return nil }
  return decisions
}
