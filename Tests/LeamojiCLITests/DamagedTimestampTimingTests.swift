import Foundation
import LeamojiTestSupport
import Testing

/// Issue 37: damaged timestamps cost little. Files whose timestamps claim hours to a year for
/// their 300 frames are analysed in at most 10 times what the ffmpeg CLI takes to decode all
/// their packets (2 s at least, for start-up and the model), with one warning line that names
/// the file; an honest slideshow is analysed every second without a warning.
@Suite("Damaged timestamps: analyze costs at most 10 times a full decode")
struct DamagedTimestampTimingTests {
  /// The shortest of two runs of `run`: what the file costs, less the load of other processes.
  static func fastest(_ run: () throws -> ProcessResult) throws -> ProcessResult {
    let first = try run()
    let second = try run()
    return first.seconds <= second.seconds ? first : second
  }

  @Test("analyze against ffmpeg's decode of every packet", arguments: DamagedTimestamps.allCases)
  func analyzeCost(_ video: DamagedTimestamps) throws {
    let work = try ScratchFolder.url("damaged-timestamps")
    defer { try? FileManager.default.removeItem(at: work) }
    let path = try video.url.path
    let decode = try Self.fastest {
      try ProcessRunner.run("ffmpeg", ["-v", "error", "-nostdin", "-i", path, "-f", "null", "-"])
    }
    #expect(decode.status == 0, "ffmpeg: \(decode.stderr)")
    let output = work.appendingPathComponent("MovieData.json")
    let analyze = try Self.fastest {
      try CLI.leamoji(["analyze", path, "--output", output.path, "--json"], timeout: 60)
    }
    #expect(analyze.status == 0 && !analyze.signalled, "\(video): \(analyze.stderr)")
    let budget = max(2, 10 * decode.seconds)
    #expect(
      analyze.seconds <= budget,
      "\(video): analyze took \(analyze.seconds) s, ffmpeg's decode \(decode.seconds) s")
    let entry = try #require(
      try JSONSerialization.jsonObject(with: Data(analyze.stdout.utf8)) as? [String: Any])
    let duration = try #require(entry["duration"] as? Double)
    if video.isHonest {
      #expect(analyze.stderrLines.isEmpty, "\(analyze.stderr)")
      #expect(duration == 120)
    } else {
      #expect(analyze.stderrLines.count == 1, "\(video): \(analyze.stderr)")
      let line = try #require(analyze.stderrLines.first)
      #expect(
        line.hasPrefix("leamoji: warning: \(path): its timestamps keep the frame at ")
          && line.contains("; analysed the first "),
        "\(line)")
      #expect(duration <= 72, "\(video): the entry's duration is the analysed part: \(duration)")
    }
  }

  @Test("frames writes the analysed part only, with the same warning")
  func framesBounded() throws {
    let work = try ScratchFolder.url("damaged-timestamps-frames")
    defer { try? FileManager.default.removeItem(at: work) }
    let path = try DamagedTimestamps.jumpToDay70.url.path
    let out = work.appendingPathComponent("frames")
    let run = try CLI.leamoji(["frames", path, "--out", out.path], timeout: 60)
    #expect(run.status == 0, "\(run.stderr)")
    let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
    #expect(written.count == 66, "0 … 65 s: \(written.count) files")
    #expect(
      run.stderrLines == [
        "leamoji: warning: \(path): its timestamps keep the frame at 5.96 s on screen longer "
          + "than 1 min (the video claims 70 days); analysed the first 1 min 6 s it can show"
      ], "\(run.stderr)")
  }
}
