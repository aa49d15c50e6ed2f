import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `leamoji review` driven by keys in a real terminal (tmux): corrections change the stored
/// timeline, `.vtt` and the training folder, `u` undoes, a re-analysis keeps them, and the
/// terminal is given back after q, Ctrl-C and SIGTERM; kill -9 leaves a valid MovieData.json.
@Suite("leamoji review", .serialized)
struct ReviewTmuxTests {
  static let video = LabelTmuxTests.video

  /// One entry of MovieData.json, parsed with JSONSerialization (independently of the product).
  struct Entry {
    var markers: [(second: Double, label: String, confidence: Double)]
    var edits: [[String: Any]]?
  }

  static func entry(in work: URL) throws -> Entry {
    let data = try Data(contentsOf: work.appendingPathComponent("MovieData.json"))
    let movies = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    let movie = try #require(movies.first { $0["id"] as? String == "night-walk" })
    let markers = try #require(movie["markers"] as? [[String: Any]]).map {
      (
        second: $0["second"] as? Double ?? -1, label: $0["label"] as? String ?? "",
        confidence: $0["confidence"] as? Double ?? -1
      )
    }
    return Entry(markers: markers, edits: movie["userEdits"] as? [[String: Any]])
  }

  static func analyze(_ work: URL) throws {
    let result = try CLI.leamoji(["analyze", video, "--vtt"], in: work)
    try #require(result.status == 0, "\(result.stderr)")
  }

  static func vtt(_ work: URL) throws -> String {
    try String(contentsOf: work.appendingPathComponent("night-walk.vtt"), encoding: .utf8)
  }

  @Test("not a terminal: exit 64 and a one-line hint")
  func notATerminal() throws {
    let work = try ScratchFolder.url("review-tty")
    defer { try? FileManager.default.removeItem(at: work) }
    let result = try CLI.leamoji(["review", Self.video], in: work)
    #expect(result.status == 64)
    #expect(
      result.stderrLines.count == 1 && result.stderr.contains("terminal")
        && result.stderr.contains("leamoji timeline"), "\(result.stderr)")
  }

  @Test("a video not analysed yet: one line naming the file, exit 65")
  func notAnalysed() throws {
    let work = try ScratchFolder.url("review-none")
    defer { try? FileManager.default.removeItem(at: work) }
    let run = try InteractiveRun(["review", Self.video], in: work)
    defer { run.stop() }
    let (screen, status) = try run.waitForExit()
    #expect(status == 65, "\(screen)")
    #expect(screen.contains("MovieData.json: no entry for night-walk"), "\(screen)")
  }

  @Test(
    "keys correct a scene in MovieData.json, .vtt and --into; u undoes; q restores; a re-analysis keeps it"
  )
  func keysUndoReanalyse() throws {
    let work = try ScratchFolder.url("review-keys")
    defer { try? FileManager.default.removeItem(at: work) }
    try Self.analyze(work)
    let analysed = try Self.entry(in: work)
    try #require(analysed.markers.count >= 2)
    #expect(analysed.edits == nil)
    let originalVTT = try Self.vtt(work)
    let scene = analysed.markers[1]
    let end = analysed.markers.count > 2 ? analysed.markers[2].second : 24
    let labels = ["happy", "neutral", "scary"]
    let newLabel = try #require(
      labels.first { $0 != scene.label && $0 != analysed.markers[0].label })
    let key = String(labels.firstIndex(of: newLabel)! + 1)
    let folder = work.appendingPathComponent("labels")

    let run = try InteractiveRun(["review", Self.video, "--into", folder.path], in: work)
    defer { run.stop() }
    try run.wait(for: "second 1 of 24")
    #expect(try run.tmux.alternateScreenOn())
    #expect(try run.tmux.screen(escapes: true).contains("▀"), "the frame in half blocks")
    let move = try run.press("j", until: "scene 2 of \(analysed.markers.count)")
    let percent = Int((scene.confidence * 100).rounded())
    #expect(try run.tmux.screen().contains(" \(scene.label) \(percent)%"), "the stored label")
    let correct = try run.press(key, until: "corrections this run 1")
    // Figures for the 50 ms goal (tmux's own polling included: an upper bound), not pass/fail.
    print(
      String(
        format: "review: key to screen %.0f ms (move to a scene), %.0f ms (correction saved)",
        move * 1000, correct * 1000))
    try run.wait(for: "filed")
    #expect(
      try run.tmux.screen().contains("timeline ") && run.tmux.screen().contains(" \(newLabel) 100%")
    )

    var entry = try Self.entry(in: work)
    let edits = try #require(entry.edits)
    #expect(edits.count == 1)
    #expect(edits.first?["from"] as? Double == scene.second)
    #expect(edits.first?["to"] as? Double == end)
    #expect(edits.first?["label"] as? String == newLabel)
    let corrected = try #require(entry.markers.first { $0.second == scene.second })
    #expect(corrected.label == newLabel && corrected.confidence == 1)
    let editedVTT = try Self.vtt(work)
    #expect(editedVTT != originalVTT && editedVTT.contains(newLabel))
    let expectedFiles = stride(from: Int(scene.second), to: Int(end.rounded(.up)), by: 1).map {
      "\(newLabel.capitalized)/night-walk-\($0).png"
    }
    #expect(labelledFiles(in: folder) == expectedFiles.sorted())
    #expect(journalDecisions(in: folder)?.count == expectedFiles.count)

    _ = try run.press("u", until: "corrections this run 0")
    try run.wait(for: "undone")
    entry = try Self.entry(in: work)
    #expect(entry.edits == nil)
    #expect(entry.markers.map(\.label) == analysed.markers.map(\.label))
    #expect(entry.markers.map(\.second) == analysed.markers.map(\.second))
    #expect(try Self.vtt(work) == originalVTT)
    #expect(labelledFiles(in: folder).isEmpty)
    #expect(journalDecisions(in: folder)?.isEmpty == true)

    _ = try run.press(key, until: "corrections this run 1")
    try run.wait(for: "saved")
    try run.tmux.type("q")
    let (screen, status) = try run.waitForExit()
    #expect(status == 0, "\(screen)")
    #expect(screen.contains("1 correction this run saved"), "\(screen)")
    #expect(try run.terminalRestored())

    // A re-analysis of the same video keeps the correction, in the JSON and the subtitles.
    let before = try Self.entry(in: work)
    try Self.analyze(work)
    let after = try Self.entry(in: work)
    #expect(after.edits?.count == 1)
    #expect(after.markers.map(\.label) == before.markers.map(\.label))
    #expect(after.markers.map(\.second) == before.markers.map(\.second))
    #expect(try Self.vtt(work) == editedVTT)
    let list = try CLI.leamoji(["list"], in: work)
    #expect(list.stdout.contains("1 correction in review"), "\(list.stdout)")
  }

  @Test(
    "Ctrl-C and SIGTERM: the correction is kept, terminal restored, exit 128 + N",
    arguments: [SIGINT, SIGTERM])
  func signals(signal: Int32) throws {
    let work = try ScratchFolder.url("review-signal")
    defer { try? FileManager.default.removeItem(at: work) }
    try Self.analyze(work)
    let analysed = try Self.entry(in: work)
    let other = ["happy", "neutral", "scary"].firstIndex { $0 != analysed.markers[0].label }!
    let run = try InteractiveRun(["review", Self.video], in: work)
    defer { run.stop() }
    let pid = try #require(run.pid())
    try run.wait(for: "second 1 of 24")
    _ = try run.press(String(other + 1), until: "corrections this run 1")
    kill(pid, signal)
    let (screen, status) = try run.waitForExit()
    #expect(status == Int(128 + signal), "\(screen)")
    #expect(try run.terminalRestored())
    #expect(try Self.entry(in: work).edits?.count == 1)
  }

  @Test("kill -9 while keys arrive: MovieData.json and the journal stay valid")
  func killNine() throws {
    let work = try ScratchFolder.url("review-kill")
    defer { try? FileManager.default.removeItem(at: work) }
    try Self.analyze(work)
    let folder = work.appendingPathComponent("labels")
    let run = try InteractiveRun(["review", Self.video, "--into", folder.path], in: work)
    defer { run.stop() }
    let pid = try #require(run.pid())
    try run.wait(for: "second 1 of 24")
    try run.tmux.type("1", "j", "3", "j", "2", "k", "1", "j", "3", "u", "2", "j", "1")
    usleep(useconds_t(UInt32.random(in: 0...150_000)))
    kill(pid, SIGKILL)
    // The killed process leaves the terminal raw: wait for it to be gone, not for the prompt.
    for _ in 0..<500 where kill(pid, 0) == 0 { usleep(10_000) }
    let entry = try Self.entry(in: work)
    #expect(!entry.markers.isEmpty)
    let timeline = try CLI.leamoji(["timeline", "night-walk"], in: work)
    #expect(timeline.status == 0, "\(timeline.stderr)")
    if FileManager.default.fileExists(
      atPath: folder.appendingPathComponent(".leamoji-label.json").path)
    {
      let decisions = try #require(journalDecisions(in: folder), "the journal parses")
      let recorded = Set(decisions.compactMap { $0["file"] as? String })
      #expect(recorded.isSubset(of: Set(labelledFiles(in: folder))), "every recorded PNG is there")
    }
  }
}
