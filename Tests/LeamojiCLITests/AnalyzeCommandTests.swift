import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The small test video analyze's tests copy (made once per run by `FFmpegFixtures`).
enum AnalyzeFixtures {
  /// A copy of the 4-second 96x54 clip under `name` in `folder`.
  static func clip(named name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FFmpegFixtures.makeVideo(at: url, seconds: 4, size: "96x54")
    return url
  }
}

/// Parses MovieData.json; nil when it is not a valid array of objects with ids.
func movieIDs(in url: URL) -> [String]? {
  guard let data = try? Data(contentsOf: url),
    let array = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
  else { return nil }
  let ids = array.compactMap { $0["id"] as? String }
  return ids.count == array.count ? ids : nil
}

@Suite("leamoji analyze and timeline")
struct AnalyzeCommandTests {
  @Test(
    "analyze writes a sorted entry, poster and subtitles; --json prints the stored entry; timeline reads it"
  )
  func analyzeOne() throws {
    let work = try ScratchFolder.url("analyze")
    defer { try? FileManager.default.removeItem(at: work) }
    let video = try AnalyzeFixtures.clip(named: "My Film (2024).mp4", in: work)
    let data = work.appendingPathComponent("out/MovieData.json")
    try FileManager.default.createDirectory(
      at: data.deletingLastPathComponent(), withIntermediateDirectories: true)
    let result = try CLI.leamoji([
      "analyze", video.path, "--output", data.path, "--json", "--vtt", "--srt", "--seek-ahead", "2",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let printed = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let stored = try #require(
      (try JSONSerialization.jsonObject(with: Data(contentsOf: data)) as? [[String: Any]])?.first)
    #expect(
      NSDictionary(dictionary: printed).isEqual(to: stored), "--json prints the entry as stored")
    #expect(stored["id"] as? String == "my-film-2024")
    #expect(stored["seekAhead"] as? Double == 2)
    #expect(stored["poster"] as? String == "my-film-2024.jpg")
    #expect(stored["title"] as? String == "my-film-2024")
    let markers = try #require(stored["markers"] as? [[String: Any]])
    #expect(markers.first?["second"] as? Double == 0 && markers.first?["cueAt"] as? Double == 0)
    for name in ["my-film-2024.jpg", "my-film-2024.vtt", "my-film-2024.srt"] {
      #expect(
        FileManager.default.fileExists(
          atPath: data.deletingLastPathComponent().appendingPathComponent(name).path), "\(name)")
    }
    let text = try String(contentsOf: data, encoding: .utf8)
    #expect(text.hasSuffix("}\n]\n") && text.contains("\"cueAt\" : 0"))

    let timeline = try CLI.leamoji(["timeline", video.path, "--data", data.path])
    #expect(timeline.status == 0, "\(timeline.stderr)")
    #expect(timeline.stdout.contains("my-film-2024") && timeline.stdout.contains("cue at 0:00"))
    let missing = try CLI.leamoji(["timeline", "other.mp4", "--data", data.path])
    #expect(
      missing.status == 66 && missing.stderrLines.count == 1
        && missing.stderr.contains("leamoji analyze other.mp4"))
  }

  @Test(
    "--sensitivity: high warns of at least the seconds normal does, low of at most; a bad level is one clear line"
  )
  func sensitivity() throws {
    let work = try ScratchFolder.url("sensitivity")
    defer { try? FileManager.default.removeItem(at: work) }
    func scarySeconds(_ level: String) throws -> Int {
      let r = try CLI.leamoji([
        "analyze", AppFiles.sample, "--sensitivity", level, "--no-poster", "--output",
        work.appendingPathComponent("\(level).json").path,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      guard let range = r.stdout.range(of: #"scary (\d+) s"#, options: .regularExpression) else {
        return 0
      }
      return Int(r.stdout[range].split(separator: " ")[1]) ?? -1
    }
    let (low, normal, high) = try (
      scarySeconds("low"), scarySeconds("normal"), scarySeconds("high")
    )
    #expect(low <= normal && normal <= high, "low \(low), normal \(normal), high \(high)")
    // The shipped model's card records the threshold normal uses.
    let card = try CLI.leamoji(["model", "--json"])
    let tuned = try #require(
      ((try JSONSerialization.jsonObject(with: Data(card.stdout.utf8)) as? [String: Any])?["card"]
        as? [String: Any])?["scary_threshold"] as? Double)
    #expect(try scarySeconds("\(tuned)") == normal, "normal is the card's threshold \(tuned)")
    #expect(try scarySeconds("0.01") >= high)
    let bad = try CLI.leamoji(["analyze", AppFiles.sample, "--sensitivity", "1.5"])
    #expect(bad.status == 64)
    #expect(bad.stderr.hasPrefix("Error: --sensitivity takes low, normal, high"), "\(bad.stderr)")
  }

  @Test("a batch reports a bad file, finishes the others, and exits non-zero")
  func batchWithABadFile() throws {
    let work = try ScratchFolder.url("batch")
    defer { try? FileManager.default.removeItem(at: work) }
    let a = try AnalyzeFixtures.clip(named: "a.mp4", in: work)
    let b = try AnalyzeFixtures.clip(named: "b.mp4", in: work)
    let bad = work.appendingPathComponent("bad.mp4")
    try Data("not a video".utf8).write(to: bad)
    let data = work.appendingPathComponent("MovieData.json")
    let result = try CLI.leamoji([
      "analyze", a.path, bad.path, b.path, "--output", data.path, "--jobs", "2", "--no-poster",
    ])
    #expect(result.status == 65)
    #expect(result.stderrLines.count == 1 && result.stderr.contains("bad.mp4"), "\(result.stderr)")
    #expect(movieIDs(in: data) == ["a", "b"])
    #expect(
      !FileManager.default.fileExists(atPath: work.appendingPathComponent("a.jpg").path),
      "--no-poster")
  }

  @Test(
    "re-analysis replaces only its entry and keeps a user-edited title; a malformed file is left untouched"
  )
  func mergeAndMalformed() throws {
    let work = try ScratchFolder.url("merge")
    defer { try? FileManager.default.removeItem(at: work) }
    let a = try AnalyzeFixtures.clip(named: "a.mp4", in: work)
    let b = try AnalyzeFixtures.clip(named: "b.mp4", in: work)
    let data = work.appendingPathComponent("MovieData.json")
    #expect(try CLI.leamoji(["analyze", a.path, b.path, "--output", data.path]).status == 0)
    var text = try String(contentsOf: data, encoding: .utf8)
    text = text.replacingOccurrences(of: "\"title\" : \"a\"", with: "\"title\" : \"Our Holiday\"")
    try text.write(to: data, atomically: true, encoding: .utf8)
    let again = try CLI.leamoji(["analyze", a.path, "--output", data.path])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stderr.contains("replaced"))
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: data)) as? [[String: Any]])
    #expect(entries.map { $0["id"] as? String } == ["a", "b"])
    #expect(entries.first?["title"] as? String == "Our Holiday")
    #expect(
      try CLI.leamoji(["analyze", a.path, "--output", data.path, "--title", "New"]).status == 0)
    #expect(
      (try JSONSerialization.jsonObject(with: Data(contentsOf: data)) as? [[String: Any]])?.first?[
        "title"] as? String == "New")

    let broken = Data("[{\"id\": \"x\",".utf8)
    try broken.write(to: data)
    let refused = try CLI.leamoji(["analyze", a.path, "--output", data.path])
    #expect(
      refused.status != 0 && refused.stderrLines.count == 1 && refused.stderr.contains(data.path),
      "\(refused.stderr)")
    #expect(try Data(contentsOf: data) == broken)
  }

  @Test("8 concurrent analyze processes into one file lose nothing")
  func concurrentProcesses() throws {
    let work = try ScratchFolder.url("concurrent")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    let videos = try (1...8).map { try AnalyzeFixtures.clip(named: "v\($0).mp4", in: work) }
    let processes = try videos.map { video in
      try ProcessRunner.start(
        CLI.binary, ["analyze", video.path, "--output", data.path, "--no-poster"])
    }
    for process in processes {
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
    }
    #expect(movieIDs(in: data) == (1...8).map { "v\($0)" })
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path).filter {
      $0.hasSuffix(".tmp")
    }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }
}

