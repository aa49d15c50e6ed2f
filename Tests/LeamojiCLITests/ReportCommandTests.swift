import Foundation
import LeamojiTestSupport
import Testing

/// `leamoji report` as a user runs it: the summary line, and one clear line with the right exit
/// status for each kind of bad input, with nothing of the user's overwritten.
@Suite("leamoji report")
struct ReportCommandTests {
  static let golden = Repository.root.appendingPathComponent(
    "Tests/LeamojiCLITests/Fixtures/golden/sample-videos.MovieData.json")
  static let samples = Repository.root.appendingPathComponent("SampleVideos")

  @Test("writes the site and says what it did; a second run writes nothing")
  func writesSite() throws {
    let folder = try ScratchFolder.url("report")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: Self.golden, to: folder.appendingPathComponent("MovieData.json"))
    let arguments = ["report", "--videos", Self.samples.path, "--out", "site"]
    let first = try CLI.leamoji(arguments, in: folder, timeout: 120)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.hasPrefix("site: 3 films (3 with video), 23 files written"))
    #expect(first.stdout.contains("13 thumbnails made"))
    #expect(first.stderr.isEmpty)
    let again = try CLI.leamoji(arguments, in: folder, timeout: 120)
    #expect(again.stdout.contains("0 files written, 23 unchanged, 0 thumbnails made"))
    let page = try String(
      contentsOf: folder.appendingPathComponent("site/films/night-walk.html"), encoding: .utf8)
    #expect(page.contains("SampleVideos/night-walk.mp4\">"))
  }

  @Test("bad input: one line naming the file, the exit status of its kind, nothing overwritten")
  func badInput() throws {
    let folder = try ScratchFolder.url("report-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = try CLI.leamoji(["report", "--data", "none.json", "--out", "site"], in: folder)
    #expect(missing.status == 66)
    #expect(missing.stderrLines == ["leamoji: none.json: no such file"])
    try Data("[ {".utf8).write(to: folder.appendingPathComponent("MovieData.json"))
    let malformed = try CLI.leamoji(["report", "--out", "site"], in: folder)
    #expect(malformed.status == 65)
    #expect(malformed.stderrLines.count == 1 && malformed.stderr.contains("MovieData.json"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("site").path))
    try Data("[]".utf8).write(to: folder.appendingPathComponent("MovieData.json"))
    let mine = folder.appendingPathComponent("mine")
    try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
    try Data("my page".utf8).write(to: mine.appendingPathComponent("index.html"))
    let occupied = try CLI.leamoji(["report", "--out", "mine"], in: folder)
    #expect(occupied.status == 73)
    #expect(
      occupied.stderrLines.count == 1 && occupied.stderr.contains("mine: the folder is not empty"))
    #expect(
      try String(contentsOf: mine.appendingPathComponent("index.html"), encoding: .utf8)
        == "my page")
    let notFolder = try CLI.leamoji(["report", "--out", "mine/index.html"], in: folder)
    #expect(notFolder.status == 73 && notFolder.stderr.contains("exists and is not a folder"))
  }
}
