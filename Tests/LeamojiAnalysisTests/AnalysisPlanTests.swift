import Foundation
import LeamojiAnalysis
import LeamojiTestSupport
import LeamojiTimeline
import Testing

@Suite("AnalysisPlan: analysing a video into the timeline file")
struct AnalysisPlanTests {
  /// The golden file the CLI test also uses: written by `leamoji analyze SampleVideos/*.mp4
  /// --frames --no-poster` before the pipeline moved into this library.
  static let golden = Repository.root.appendingPathComponent(
    "Tests/LeamojiCLITests/Fixtures/golden/sample-videos.MovieData.json")

  @Test("the sample videos give exactly the golden timeline: markers, cues, confidences, frames")
  func goldenTimeline() throws {
    let folder = try ScratchFolder.url("golden")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("MovieData.json").path
    var options = AnalysisPlan.Options()
    options.includeFrames = true
    options.poster = false
    let plan = try AnalysisPlan(
      model: Repository.shippedModel, output: output,
      options: options)
    for name in Repository.sampleNames {
      var reports: [(Int, Int?)] = []
      let stored = try plan.analyze(path: Repository.sampleVideo(name), id: name) {
        reports.append(($0, $1))
      }
      #expect(stored.movie.id == name)
      #expect(stored.replaced == false)
      #expect(stored.corruptPackets == 0)
      #expect(stored.labels.count == Int(stored.movie.duration))
      #expect(reports.last?.0 == stored.labels.count, "progress ends at the sample count")
    }
    let written = try String(contentsOfFile: output, encoding: .utf8)
    #expect(written == (try String(contentsOf: Self.golden, encoding: .utf8)))
  }

  @Test("poster and subtitles land beside the timeline file, in a folder it makes")
  func posterAndSubtitles() throws {
    let folder = try ScratchFolder.url("beside")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("site/data/MovieData.json").path
    var options = AnalysisPlan.Options()
    options.vtt = true
    options.srt = true
    options.interval = 2
    options.title = "Night"
    let plan = try AnalysisPlan(
      model: Repository.shippedModel, output: output,
      options: options)
    let stored = try plan.analyze(path: Repository.sampleVideo("night-walk"), id: "night") { _, _ in
    }
    let data = folder.appendingPathComponent("site/data")
    for name in ["night.jpg", "night.vtt", "night.srt", "MovieData.json"] {
      #expect(
        FileManager.default.fileExists(atPath: data.appendingPathComponent(name).path), "\(name)")
    }
    #expect(stored.movie.poster == "night.jpg")
    #expect(stored.movie.title == "Night")
    #expect(stored.labels.count == 12, "24 s at a 2 s interval")
    let vtt = try String(contentsOf: data.appendingPathComponent("night.vtt"), encoding: .utf8)
    #expect(vtt.hasPrefix("WEBVTT"))
    #expect(try MovieStore(path: output).read().map(\.id) == ["night"])
  }

  @Test("a malformed timeline file is refused before any work, and left as it was")
  func malformedStore() throws {
    let folder = try ScratchFolder.url("malformed")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("MovieData.json").path
    try Data("[{".utf8).write(to: URL(fileURLWithPath: output))
    #expect {
      _ = try AnalysisPlan(
        model: Repository.shippedModel, output: output,
        options: AnalysisPlan.Options())
    } throws: { error in
      let problem = error as? LeamojiError
      return problem?.kind == .badInput && problem?.message.contains(output) == true
    }
    #expect(try String(contentsOfFile: output, encoding: .utf8) == "[{")
  }

  @Test("a video that does not exist is a no-input error naming it; the store is untouched")
  func missingVideo() throws {
    let folder = try ScratchFolder.url("missing")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = folder.appendingPathComponent("MovieData.json").path
    let plan = try AnalysisPlan(
      model: Repository.shippedModel, output: output,
      options: AnalysisPlan.Options())
    let missing = folder.appendingPathComponent("nothing.mp4").path
    #expect {
      _ = try plan.analyze(path: missing, id: "nothing") { _, _ in }
    } throws: { error in
      (error as? LeamojiError)?.kind == .noInput
        && (error as? LeamojiError)?.message == "\(missing): no such file"
    }
    #expect(!FileManager.default.fileExists(atPath: output))
  }

  @Test(
    "--sensitivity: normal follows the card's tuned threshold; high and low are the card's own, else halve the way to 0 and 1"
  )
  func sensitivityFollowsTheCard() {
    typealias S = AnalysisPlan.Sensitivity
    #expect(S.normal.scaryThreshold(tuned: nil) == nil, "no tuned threshold: the most probable")
    #expect(S.high.scaryThreshold(tuned: nil) == 0.3 && S.low.scaryThreshold(tuned: nil) == 0.7)
    #expect(S.normal.scaryThreshold(tuned: 0.2) == 0.2)
    #expect(S.high.scaryThreshold(tuned: 0.2) == 0.1 && S.low.scaryThreshold(tuned: 0.2) == 0.6)
    #expect(S.threshold(0.45).scaryThreshold(tuned: 0.2) == 0.45, "a given probability wins")
    #expect(S.high.scaryThreshold(tuned: 0.45, high: 0.35, low: 0.5) == 0.35)
    #expect(S.low.scaryThreshold(tuned: 0.45, high: 0.35, low: 0.5) == 0.5)
    #expect(S.normal.scaryThreshold(tuned: 0.45, high: 0.35, low: 0.5) == 0.45)
  }
}
