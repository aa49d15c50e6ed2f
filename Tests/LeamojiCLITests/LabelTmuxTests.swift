import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `leamoji label` driven by keys in a real terminal (tmux): files in the right folders, undo,
/// resuming from the journal, the test share, the orders, the screen's reaction time, and the
/// terminal given back after q, Ctrl-C and SIGTERM.
@Suite("leamoji label", .serialized)
struct LabelTmuxTests {
  static let video = Repository.root
    .appendingPathComponent("SampleVideos/night-walk.mp4").path

  /// The guess shown on screen (`guess 😐 neutral 97%`): the label name.
  static func guess(on screen: String) -> String? {
    guard let range = screen.range(of: #"guess \S+ [a-z]+ "#, options: .regularExpression) else {
      return nil
    }
    return screen[range].split(separator: " ").dropFirst(2).first.map(String.init)
  }

  @Test("not a terminal: exit 64 and a one-line hint")
  func notATerminal() throws {
    let work = try ScratchFolder.url("label-tty")
    defer { try? FileManager.default.removeItem(at: work) }
    let result = try CLI.leamoji([
      "label", Self.video, "--into", work.appendingPathComponent("labels").path,
    ])
    #expect(result.status == 64)
    #expect(
      result.stderrLines.count == 1 && result.stderr.contains("terminal")
        && result.stderr.contains("leamoji frames"), "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("labels").path))
  }

  @Test("in a terminal, a missing source or a damaged journal is one line and exit 66 / 65")
  func badInputs() throws {
    let work = try ScratchFolder.url("label-bad")
    defer { try? FileManager.default.removeItem(at: work) }
    let labels = work.appendingPathComponent("labels")
    var run = try InteractiveRun(
      ["label", work.appendingPathComponent("missing.mp4").path, "--into", labels.path], in: work)
    var (screen, status) = try run.waitForExit()
    run.stop()
    #expect(status == 66, "\(screen)")
    #expect(screen.contains("missing.mp4: no such file"), "\(screen)")

    try FileManager.default.createDirectory(at: labels, withIntermediateDirectories: true)
    let journal = labels.appendingPathComponent(".leamoji-label.json")
    try Data("{ not json".utf8).write(to: journal)
    run = try InteractiveRun(["label", Self.video, "--into", labels.path], in: work)
    (screen, status) = try run.waitForExit()
    run.stop()
    #expect(status == 65, "\(screen)")
    #expect(screen.contains(".leamoji-label.json: not a label journal"), "\(screen)")
    #expect(try String(contentsOf: journal, encoding: .utf8) == "{ not json", "left as it was")
    #expect(labelledFiles(in: labels).isEmpty)
  }

  @Test(
    "keys file frames under Happy/Neutral/Scary, u undoes, q restores; a second run resumes and undoes across runs"
  )
  func keysUndoResume() throws {
    let work = try ScratchFolder.url("label-keys")
    defer { try? FileManager.default.removeItem(at: work) }
    let labels = work.appendingPathComponent("labels")
    let arguments = ["label", Self.video, "--into", labels.path, "--order", "time"]
    var run = try InteractiveRun(arguments, in: work)
    defer { run.stop() }
    try run.wait(for: "frame 1 of 24")
    #expect(try run.tmux.alternateScreenOn())
    let coloured = try run.tmux.screen(escapes: true)
    #expect(coloured.contains("\u{1B}[38;2;") && coloured.contains("▀"), "the frame in half blocks")

    _ = try run.press("s", until: "frame 2 of 24")  // scary by letter
    let guess = try #require(Self.guess(on: try run.tmux.screen()))
    _ = try run.press("Enter", until: "frame 3 of 24")  // the guess
    _ = try run.press("x", until: "frame 4 of 24")  // skip
    _ = try run.press("2", until: "frame 5 of 24")  // neutral by number
    _ = try run.press("h", until: "frame 6 of 24")  // happy by letter
    _ = try run.press("Right", until: "frame 7 of 24")  // move, no decision
    _ = try run.press("Left", until: "frame 6 of 24")
    let folder = guess.prefix(1).uppercased() + guess.dropFirst()
    #expect(
      labelledFiles(in: labels)
        == [
          "Happy/night-walk-4.png", "Neutral/night-walk-3.png", "Scary/night-walk-0.png",
          "\(folder)/night-walk-1.png",
        ].sorted())
    _ = try run.press("u", until: "undone: night-walk-4 (happy)")
    try run.wait(for: "frame 5 of 24")
    #expect(!labelledFiles(in: labels).contains("Happy/night-walk-4.png"))
    #expect(!FileManager.default.fileExists(atPath: labels.appendingPathComponent("Happy").path))

