import Foundation
import LeamojiTestSupport
import Testing

/// The commands on a MovieData.json with two entries of one id (docs/movie-data.md,
/// "Duplicated ids"): every entry is listed, exported and kept; a command that must pick one
/// entry for that id refuses with one line naming the file, the id and the entries.
@Suite("Commands on a MovieData.json with a duplicated id")
struct DuplicateIDCommandTests {
  /// Hand-written, out of order: two different "twin" entries (the first with the app's markers
  /// object), the app's Alice entry, and "b" (Fixtures/duplicate-ids.MovieData.json, shared with
  /// the store's DuplicateIDTests).
  static let file: String = {
    let url = Repository.root.appendingPathComponent(
      "Tests/LeamojiCLITests/Fixtures/duplicate-ids.MovieData.json")
    do {
      return try String(contentsOf: url, encoding: .utf8)
    } catch {
      fatalError("\(url.path): \(error)")
    }
  }()

  /// The entries with `id`, read by JSONSerialization (independently of the product).
  static func entries(_ id: String, in data: Data) throws -> [NSDictionary] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [NSDictionary])
      .filter { $0["id"] as? String == id }
  }

  static func refusal(_ path: String, positions: String) -> String {
    "\(path): id \"twin\" is in entries \(positions), so leamoji cannot tell which one is meant; "
      + "give one of them another id (or remove it) and run again"
  }

  @Test("analyze, merge, list, export and timeline keep and show every entry; twin is refused")
  func endToEnd() throws {
    let work = try ScratchFolder.url("duplicates")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    try Self.file.write(to: data, atomically: true, encoding: .utf8)
    let original = Data(Self.file.utf8)
    let twins = try Self.entries("twin", in: original)
    #expect(twins.count == 2)
    // What is in the video does not matter here: the 4-second clip, not a 30-second sample.
    let clip = try AnalyzeFixtures.clip(named: "clip.mp4", in: work).path

    // analyze into the file: a shared id is refused before the work (no poster), file as it was.
    let refused = try CLI.leamoji(["analyze", clip, "--id", "twin"], in: work)
    #expect(refused.status == 65)
    #expect(
      refused.stderrLines == [
        "leamoji: " + Self.refusal("MovieData.json", positions: "1 and 3")
      ], "\(refused.stderr)")
    #expect(try Data(contentsOf: data) == original)
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("twin.jpg").path))

    // analyze into the app's entry: the twins stay key for key, in their order.
    let analyze = try CLI.leamoji(
      ["analyze", clip, "--id", "AliceInWonderland"], in: work)
    try #require(analyze.status == 0, "\(analyze.stderr)")
    var stored = try Data(contentsOf: data)
    #expect(try Self.entries("twin", in: stored) == twins)
    #expect(try Self.entries("b", in: stored) == Self.entries("b", in: original))
    let alice = try #require(try Self.entries("AliceInWonderland", in: stored).first)
    #expect(alice["title"] as? String == "Alice in Wonderland" && alice["markers"] is [Any])

    // merge a fragment: idempotent, the twins stay; a fragment for twin is refused.
    let parts = work.appendingPathComponent("parts")
    try FileManager.default.createDirectory(at: parts, withIntermediateDirectories: true)
    let fragment = parts.appendingPathComponent("c.json")
    let made = try CLI.leamoji(
      ["analyze", clip, "--id", "c", "--output", fragment.path, "--no-poster"])
    try #require(made.status == 0, "\(made.stderr)")
    let merge = try CLI.leamoji(["merge", fragment.path], in: work)
    #expect(merge.status == 0, "\(merge.stderr)")
    stored = try Data(contentsOf: data)
    #expect(try Self.entries("twin", in: stored) == twins)
    #expect(try CLI.leamoji(["merge", fragment.path], in: work).status == 0)
    #expect(try Data(contentsOf: data) == stored)
    let twinFragment = parts.appendingPathComponent("twin.json")
    try String(contentsOf: fragment, encoding: .utf8)
      .replacingOccurrences(of: "\"id\" : \"c\"", with: "\"id\" : \"twin\"")
      .write(to: twinFragment, atomically: true, encoding: .utf8)
    let conflicting = try CLI.leamoji(["merge", fragment.path, twinFragment.path], in: work)
    #expect(conflicting.status == 65)
    // Sorted by id on writing: AliceInWonderland, b, c, twin, twin.
    #expect(
      conflicting.stderrLines == [
        "leamoji: " + Self.refusal("MovieData.json", positions: "4 and 5")
      ], "\(conflicting.stderr)")
    #expect(try Data(contentsOf: data) == stored)

    // list: every entry, the twins in file order, and a warning naming them.
    let list = try CLI.leamoji(["list"], in: work)
    #expect(list.status == 0)
    let lines = list.stdout.split(separator: "\n").map(String.init)
    #expect(
      lines.map { String($0.prefix { $0 != " " }) } == [
        "AliceInWonderland", "b", "c", "twin", "twin",
      ])
    #expect(lines[3].hasPrefix("twin  \"Twin one\"  ? s") && lines[3].contains("model app"))
    #expect(lines[4].hasPrefix("twin  \"Twin two\"  ? s  no markers"))
    #expect(
      list.stderrLines == [
        "leamoji: warning: MovieData.json: id 'twin' is in entries 4 and 5 (all listed); analyze, "
          + "merge, review, timeline and play refuse this id until only one entry has it"
      ], "\(list.stderr)")
    let listJSON = try CLI.leamoji(["list", "--json"], in: work)
    let summaries = try listJSON.stdout.split(separator: "\n").map {
      try #require(try AppFiles.json(String($0)) as? [String: Any])
    }
    #expect(
      summaries.map { $0["id"] as? String } == ["AliceInWonderland", "b", "c", "twin", "twin"])
    #expect(summaries.map { $0["title"] as? String }.suffix(2) == ["Twin one", "Twin two"])

    // export --format ios: every entry, the twins in file order, in the app's schema.
    let export = try CLI.leamoji(["export", "--format", "ios"], in: work)
    #expect(export.status == 0, "\(export.stderr)")
    let movies = try #require(try AppFiles.json(export.stdout) as? [[String: Any]])
    #expect(movies.map { $0["id"] as? String } == ["AliceInWonderland", "b", "c", "twin", "twin"])
    #expect(movies[3]["markers"] as? [String: String] == ["3": "Happy", "9": "Scary"])
    #expect(movies[4]["title"] as? String == "Twin two" && movies[4]["markers"] == nil)

    // timeline: any other id works; the shared one is refused in one line.
    #expect(try CLI.leamoji(["timeline", "b"], in: work).status == 0)
    let timeline = try CLI.leamoji(["timeline", "twin"], in: work)
    #expect(timeline.status == 65)
    #expect(
      timeline.stderrLines == [
        "leamoji: " + Self.refusal("MovieData.json", positions: "4 and 5")
      ], "\(timeline.stderr)")
    #expect(try Data(contentsOf: data) == stored)
  }

  @Test(
    "still refused by list, export, timeline, analyze and merge: exit 65, one line naming file and entry",
    arguments: [
      ("[{\"id\": \"a\"},", "not valid JSON"),
      ("{\"id\": \"a\"}", "expected a JSON array of movies, found an object"),
      ("[{\"id\": \"a\"}, {\"title\": \"x\"}]", "entry 2 has no \"id\""),
      ("[{\"id\": \"a\"}, {\"id\": 7}]", "entry 2: \"id\" must be a string, found a number"),
    ])
  func refusals(text: String, problem: String) throws {
    let work = try ScratchFolder.url("duplicates-bad")
    defer { try? FileManager.default.removeItem(at: work) }
    try text.write(
      to: work.appendingPathComponent("MovieData.json"), atomically: true, encoding: .utf8)
    try "[{\"id\": \"z\"}]".write(
      to: work.appendingPathComponent("part.json"), atomically: true, encoding: .utf8)
    for arguments in [
      ["list"], ["list", "--json"], ["export", "--format", "ios"], ["timeline", "a"],
      ["analyze", AppFiles.sample, "--id", "a"], ["merge", "part.json"],
    ] {
      let result = try CLI.leamoji(arguments, in: work)
      #expect(result.status == 65, "\(arguments): \(result.stderr)")
      #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderr)")
      #expect(
        result.stderr.hasPrefix("leamoji: MovieData.json: \(problem)"),
        "\(arguments): \(result.stderr)")
      #expect(
        try String(contentsOf: work.appendingPathComponent("MovieData.json"), encoding: .utf8)
          == text)
    }
    // The same file as a fragment: named as the fragment.
    let fragment = try CLI.leamoji(["merge", "MovieData.json", "--output", "out.json"], in: work)
    #expect(fragment.status == 65 && fragment.stderrLines.count == 1)
    #expect(fragment.stderr.hasPrefix("leamoji: MovieData.json: \(problem)"))
    #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("out.json").path))
  }
}

/// `play` and `review` on the shared id, in a tmux terminal.
@Suite("play and review on a MovieData.json with a duplicated id")
struct DuplicateIDTmuxTests {
  @Test("play and review of a shared id refuse in one line, the file unchanged")
  func playAndReview() throws {
    let work = try ScratchFolder.url("duplicates-tty")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    try DuplicateIDCommandTests.file.write(to: data, atomically: true, encoding: .utf8)
    let video = work.appendingPathComponent("twin.mp4")
    try FileManager.default.copyItem(atPath: AppFiles.sample, toPath: video.path)
    for arguments in [["play", "twin.mp4"], ["review", "twin.mp4"]] {
      let run = try InteractiveRun(arguments, in: work)
      defer { run.stop() }
      let (screen, status) = try run.waitForExit()
      #expect(status == 65, "\(arguments): \(screen)")
      #expect(
        screen.replacingOccurrences(of: "\n", with: "").contains(
          "id \"twin\" is in entries 1 and 3, so leamoji cannot tell which one is meant"),
        "\(arguments): \(screen)")
      #expect(try String(contentsOf: data, encoding: .utf8) == DuplicateIDCommandTests.file)
    }
  }
}
