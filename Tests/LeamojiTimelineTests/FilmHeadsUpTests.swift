import Foundation
import LeamojiCore
import LeamojiTestSupport
import LeamojiTimeline
import Testing

/// A marker of `label` at `second` (confidence 0.9, cues 5 s ahead).
private func marker(
  _ label: String, _ second: Double, confidence: Double = 0.9, firedBy: [String]? = nil
) -> Marker {
  Marker(
    confidence: confidence, cueAt: max(0, second - 5), emoji: Label(name: label).emoji,
    label: label, second: second, firedBy: firedBy)
}

/// A film of `duration` seconds with `markers`, optional frames and events.
private func film(
  duration: Double, _ markers: [Marker], frames: [FrameScore]? = nil,
  events: [TimelineEvent]? = nil, sha256: String = "abc"
) -> Movie {
  Movie(
    id: "f", title: "F", duration: duration, markers: markers,
    model: ModelInfo(labels: moodLabels, sha256: sha256), seekAhead: 5, frames: frames,
    events: events)
}

/// One frame per second from a pattern of p(scary) values, labelled as `markers` say.
private func frames(_ pScary: [Double], fired: [Int: [String]] = [:]) -> [FrameScore] {
  pScary.enumerated().map { second, p in
    FrameScore(
      second: Double(second), label: p >= 0.5 ? "scary" : "happy",
      probabilities: ["happy": 1 - p, "neutral": 0, "scary": p], firedBy: fired[second])
  }
}

@Suite("FilmHeadsUp: the per-film heads-up and its 0–5 level")
struct FilmHeadsUpTests {
  @Test("no markers at all: not analysed, no level (not level 0)")
  func notAnalysed() {
    let headsUp = FilmHeadsUp(movie: film(duration: 0, []))
    #expect(!headsUp.analysed && headsUp.level == nil && headsUp.scaryScenes == 0)
    #expect(HeadsUpText.headline(headsUp).contains("not analysed yet"))
    #expect(HeadsUpText.facts(headsUp).isEmpty)
  }

  @Test("no scary marker: level 0, worded as nothing found, never as safe")
  func nothingFound() {
    let headsUp = FilmHeadsUp(
      movie: film(duration: 600, [marker("happy", 0), marker("neutral", 300)]))
    #expect(headsUp.level == 0 && headsUp.scarySeconds == 0 && headsUp.strongest == nil)
    #expect(headsUp.firstScene == nil && headsUp.levelReasons.isEmpty)
    let headline = HeadsUpText.headline(headsUp)
    #expect(headline.contains("no scary scene found by the model"))
    #expect(headline.contains("not a promise that the film is safe"))
  }

