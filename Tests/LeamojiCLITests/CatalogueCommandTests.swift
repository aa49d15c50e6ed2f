import Foundation
import LeamojiTestSupport
import Testing

/// The original app's two files, as its encoder writes them (see AppFormatTests in
/// LeamojiTimelineTests for the app's Codable types).
enum AppFiles {
  static let analysed = """
    [
      {
        "description" : "Alice follows a white rabbit.",
        "id" : "AliceInWonderland",
        "markers" : {
          "149" : "Scary",
          "150" : "Scary",
          "212" : "Happy"
        },
        "poster" : "AliceInWonderland",
        "title" : "Alice in Wonderland"
      },
      {
        "description" : "A lion cub.",
        "id" : "LionKing",
        "poster" : "LionKing",
        "title" : "The Lion King"
      }
    ]
    """

  static var sample: String {
    Repository.root.appendingPathComponent("SampleVideos/meadow-storm.mp4").path
  }

  static func json(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8))
  }
}

@Suite("list, export, merge and analyze --id on the original app's files")
struct CatalogueCommandTests {
  @Test("analyze merges into the app's file; list, timeline and export show every film")
  func appFileEndToEnd() throws {
    let work = try ScratchFolder.url("catalogue")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    try AppFiles.analysed.write(to: data, atomically: true, encoding: .utf8)
    let video = work.appendingPathComponent("LionKing.mp4")
    try FileManager.default.copyItem(atPath: AppFiles.sample, toPath: video.path)

    let analyze = try CLI.leamoji(["analyze", video.path, "--id", "LionKing"], in: work)
    try #require(analyze.status == 0, "\(analyze.stderr)")
    #expect(analyze.stdout.hasPrefix("LionKing: 30 s, 4 markers"))

    let list = try CLI.leamoji(["list"], in: work)
    #expect(list.status == 0)
    let lines = list.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 2)
    #expect(
      lines[0].hasPrefix(
        "AliceInWonderland  \"Alice in Wonderland\"  ? s  😀 happy 1 s, 😱 scary 1 min 3 s  "
          + "2 markers  model app  not edited"))
    #expect(lines[1].hasPrefix("LionKing  \"The Lion King\"  30 s  😀 happy 14 s"))
    #expect(
      lines[1].contains("4 markers  model ") && lines[1].hasSuffix("not edited  heads-up 3/5"))
    let listJSON = try CLI.leamoji(["list", "--json"], in: work)
    let first = try #require(
      try AppFiles.json(String(listJSON.stdout.split(separator: "\n")[0])) as? [String: Any])
    #expect(first["markerForm"] as? String == "app" && first["markers"] as? Int == 2)

    let timeline = try CLI.leamoji(["timeline", "AliceInWonderland.mp4"], in: work)
    #expect(timeline.status == 0, "\(timeline.stderr)")
    #expect(timeline.stdout.contains("Alice in Wonderland (AliceInWonderland): duration unknown"))
    #expect(timeline.stdout.contains("2:29 – 3:32  cue at 2:24  😱 scary"))
    #expect(timeline.stdout.contains("3:32 – …  cue at 3:27  😀 happy"))

    let export = try CLI.leamoji(["export", "--format", "ios"], in: work)
    #expect(export.status == 0, "\(export.stderr)")
    let movies = try #require(try AppFiles.json(export.stdout) as? [[String: Any]])
    #expect(
      movies.map { Set($0.keys) } == [
        ["description", "id", "markers", "poster", "title"],
        ["description", "id", "markers", "poster", "title"],
      ])
    #expect(
      movies[0]["markers"] as? [String: String] == [
        "149": "Scary", "150": "Scary", "212": "Happy",
      ])
    // The re-analysed app entry keeps the app's title, description and poster.
    #expect(movies[1]["title"] as? String == "The Lion King")
    #expect(movies[1]["poster"] as? String == "LionKing")
    #expect(
      movies[1]["markers"] as? [String: String] == [
        "0": "Happy", "8": "Neutral", "14": "Scary", "24": "Happy",
      ])

    let out = work.appendingPathComponent("app/MovieData.json").path
    try FileManager.default.createDirectory(
      atPath: work.appendingPathComponent("app").path, withIntermediateDirectories: true)
    #expect(try CLI.leamoji(["export", "--format", "ios", "--output", out], in: work).status == 0)
    #expect(try String(contentsOfFile: out, encoding: .utf8) == export.stdout)
    let again = try CLI.leamoji(["export", "--format", "ios", "--output", out], in: work)
    #expect(again.status == 73 && again.stderr.contains("already exists"))
  }

  @Test(
    "--id is kept exactly; a bad one is a usage error", arguments: ["", "a/b", "..", "x\u{1B}y"])
  func badIDs(id: String) throws {
    let result = try CLI.leamoji([
      "analyze", AppFiles.sample, "--id", id, "--output", "/nonexistent/x.json",
    ])
    #expect(result.status == 64 && result.stderr.contains("--id"))
  }

  @Test("merge: exit statuses for a missing, a malformed and a conflicting fragment")
  func mergeErrors() throws {
    let work = try ScratchFolder.url("merge")
    defer { try? FileManager.default.removeItem(at: work) }
    try "[{\"id\": \"a\", \"title\": \"1\"}]".write(
      to: work.appendingPathComponent("1.json"), atomically: true, encoding: .utf8)
    try "[{\"id\": \"a\", \"title\": \"2\"}]".write(
      to: work.appendingPathComponent("2.json"), atomically: true, encoding: .utf8)
    try "{}".write(to: work.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
    let missing = try CLI.leamoji(["merge", "gone.json"], in: work)
    #expect(missing.status == 66 && missing.stderr == "leamoji: gone.json: no such file\n")
    let malformed = try CLI.leamoji(["merge", "bad.json"], in: work)
    #expect(
      malformed.status == 65
        && malformed.stderr
          == "leamoji: bad.json: expected a JSON array of movies, found an object\n"
    )
    let conflict = try CLI.leamoji(["merge", "2.json", "1.json"], in: work)
    #expect(conflict.status == 65 && conflict.stderr.contains("entry \"a\" differs"))
    #expect(
      !FileManager.default.fileExists(atPath: work.appendingPathComponent("MovieData.json").path))
    let fine = try CLI.leamoji(["merge", "1.json", "--json"], in: work)
    #expect(
      fine.status == 0
        && fine.stdout == "{\"added\":[\"a\"],\"copied\":0,\"fragments\":1,\"replaced\":[]}\n")
  }
}
