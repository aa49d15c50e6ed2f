import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiTimeline

@Suite("Subtitles")
struct SubtitlesTests {
  /// Happy from 0, scary from 12 (cue at 7), neutral from 15 (cue at 12.5, a 2.5 s heads-up), and a
  /// label that needs escaping past the one-hour mark.
  static let markers = [
    Marker(confidence: 0.9, cueAt: 0, emoji: "😀", label: "happy", second: 0),
    Marker(confidence: 0.8, cueAt: 7, emoji: "😱", label: "scary", second: 12),
    Marker(confidence: 0.7, cueAt: 12.5, emoji: "😐", label: "neutral", second: 15),
    Marker(confidence: 0.6, cueAt: 3595, emoji: "😀", label: "happy & <calm>", second: 3600),
  ]
  static let duration = 3661.25

  /// (start, end) in seconds of every cue, in file order.
  static let expectedTimes: [(Double, Double)] = [
    (0, 12), (7, 12), (12, 15), (12.5, 15), (15, 3600), (3595, 3600), (3600, 3661.25),
  ]

  @Test("WebVTT text")
  func webVTT() {
    let expected = """
      WEBVTT

      00:00:00.000 --> 00:00:12.000
      😀 happy

      00:00:07.000 --> 00:00:12.000
      😱 in 5 s

      00:00:12.000 --> 00:00:15.000
      😱 scary

      00:00:12.500 --> 00:00:15.000
      😐 in 2.5 s

      00:00:15.000 --> 01:00:00.000
      😐 neutral

      00:59:55.000 --> 01:00:00.000
      😀 in 5 s

      01:00:00.000 --> 01:01:01.250
      😀 happy &amp; &lt;calm&gt;

      """
    #expect(Subtitles.webVTT(markers: Self.markers, duration: Self.duration) == expected)
  }

  @Test("SRT text")
  func srt() {
    let markers = Array(Self.markers.prefix(2).reversed())  // any order in, sorted out
    let expected = """
      1
      00:00:00,000 --> 00:00:12,000
      😀 happy

      2
      00:00:07,000 --> 00:00:12,000
      😱 in 5 s

      3
      00:00:12,000 --> 00:00:20,000
      😱 scary

      """
    #expect(Subtitles.srt(markers: markers, duration: 20) == expected)
  }

  @Test("no heads-up when cueAt == second; nothing after the end; empty input")
  func edges() {
    let markers = [
      Marker(confidence: 1, cueAt: 0, emoji: "😀", label: "happy", second: 0),
      Marker(confidence: 1, cueAt: 4, emoji: "😱", label: "scary", second: 4),
      Marker(confidence: 1, cueAt: 5, emoji: "😐", label: "neutral", second: 10),
    ]
    let cues = Subtitles.cues(markers: markers, duration: 10)
    #expect(cues.map(\.text) == ["😀 happy", "😱 scary", "😐 in 5 s"])
    #expect(Subtitles.webVTT(markers: [], duration: 10) == "WEBVTT\n")
    #expect(Subtitles.srt(markers: [], duration: 10) == "")
    let odd = [Marker(confidence: 1, cueAt: 0, emoji: "❔", label: "<b>{x}\nline", second: 0)]
    #expect(
      Subtitles.srt(markers: odd, duration: 1)
        == "1\n00:00:00,000 --> 00:00:01,000\n❔ ‹b›(x) line\n")
    #expect(Subtitles.webVTT(markers: odd, duration: 1).hasSuffix("\n❔ &lt;b&gt;{x} line\n"))
  }

  @Test("FFmpeg reads both files without a warning and sees the same cue times")
  func ffmpegReadsThem() throws {
    let folder = try ScratchFolder("subtitles")
    defer { folder.remove() }
    let files = [
      ("cues.vtt", Subtitles.webVTT(markers: Self.markers, duration: Self.duration), "srt"),
      ("cues.srt", Subtitles.srt(markers: Self.markers, duration: Self.duration), "webvtt"),
    ]
    for (name, text, otherFormat) in files {
      try folder.write(text, to: name)
      let path = folder.file(name)
      // The demuxer alone (stream copy), then the decoder (converted to the other format).
      let copy = try ExternalTool.run(
        "ffmpeg",
        ["-nostdin", "-v", "warning", "-i", path, "-map", "0", "-c", "copy", "-f", "null", "-"])
      #expect(copy.status == 0 && copy.stderr.isEmpty, "\(name): \(copy.stderr)")
      let convert = try ExternalTool.run(
        "ffmpeg", ["-nostdin", "-v", "warning", "-i", path, "-f", otherFormat, "-"])
      #expect(convert.status == 0 && convert.stderr.isEmpty, "\(name): \(convert.stderr)")
      #expect(convert.stdout.contains("😱 in 5 s") && convert.stdout.contains("😱 scary"))

      let probe = try ExternalTool.run(
        "ffprobe", ["-v", "error", "-show_packets", "-of", "json", path])
      #expect(probe.status == 0 && probe.stderr.isEmpty, "\(name): \(probe.stderr)")
      let times = try packetTimes(probe.stdout)
      #expect(times.count == Self.expectedTimes.count, "\(name)")
      for (found, expected) in zip(times, Self.expectedTimes) {
        #expect(
          abs(found.0 - expected.0) < 0.0005 && abs(found.0 + found.1 - expected.1) < 0.0005,
          "\(name)")
      }
    }
  }

  /// (pts_time, duration_time) of every packet in `ffprobe -show_packets -of json` output.
  private func packetTimes(_ json: String) throws -> [(Double, Double)] {
    struct Packets: Decodable {
      struct Packet: Decodable {
        var pts_time: String
        var duration_time: String
      }
      var packets: [Packet]
    }
    let packets = try JSONDecoder().decode(Packets.self, from: Data(json.utf8)).packets
    return packets.map { (Double($0.pts_time) ?? -1, Double($0.duration_time) ?? -1) }
  }
}