@Suite("analyze on the sample videos with the shipped model")
struct AnalyzeSampleVideosGoalTests {
  @Test(
    "≥ 90 % of seconds as the ground truth says; every true scene change has a marker within ±1 s",
    arguments: ["meadow-storm", "night-walk", "party-cellar"])
  func endToEnd(name: String) throws {
    let repository = Repository.root
    let video = repository.appendingPathComponent("SampleVideos/\(name).mp4")
    let truthData = try Data(
      contentsOf: repository.appendingPathComponent("SampleVideos/\(name).truth.json"))
    let truth = try #require(
      (try JSONSerialization.jsonObject(with: truthData) as? [String: Any])?["labels"] as? [String])
    let work = try ScratchFolder.url("samples")
    defer { try? FileManager.default.removeItem(at: work) }
    let result = try CLI.leamoji([
      "analyze", video.path, "--output", work.appendingPathComponent("MovieData.json").path,
      "--frames", "--json", "--no-poster",
    ])
    try #require(result.status == 0, "\(result.stderr)")
    let entry = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let frames = try #require(entry["frames"] as? [[String: Any]])
    let labels = frames.compactMap { $0["label"] as? String }
    #expect(labels.count == truth.count)
    let right = zip(labels, truth).filter { $0 == $1 }.count
    #expect(Double(right) >= 0.9 * Double(truth.count), "\(name): \(right)/\(truth.count)")
    let markerSeconds = try #require(entry["markers"] as? [[String: Any]]).compactMap {
      $0["second"] as? Double
    }
    let changes = truth.indices.dropFirst().filter { truth[$0] != truth[$0 - 1] }
    for change in changes {
      #expect(
        markerSeconds.contains { abs($0 - Double(change)) <= 1 },
        "\(name): no marker near the change at \(change) s; markers \(markerSeconds)")
    }
  }
}

@Suite("analyze on the sample videos: the golden timeline")
struct AnalyzeGoldenTests {
  /// `Fixtures/golden/sample-videos.MovieData.json` was written by `leamoji analyze
  /// SampleVideos/*.mp4 --frames --no-poster` before the code was restructured (issue 10); a
  /// restructuring must not change a marker, label, cue, confidence or probability.
  @Test("markers, labels, confidences and per-second probabilities are exactly the golden file's")
  func samplesMatchTheGoldenFile() throws {
    let repository = Repository.root
    let golden = repository.appendingPathComponent(
      "Tests/LeamojiCLITests/Fixtures/golden/sample-videos.MovieData.json")
    let work = try ScratchFolder.url("golden")
    defer { try? FileManager.default.removeItem(at: work) }
    let output = work.appendingPathComponent("MovieData.json")
    let videos = ["meadow-storm", "night-walk", "party-cellar"].map {
      repository.appendingPathComponent("SampleVideos/\($0).mp4").path
    }
    let result = try CLI.leamoji(
      ["analyze"] + videos + ["--output", output.path, "--frames", "--no-poster"])
    try #require(result.status == 0, "\(result.stderr)")
    let written = try String(contentsOf: output, encoding: .utf8)
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(written == expected)
  }
}
