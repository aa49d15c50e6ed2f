import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `play` registers both participants of the signal coordinator: the temporary-file clean-up
/// (it may analyse the video first, which writes files) and, once it plays, the terminal
/// session. A termination signal must do the right thing in either phase.
@Suite("leamoji play under Ctrl-C and SIGTERM", .serialized)
struct PlaySignalTmuxTests {
  /// Runs `leamoji play` with `arguments` from a script in a tmux window. The script writes its
  /// own process id to `script.pid` and, when leamoji ends, `status=<$?>`: an interactive shell
  /// would not go on to print the status of a child that a SIGINT ended.
  func startPlayer(_ arguments: [String], in work: URL, tmux: Tmux) throws {
    let words = ([CLI.binary, "play"] + arguments).map {
      "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let script = "echo $$ > script.pid\n" + words.joined(separator: " ") + "\necho status=$?\n"
    try Data(script.utf8).write(to: work.appendingPathComponent("run.sh"))
    try tmux.start(in: work)
    try tmux.type("sh run.sh", "Enter")
  }

  /// The player's process id: the child of the script, once both run.
  func playerPID(in work: URL) -> pid_t? {
    let file = work.appendingPathComponent("script.pid")
    for _ in 0..<1_500 {  // up to 30 s on a busy machine
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      if let script = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)),
        let child = childPID(of: script)
      {
        return child
      }
      usleep(20_000)
    }
    return nil
  }

  /// A child process of `parent`, from `/proc/<pid>/stat` (`pid (name) state ppid ...`).
  func childPID(of parent: pid_t) -> pid_t? {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for name in names {
      guard let pid = pid_t(name),
        let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
        let close = stat.range(of: ")", options: .backwards)
      else { continue }
      let fields = stat[close.upperBound...].split(separator: " ")
      if fields.count > 1, pid_t(fields[1]) == parent { return pid }
    }
    return nil
  }

  /// The screen once the script has printed `status=N` (up to 30 s), and N.
  func waitForExit(_ tmux: Tmux) throws -> (screen: String, status: Int?) {
    var screen = ""
    for _ in 0..<300 {
      screen = try tmux.screen()
      if let range = screen.range(of: #"status=[0-9]+"#, options: .regularExpression) {
        return (screen, Int(screen[range].dropFirst("status=".count)))
      }
      usleep(100_000)
    }
    return (screen, nil)
  }

  @Test(
    "a signal while playing: the terminal is restored and the shell sees 128 + N",
    arguments: [SIGINT, SIGTERM])
  func whilePlaying(signal: Int32) throws {
    let work = try ScratchFolder.url("play-signal")
    defer { try? FileManager.default.removeItem(at: work) }
    let video = Repository.root
      .appendingPathComponent("SampleVideos/night-walk.mp4").path
    let data = work.appendingPathComponent("MovieData.json").path
    let analysed = try CLI.leamoji(["analyze", video, "--output", data, "--no-poster"])
    try #require(analysed.status == 0, "\(analysed.stderr)")

    let tmux = Tmux()
    defer { tmux.stop() }
    try startPlayer([video, "--data", data], in: work, tmux: tmux)
    let pid = try #require(playerPID(in: work))
    var playing = false
    for _ in 0..<300 where !playing {  // up to 30 s on a busy machine
      usleep(100_000)
      playing = playerClock(try tmux.screen()) != nil
    }
    let shown = try tmux.screen()
    try #require(playing, "the player ran: \(shown)")
    #expect(try tmux.alternateScreenOn())
    kill(pid, signal)

    let (screen, status) = try waitForExit(tmux)
    #expect(status == Int(128 + signal), "\(screen)")
    #expect(try !tmux.alternateScreenOn(), "alternate screen left")
    let cursor = try tmux.run(["display-message", "-t", tmux.session, "-p", "#{cursor_flag}"])
    #expect(cursor.stdout.hasPrefix("1"), "the cursor is visible again")
    // Raw mode is gone: the shell reads a typed line again (echo, Enter ends the line).
    try tmux.type("echo restored-$((6 * 7))", "Enter")
    var back = ""
    for _ in 0..<300 where !back.contains("restored-42") {
      usleep(100_000)
      back = try tmux.screen()
    }
    #expect(back.contains("restored-42"), "the terminal is back in its normal mode: \(back)")
    #expect(!back.contains("▀"), "the picture is gone")
  }

  @Test("Ctrl-C while play analyses first: no temporary file, the old timeline kept, exit 130")
  func whileAnalysingFirst() throws {
    let work = try ScratchFolder.url("play-signal-analyse")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    // A big timeline makes the write window wide enough to hit.
    try StoreFiles.writeOldEntries(count: 15_000, to: data)
    let video = try AnalyzeFixtures.clip(named: "new.mp4", in: work)

    let tmux = Tmux()
    defer { tmux.stop() }
    try startPlayer([video.path, "--data", data.path], in: work, tmux: tmux)
    let pid = try #require(playerPID(in: work))
    var hit = false
    let deadline = Date().addingTimeInterval(60)
    while !hit && kill(pid, 0) == 0 && Date() < deadline {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: work.path)) ?? []
      if names.contains(where: { $0.hasPrefix(".MovieData.json.leamoji-") }) {
        kill(pid, SIGINT)
        hit = true
      }
      usleep(200)
    }
    try #require(hit, "a temporary file was seen while play analysed the video")

    let (screen, status) = try waitForExit(tmux)
    #expect(status == 130, "ended by SIGINT: \(screen)")
    let left = try FileManager.default.contentsOfDirectory(atPath: work.path)
      .filter { $0.hasSuffix(".tmp") }
    #expect(left.isEmpty, "\(left)")
    // Either the old timeline, or (when the signal came just after the rename) the new one.
    let ids = try #require(movieIDs(in: data), "the timeline parses")
    #expect(ids.filter { $0.hasPrefix("old-") }.count == 15_000)
    #expect(ids.count == 15_000 || ids.count == 15_001 && ids.contains("new"))
  }
}