  @Test("scenes from the markers: first, longest (ties: earlier), the last running to the end")
  func scenesFromMarkers() {
    // 100 s: scary 10–20 (10 s), happy 20–50, scary 50–60 (10 s), neutral 60–70, scary 70–100.
    let movie = film(
      duration: 100,
      [
        marker("happy", 0), marker("scary", 10), marker("happy", 20), marker("Scary", 50),
        marker("neutral", 60), marker("scary", 70, confidence: 0.7),
      ])
    let headsUp = FilmHeadsUp(movie: movie)
    #expect(headsUp.scaryScenes == 3)
    #expect(headsUp.scarySeconds == 50 && headsUp.scaryShare == 0.5)
    #expect(headsUp.firstScene == FilmHeadsUp.Scene(start: 10, end: 20))
    #expect(headsUp.longestScene == FilmHeadsUp.Scene(start: 70, end: 100))
    // Without frames the strongest is the most confident scene (ties: the earlier), its mean.
    #expect(headsUp.strongest?.second == 10 && headsUp.strongest?.measure == .sceneMean)
    #expect(headsUp.strongest?.pScary == 0.9)
    // 50 % of the film (two rows), no scene of a minute, 0.9 ≥ 0.8: level 1 + 3.
    #expect(headsUp.level == 4)
    #expect(
      headsUp.levelReasons == [
        "scary time at least 5 % of the film", "scary time at least 15 % of the film",
        "p(scary) at least 0.8",
      ])
    let equalLength = FilmHeadsUp(
      movie: film(duration: 40, [marker("scary", 0), marker("happy", 10), marker("scary", 30)]))
    #expect(equalLength.longestScene == FilmHeadsUp.Scene(start: 0, end: 10))
  }

  @Test("all scary: every row but the sudden one, level 5 with a strong second")
  func allScary() {
    let headsUp = FilmHeadsUp(movie: film(duration: 5400, [marker("scary", 0, confidence: 0.95)]))
    #expect(headsUp.scarySeconds == 5400 && headsUp.scaryShare == 1)
    #expect(headsUp.firstScene == headsUp.longestScene)
    #expect(headsUp.level == 5)
    let weak = FilmHeadsUp(movie: film(duration: 5400, [marker("scary", 0, confidence: 0.6)]))
    #expect(weak.level == 4 && !weak.levelReasons.contains("p(scary) at least 0.8"))
  }

  @Test("each row of the rule counts once, at its threshold")
  func ruleThresholds() {
    // 1000 s, one scary scene of n seconds at 100, confidence 0.5 (no strong row).
    func level(scary seconds: Double, confidence: Double = 0.5) -> Int? {
      FilmHeadsUp(
        movie: film(
          duration: 1000,
          [
            marker("happy", 0), marker("scary", 100, confidence: confidence),
            marker("happy", 100 + seconds),
          ])
      ).level
    }
    #expect(level(scary: 49) == 1)  // 4.9 %
    #expect(level(scary: 50) == 2)  // 5 %
    #expect(level(scary: 59) == 2)
    #expect(level(scary: 60) == 3)  // a scene of 1 min
    #expect(level(scary: 149) == 3)
    #expect(level(scary: 150) == 4)  // 15 %
    #expect(level(scary: 150, confidence: 0.8) == 5)
    #expect(level(scary: 10, confidence: 0.8) == 2)
  }

  @Test("frames: the strongest second inside a scary scene, with what fired it")
  func strongestFromFrames() {
    // Scary scene 3–6; second 1 has a higher p but is outside any scary scene.
    var stored = frames(
      [0.1, 0.95, 0.2, 0.6, 0.85, 0.85, 0.3, 0.1], fired: [4: ["sudden", "picture"]])
    stored[4].intensity = 0.7
    let movie = film(
      duration: 8,
      [marker("happy", 0), marker("scary", 3, firedBy: ["picture"]), marker("happy", 6)],
      frames: stored)
    let strongest = FilmHeadsUp(movie: movie).strongest
    #expect(strongest?.second == 4 && strongest?.pScary == 0.85 && strongest?.measure == .second)
    #expect(strongest?.firedBy == ["picture", "sudden"] && strongest?.intensity == 0.7)
    // A second without its own firedBy takes its scene's.
    stored[4].firedBy = nil
    let fromScene = FilmHeadsUp(movie: film(duration: 8, movie.markers, frames: stored)).strongest
    #expect(fromScene?.second == 4 && fromScene?.firedBy == ["picture"])
  }

  @Test("sudden scares only: a warning (level 1 + the strong row), the first one as strongest")
  func suddenOnly() {
    let events = [
      TimelineEvent(cueAt: 15, kind: "sudden", second: 20),
      TimelineEvent(cueAt: 35, kind: "sudden", second: 40),
    ]
    let headsUp = FilmHeadsUp(movie: film(duration: 600, [marker("happy", 0)], events: events))
    #expect(headsUp.scaryScenes == 0 && headsUp.suddenScares == 2)
    #expect(headsUp.level == 2 && headsUp.levelReasons == ["a sudden scare"])
    #expect(
      headsUp.strongest?.second == 20
        && headsUp.strongest?.measure == FilmHeadsUp.Moment.Measure.none)
    #expect(HeadsUpText.facts(headsUp).first == "no scary scene; 2 sudden scares ⚡")
    // Events of other kinds are not sudden scares.
    let other = FilmHeadsUp(
      movie: film(
        duration: 600, [marker("happy", 0)],
        events: [TimelineEvent(cueAt: 0, kind: "other", second: 3)]))
    #expect(other.level == 0)
  }

  @Test("an old file without frames, firedBy or events still has a heads-up")
  func earlierFile() throws {
    let path = Repository.root.appendingPathComponent(
      "Tests/LeamojiCLITests/Fixtures/golden/sample-videos.MovieData.json"
    ).path
    let entries = try MovieStore(path: path).readCatalogue()
    for entry in entries {
      var movie = entry.movie
      movie.frames = nil
      movie.events = nil
      for index in movie.markers.indices { movie.markers[index].firedBy = nil }
      let headsUp = FilmHeadsUp(movie: movie)
      #expect(headsUp.analysed && headsUp.level != nil && headsUp.level! >= 1)
      #expect(headsUp.strongest?.measure == .sceneMean && headsUp.strongest?.firedBy == [])
      #expect(HeadsUpText.details(headsUp).contains { $0.contains("--frames") })
    }
  }

  @Test("the original app's markers: no confidence used, model not recorded")
  func appEntry() throws {
    let json = """
      [{"id":"Alice","markers":{"149":"Scary","150":"Scary","212":"Happy"}}]
      """
    let folder = try ScratchFolder.url("headsup-app")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("MovieData.json").path
    try json.write(toFile: path, atomically: true, encoding: .utf8)
    let entry = try #require(try MovieStore(path: path).readCatalogue().first)
    let headsUp = FilmHeadsUp(entry: entry, current: ModelIdentity(sha256: "abc", version: "2.5"))
    #expect(headsUp.scaryScenes == 1 && headsUp.strongest?.pScary == nil)
    #expect(headsUp.model?.state == .unrecorded)
    #expect(HeadsUpText.short(headsUp).hasSuffix("(model not recorded)"))
  }
}

