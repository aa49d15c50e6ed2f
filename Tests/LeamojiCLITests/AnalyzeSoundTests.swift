import Foundation
import LeamojiTestSupport
import Testing

/// Clips with sound for analyze's tests, made with the ffmpeg CLI (cached between runs).
enum SoundClips {
  /// 12 s at 96x54: a calm grey picture for 6 s with quiet noise, then at 6 s a hard cut to a
  /// moving test pattern with a loud tone burst from 6.2 s (a jump scare), back to quiet noise
  /// at 8 s.
  static func jumpScare(at url: URL, audio: Bool = true) throws {
    var arguments = [
      "-f", "lavfi", "-i", "color=c=0x505050:size=96x54:rate=25:duration=6",
      "-f", "lavfi", "-i", "testsrc2=size=96x54:rate=25:duration=6",
    ]
    if audio {
      arguments += [
        "-f", "lavfi", "-i",
        "anoisesrc=color=pink:amplitude=0.02:duration=12:seed=7:sample_rate=48000",
        "-f", "lavfi", "-i", "sine=frequency=880:sample_rate=48000:duration=1.8",
        "-filter_complex",
        "[0:v][1:v]concat=n=2:v=1:a=0[v];[3:a]volume=12,adelay=6200:all=1[b];[2:a][b]amix=inputs=2:normalize=0[a]",
        "-map", "[v]", "-map", "[a]", "-c:a", "aac", "-ac", "2",
      ]
    } else {
      arguments += ["-filter_complex", "[0:v][1:v]concat=n=2:v=1:a=0[v]", "-map", "[v]"]
    }
    arguments += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-t", "12", url.path]
    try FFmpegFixtures.run(arguments)
  }

  static func entry(_ data: URL) throws -> [String: Any] {
    let array = try JSONSerialization.jsonObject(with: Data(contentsOf: data)) as? [[String: Any]]
    return try #require(array?.first)
  }
}

@Suite("leamoji analyze with sound")
struct AnalyzeSoundTests {
  @Test("a jump scare is a sudden event and a scary scene fired by it; timeline says why")
  func jumpScare() throws {
    let work = try ScratchFolder.url("analyze-sound")
    defer { try? FileManager.default.removeItem(at: work) }
    let video = work.appendingPathComponent("jump.mp4")
    try SoundClips.jumpScare(at: video)
    let data = work.appendingPathComponent("MovieData.json")
    let result = try CLI.leamoji([
      "analyze", video.path, "--output", data.path, "--frames", "--no-poster", "--verbose",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("listened to audio stream 0 (aac, 48000 Hz, 2 channels)"))
    let entry = try SoundClips.entry(data)
    let events = try #require(entry["events"] as? [[String: Any]])
    #expect(events.count == 1)
    #expect(events.first?["second"] as? Double == 6)
    #expect(events.first?["kind"] as? String == "sudden")
    let markers = try #require(entry["markers"] as? [[String: Any]])
    let scary = markers.filter { $0["label"] as? String == "scary" }
    #expect(scary.contains { ($0["firedBy"] as? [String])?.contains("sudden") == true })
    #expect(
      markers.filter { $0["label"] as? String != "scary" }.allSatisfy { $0["firedBy"] == nil })
    let frames = try #require(entry["frames"] as? [[String: Any]])
    #expect(frames.count == 12)
    let intensity = frames.compactMap { $0["intensity"] as? Double }
    #expect(intensity.count == 12)
    #expect(intensity[6] > intensity[2], "the burst is louder than the noise")

    // The sound is measured on a thread of its own: a second run gives the same bytes.
    let again = work.appendingPathComponent("again.json")
    #expect(
      try CLI.leamoji([
        "analyze", video.path, "--output", again.path, "--frames", "--no-poster",
      ]).status == 0)
    #expect(try Data(contentsOf: again) == Data(contentsOf: data))

    let timeline = try CLI.leamoji(["timeline", video.path, "--data", data.path])
    #expect(timeline.status == 0)
    #expect(timeline.stdout.contains("⚡ sudden scare at 0:06  cue at 0:01"))
    #expect(
      timeline.stdout.contains("😱 scary (26%, sound + sudden 👂⚡)")
        || timeline.stdout.contains("sudden ⚡)"), "\(timeline.stdout)")
  }

  @Test("--signals picture, and a video without sound, give the picture's timeline exactly")
  func pictureAlone() throws {
    let work = try ScratchFolder.url("analyze-sound-picture")
    defer { try? FileManager.default.removeItem(at: work) }
    let loud = work.appendingPathComponent("jump.mp4")
    let mute = work.appendingPathComponent("mute/jump.mp4")
    try FileManager.default.createDirectory(
      at: mute.deletingLastPathComponent(), withIntermediateDirectories: true)
    try SoundClips.jumpScare(at: loud)
    try SoundClips.jumpScare(at: mute, audio: false)
    let a = work.appendingPathComponent("a.json")
    let b = work.appendingPathComponent("b.json")
    #expect(
      try CLI.leamoji([
        "analyze", loud.path, "--output", a.path, "--frames", "--no-poster", "--signals", "picture",
      ]).status == 0)
    #expect(
      try CLI.leamoji(["analyze", mute.path, "--output", b.path, "--frames", "--no-poster"]).status
        == 0)
    let picture = try SoundClips.entry(a)
    let silent = try SoundClips.entry(b)
    #expect(picture["events"] == nil && silent["events"] == nil)
    let keys = ["markers", "frames"]
    for key in keys {
      #expect(
        NSArray(array: picture[key] as? [Any] ?? []).isEqual(to: silent[key] as? [Any] ?? [1]),
        "\(key)")
    }
    let text = try String(contentsOf: a, encoding: .utf8)
    #expect(!text.contains("firedBy") && !text.contains("intensity"))
  }

  @Test("bad sound options and streams: one clear line, a non-zero exit, nothing written")
  func badInput() throws {
    let work = try ScratchFolder.url("analyze-sound-bad")
    defer { try? FileManager.default.removeItem(at: work) }
    let video = work.appendingPathComponent("jump.mp4")
    try SoundClips.jumpScare(at: video)
    let data = work.appendingPathComponent("MovieData.json")
    let unknown = try CLI.leamoji([
      "analyze", video.path, "--output", data.path, "--signals", "smell",
    ])
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains("--signals takes picture, sound and sudden"))
    let missing = try CLI.leamoji([
      "analyze", video.path, "--output", data.path, "--audio-stream", "3",
    ])
    #expect(missing.status != 0)
    #expect(missing.stderr.contains("jump.mp4"))
    #expect(missing.stderr.contains("audio stream 3"))
    #expect(missing.stderr.split(separator: "\n").count == 1, "\(missing.stderr)")
    #expect(!FileManager.default.fileExists(atPath: data.path))
    let audioOnly = work.appendingPathComponent("tone.m4a")
    try FFmpegFixtures.run([
      "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "aac", audioOnly.path,
    ])
    let noVideo = try CLI.leamoji(["analyze", audioOnly.path, "--output", data.path])
    #expect(noVideo.status != 0)
    #expect(noVideo.stderr.contains("no video stream"))
  }
}
