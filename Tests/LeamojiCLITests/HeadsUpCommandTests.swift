import Foundation
import LeamojiTestSupport
import Testing

@Suite("timeline, list: the heads-up per film")
struct HeadsUpCommandTests {
  /// The sample videos' timeline (made with the shipped model) and one entry made by model 2.1.
  static func catalogue() throws -> URL {
    let work = try ScratchFolder.url("headsup-cli")
    let golden = Repository.root.appendingPathComponent(
      "Tests/LeamojiCLITests/Fixtures/golden/sample-videos.MovieData.json")
    var text = try String(contentsOf: golden, encoding: .utf8)
    let older = """
      [
        { "description" : "", "duration" : 600, "id" : "aaa-older", "seekAhead" : 5, "title" : "Older",
          "model" : { "labels" : [ "happy", "neutral", "scary" ],
            "sha256" : "213ac7f5ab841c9193e33efc0fc0570ea7429a11ca17904f548b710aec7c24e6" },
          "markers" : [ { "confidence" : 0.9, "cueAt" : 0, "emoji" : "😀", "label" : "happy", "second" : 0 } ] },
      """
    text = older + text.drop { $0 != "{" }
    try text.write(
      to: work.appendingPathComponent("MovieData.json"), atomically: true, encoding: .utf8)
    return work
  }

  @Test("list ends each line with the level and flags a timeline of an older model")
  func list() throws {
    let work = try Self.catalogue()
    defer { try? FileManager.default.removeItem(at: work) }
    let result = try CLI.leamoji(["list"], in: work)
    try #require(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(
      lines[0].hasPrefix("aaa-older ") && lines[0].hasSuffix("heads-up 0/5 (older model 2.1)"))
    #expect(lines[1].hasPrefix("meadow-storm ") && lines[1].hasSuffix("not edited  heads-up 4/5"))
    let json = try CLI.leamoji(["list", "--json"], in: work)
    let first = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.split(separator: "\n")[0].utf8))
        as? [String: Any])
    let headsUp = try #require(first["headsUp"] as? [String: Any])
    #expect(headsUp["level"] as? Int == 0)
    let model = try #require(headsUp["model"] as? [String: Any])
    #expect(model["state"] as? String == "older" && model["version"] as? String == "2.1")
    #expect(model["currentVersion"] as? String == "2.6")
  }

  @Test("timeline prints the heads-up after the strip; --json adds headsUp and keeps every key")
  func timeline() throws {
    let work = try Self.catalogue()
    defer { try? FileManager.default.removeItem(at: work) }
    let text = try CLI.leamoji(["timeline", "meadow-storm"], in: work)
    try #require(text.status == 0, "\(text.stderr)")
    let lines = text.stdout.split(separator: "\n").map(String.init)
    let headline = try #require(lines.firstIndex { $0.hasPrefix("Heads-up: level ") })
    #expect(lines[headline - 1].hasPrefix("  hhhhhhhhnnnnnnssssssssss"))
    #expect(lines[headline + 1] == "  1 scary scene, 10 s in all (33.3 % of the film)")
    #expect(lines[headline + 2] == "  first and longest: 0:14–0:24 (10 s)")
    #expect(lines[headline + 3].hasPrefix("  strongest moment: 0:"))
    #expect(lines.count == headline + 4)

    let older = try CLI.leamoji(["timeline", "aaa-older"], in: work)
    #expect(
      older.stdout.hasSuffix(
        "Heads-up: level 0 of 5 — no scary scene found by the model (this is not a promise that "
          + "the film is safe)\n  analysed with an older model (2.1); run `leamoji analyze` again "
          + "for the current one (2.6)\n"))

    let json = try CLI.leamoji(["timeline", "meadow-storm", "--json"], in: work)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(
      Set(object.keys) == [
        "description", "duration", "frames", "headsUp", "id", "markers", "model", "seekAhead",
        "title",
      ])
    let headsUp = try #require(object["headsUp"] as? [String: Any])
    #expect(headsUp["scaryScenes"] as? Int == 1 && headsUp["scarySeconds"] as? Double == 10)
    #expect((headsUp["model"] as? [String: Any])?["state"] as? String == "current")
  }

  @Test("--model naming a missing file or no model: one line on stderr, exit 66 or 65")
  func badModel() throws {
    let work = try Self.catalogue()
    defer { try? FileManager.default.removeItem(at: work) }
    let missing = try CLI.leamoji(["list", "--model", "gone.safetensors"], in: work)
    #expect(missing.status == 66 && missing.stdout.isEmpty)
    #expect(
      missing.stderr.hasPrefix("leamoji: gone.safetensors: ")
        && missing.stderr.filter { $0 == "\n" }.count == 1)
    let notModel = try CLI.leamoji(
      ["timeline", "meadow-storm", "--model", "MovieData.json"], in: work)
    #expect(notModel.status == 65 && notModel.stdout.isEmpty)
    #expect(notModel.stderr.hasPrefix("leamoji: MovieData.json: "))
  }
}