    try run.tmux.type("q")
    let (screen, status) = try run.waitForExit()
    #expect(status == 0, "\(screen)")
    #expect(screen.contains("4 decisions this run"), "\(screen)")
    #expect(try run.terminalRestored())
    run.stop()

    let decisions = try #require(journalDecisions(in: labels))
    #expect(
      decisions.map { $0["item"] as? String } == [
        "night-walk-0", "night-walk-1", "night-walk-2", "night-walk-3",
      ])
    #expect(decisions[2]["label"] == nil && decisions[2]["file"] == nil, "a skip has no label")

    // The second run starts at the first undecided frame and undoes the first run's last one.
    run = try InteractiveRun(arguments, in: work)
    try run.wait(for: "frame 5 of 24 · night-walk.mp4 at 0:04")
    _ = try run.press("u", until: "undone: night-walk-3 (neutral)")
    try run.wait(for: "frame 4 of 24")
    #expect(!labelledFiles(in: labels).contains("Neutral/night-walk-3.png"))
    try run.tmux.type("q")
    #expect(try run.waitForExit().status == 0)
    #expect(journalDecisions(in: labels)?.count == 3)
  }

  @Test("--test-share sends that share of each label to the sibling test folder; --order time")
  func testShare() throws {
    let work = try ScratchFolder.url("label-share")
    defer { try? FileManager.default.removeItem(at: work) }
    let labels = work.appendingPathComponent("labels")
    let run = try InteractiveRun(
      ["label", Self.video, "--into", labels.path, "--order", "time", "--test-share", "0.5"],
      in: work)
    defer { run.stop() }
    try run.wait(for: "frame 1 of 24")
    for n in 2...5 { _ = try run.press("3", until: "frame \(n) of 24") }
    try run.tmux.type("q")
    #expect(try run.waitForExit().status == 0)
    #expect(labelledFiles(in: labels) == ["Scary/night-walk-0.png", "Scary/night-walk-2.png"])
    #expect(
      labelledFiles(in: work.appendingPathComponent("labels-test"))
        == ["Scary/night-walk-1.png", "Scary/night-walk-3.png"])
  }

  @Test("--order uncertain (the default) offers the least confident guesses first")
  func uncertainFirst() throws {
    let work = try ScratchFolder.url("label-order")
    defer { try? FileManager.default.removeItem(at: work) }
    let labels = work.appendingPathComponent("labels")
    let video = Repository.root
      .appendingPathComponent("SampleVideos/meadow-storm.mp4").path
    let run = try InteractiveRun(["label", video, "--into", labels.path], in: work)
    defer { run.stop() }
    let first = try run.wait(for: "frame 1 of")
    let total = try #require(
      first.range(of: #"frame 1 of \d+"#, options: .regularExpression).map {
        Int(first[$0].split(separator: " ").last!)!
      })
    for n in 2...total { _ = try run.press("x", until: "frame \(n) of \(total)") }
    try run.tmux.type("x")
    try run.wait(for: "all \(total) frames decided")
    try run.tmux.type("q")
    #expect(try run.waitForExit().status == 0)
    let confidences = try #require(journalDecisions(in: labels)).compactMap {
      $0["confidence"] as? Double
    }
    #expect(confidences.count == total)
    #expect(confidences == confidences.sorted(), "least confident first: \(confidences)")
  }

  @Test(
    "Ctrl-C and SIGTERM: decisions kept, terminal restored, exit 128 + N",
    arguments: [SIGINT, SIGTERM])
  func signals(signal: Int32) throws {
    let work = try ScratchFolder.url("label-signal")
    defer { try? FileManager.default.removeItem(at: work) }
    let labels = work.appendingPathComponent("labels")
    let run = try InteractiveRun(
      ["label", Self.video, "--into", labels.path, "--order", "time"], in: work)
    defer { run.stop() }
    let pid = try #require(run.pid())
    try run.wait(for: "frame 1 of 24")
    _ = try run.press("n", until: "frame 2 of 24")
    kill(pid, signal)
    let (screen, status) = try run.waitForExit()
    #expect(status == Int(128 + signal), "\(screen)")
    #expect(try run.terminalRestored())
    #expect(labelledFiles(in: labels) == ["Neutral/night-walk-0.png"])
    #expect(journalDecisions(in: labels)?.count == 1)
  }

  @Test("Ctrl-C typed in the terminal: it ends label like SIGINT and the terminal is restored")
  func ctrlC() throws {
    let work = try ScratchFolder.url("label-ctrl-c")
    defer { try? FileManager.default.removeItem(at: work) }
    let labels = work.appendingPathComponent("labels")
    let tmux = Tmux()
    try tmux.start(in: work)
    defer { tmux.stop() }
    // Typed at the shell: Ctrl-C reaches the shell too, so the status is not printed after it.
    try tmux.type(
      "'\(CLI.binary)' label '\(Self.video)' --into '\(labels.path)' --order time", "Enter")
    var screen = ""
    for _ in 0..<600 where !screen.contains("frame 1 of 24") {
      usleep(50_000)
      screen = try tmux.screen()
    }
    try #require(screen.contains("frame 1 of 24"), "\(screen)")
    try tmux.type("s")
    // The decision must be read before Ctrl-C, which the terminal turns into a signal at once.
    for _ in 0..<600 where !screen.contains("frame 2 of 24") {
      usleep(50_000)
      screen = try tmux.screen()
    }
    try #require(screen.contains("frame 2 of 24"), "\(screen)")
    try tmux.type("C-c")
    for _ in 0..<300 where !screen.contains("decisions this run") {
      usleep(100_000)
      screen = try tmux.screen()
    }
    #expect(screen.contains("1 decisions this run"), "\(screen)")
    #expect(try !tmux.alternateScreenOn())
    #expect(labelledFiles(in: labels) == ["Scary/night-walk-0.png"])
    try tmux.type("echo restored-$((6 * 7))", "Enter")
    for _ in 0..<300 where !screen.contains("restored-42") {
      usleep(100_000)
      screen = try tmux.screen()
    }
    #expect(screen.contains("restored-42"), "the terminal reads lines again: \(screen)")
  }

  @Test("kill -9 while keys arrive: the journal stays valid and matches the files but for one")
  func killNine() throws {
    let work = try ScratchFolder.url("label-kill")
    defer { try? FileManager.default.removeItem(at: work) }
    let labels = work.appendingPathComponent("labels")
    let run = try InteractiveRun(
      ["label", Self.video, "--into", labels.path, "--order", "time"], in: work)
    defer { run.stop() }
    let pid = try #require(run.pid())
    try run.wait(for: "frame 1 of 24")
    try run.tmux.type("1", "2", "3", "1", "2", "3", "1", "2", "3", "1", "2", "3")
    usleep(useconds_t(UInt32.random(in: 0...150_000)))
    kill(pid, SIGKILL)
    _ = try run.waitForExit()
    // Killed before the first decision was stored (tmux delivers keys late under load): no
    // journal yet, which is valid too; a journal that exists must parse.
    let journal = labels.appendingPathComponent(".leamoji-label.json")
    let decisions =
      FileManager.default.fileExists(atPath: journal.path)
      ? try #require(journalDecisions(in: labels), "the journal parses") : []
    let recorded = Set(decisions.compactMap { $0["file"] as? String })
    let files = Set(labelledFiles(in: labels))
    #expect(recorded.isSubset(of: files), "every recorded decision has its PNG")
    #expect(files.subtracting(recorded).count <= 1, "at most the decision being written is lost")

    // A new run resumes after the recorded decisions.
    let again = try InteractiveRun(
      ["label", Self.video, "--into", labels.path, "--order", "time"], in: work)
    defer { again.stop() }
    try again.wait(for: "frame \(decisions.count + 1) of 24")
    try again.tmux.type("q")
    #expect(try again.waitForExit().status == 0)
  }
}
