import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 37: damaged timestamps cost little. Files whose timestamps claim hours to a year for
/// their 300 frames are analysed in at most 10 times the CPU time the ffmpeg CLI takes to decode
/// all their packets (2 s at least, for start-up and the model), with one warning line that
/// names the file; an honest slideshow is analysed every second without a warning.
///
/// CPU time, not wall time: on a machine shared with other builds, the wall time of a run
/// whose threads hand work to each other (the network splits each image over two) grows with
/// everyone else's load far more than a single pass of ffmpeg's does.
@Suite("Damaged timestamps: analyze costs at most 10 times a full decode")
struct DamagedTimestampTimingTests {
  /// What one run of a program cost.
  struct Cost {
    var status: Int32
    /// User and system CPU seconds.
    var cpu: Double
    var wall: Double
  }

  /// Runs `arguments` (stderr into the file `stderr`) to its end, or kills it after `timeout`
  /// seconds; its exit status (or -1 after a signal) and cost, from `wait4`.
  static func measure(_ arguments: [String], stderr: String, timeout: Double = 120) throws -> Cost {
    let start = Date()
    let pid = try ProcessRunner.spawn(arguments, stderr: stderr)
    var status: Int32 = 0
    var usage = rusage()
    var killed = false
    while true {
      let reaped = wait4(pid, &status, WNOHANG, &usage)
      if reaped == pid || (reaped < 0 && errno != EINTR) { break }
      if !killed && Date().timeIntervalSince(start) > timeout {
        kill(pid, SIGKILL)
        killed = true
      }
      usleep(5000)
    }
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return Cost(
      status: status & 0x7F == 0 ? (status >> 8) & 0xFF : -1,
      cpu: seconds(usage.ru_utime) + seconds(usage.ru_stime),
      wall: Date().timeIntervalSince(start))
  }

  @Test("analyze against ffmpeg's decode of every packet", arguments: DamagedTimestamps.allCases)
  func analyzeCost(_ video: DamagedTimestamps) throws {
    let work = try ScratchFolder.url("damaged-timestamps")
    defer { try? FileManager.default.removeItem(at: work) }
    let path = try video.url.path
    let ffmpeg = try #require(ProcessRunner.locate("ffmpeg"), "the ffmpeg CLI")
    let log = work.appendingPathComponent("stderr.txt").path
    let decode = try Self.measure(
      [ffmpeg, "-v", "error", "-nostdin", "-i", path, "-f", "null", "-"], stderr: log)
    #expect(
      decode.status == 0, "ffmpeg: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
    let output = work.appendingPathComponent("MovieData.json")
    let analyze = try Self.measure(
      [CLI.binary, "analyze", path, "--output", output.path], stderr: log)
    let stderrLines = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
    #expect(analyze.status == 0, "\(video): \(stderrLines)")
    let budget = max(2, 10 * decode.cpu)
    let figures =
      "analyze took \(analyze.cpu) CPU s (\(analyze.wall) s), ffmpeg's decode \(decode.cpu) CPU s "
      + "(\(decode.wall) s)"
    #expect(analyze.cpu <= budget, "\(video): \(figures)")
    let entries = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [[String: Any]])
    let duration = try #require(entries.first?["duration"] as? Double)
    if video.isHonest {
      #expect(stderrLines.isEmpty, "\(stderrLines)")
      #expect(duration == 120)
    } else {
      #expect(stderrLines.count == 1, "\(video): \(stderrLines)")
      let line = try #require(stderrLines.first)
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