@Suite("ModelCheck: is a timeline the current model's?")
struct ModelCheckTests {
  let v21 = "213ac7f5ab841c9193e33efc0fc0570ea7429a11ca17904f548b710aec7c24e6"
  let v25 = "6a4db65519bbd5bbce9aed37fd57dfd06dbb1545c17e29730e45314294a5ead9"

  @Test("current, older, other, unrecorded and unchecked, each in plain words")
  func states() {
    let current = ModelIdentity(sha256: v25.uppercased(), version: "2.5")
    let same = ModelCheck(recorded: ModelInfo(labels: [], sha256: v25), current: current)
    #expect(same.state == .current && same.sentence == nil)
    let older = ModelCheck(recorded: ModelInfo(labels: [], sha256: v21), current: current)
    #expect(older.state == .older && older.version == "2.1")
    #expect(
      older.sentence
        == "analysed with an older model (2.1); run `leamoji analyze` again for the current one (2.5)"
    )
    let mine = ModelCheck(
      recorded: ModelInfo(labels: [], sha256: "00ff" + v25.dropFirst(4)), current: current)
    #expect(mine.state == .other && mine.sentence?.contains("sha256 00ffb65519bb") == true)
    // A shipped model's timeline while the user's own model is in use is "another", not older.
    let shippedVsOwn = ModelCheck(
      recorded: ModelInfo(labels: [], sha256: v21), current: ModelIdentity(sha256: "1234"))
    #expect(shippedVsOwn.state == .other && shippedVsOwn.sentence?.contains("(2.1)") == true)
    #expect(ModelCheck(recorded: nil, current: current).state == .unrecorded)
    #expect(
      ModelCheck(recorded: ModelInfo(labels: [], sha256: ""), current: current).state == .unrecorded
    )
    let unchecked = ModelCheck(recorded: ModelInfo(labels: [], sha256: v21), current: nil)
    #expect(unchecked.state == .unchecked && unchecked.sentence?.contains("not known") == true)
  }

  @Test("the shipped model is the newest row of ShippedModels, with its card's version")
  func shippedTable() throws {
    let path = Repository.root.appendingPathComponent("Models/leamoji.safetensors").path
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let newest = try #require(ShippedModels.all.last)
    #expect(SHA256.hex(bytes) == newest.sha256, "a new default model: add its row to ShippedModels")
    // The card's model_version, read from the header's JSON as any safetensors reader would.
    var length = 0
    for index in (0..<8).reversed() { length = length << 8 | Int(bytes[index]) }
    let header = try JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + length)]))
    let metadata = (header as? [String: Any])?["__metadata__"] as? [String: String]
    #expect(metadata?["model_version"] == newest.version)
    #expect(Set(ShippedModels.all.map(\.sha256)).count == ShippedModels.all.count)
  }
}
