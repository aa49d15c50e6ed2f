import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiVideo

/// `AudioSampler` against clips whose sound is known: where a tone lands, silence, late and
/// early audio, stream choice, rates, layouts, bad inputs (docs/frame-sampling.md, "The sound
/// of a sample").
@Suite("Sound of each sample")
struct AudioSamplerTests {
  static let rate = AudioSampler.sampleRate

  /// The first `count` windows of `path` at `interval` (the sampler's failure, if any, too).
  func windows(
    _ path: String, count: Int, interval: Double = 1, audioStream: Int? = nil
  ) throws -> (windows: [SoundWindow], failure: String?) {
    let sampler = try #require(
      try AudioSampler(path: path, interval: interval, audioStream: audioStream))
    let windows = (0..<count).map { sampler.window(sample: $0) }
    return (windows, sampler.failure)
  }

  @Test("a tone burst lands in its window, to within a few ms", arguments: ["pcm_s16le", "aac"])
  func toneBurst(_ codec: String) throws {
    // A 1 kHz tone from 3.2 s to 3.5 s, silence elsewhere.
    let path = try AudioFixtures.video(
      "burst-\(codec)", seconds: 6,
      audio: [
        AudioFixtures.expression("if(between(t,3.2,3.5),0.5*sin(2*PI*1000*t),0)", seconds: 6)
      ],
      codecArguments: ["-c:a", codec], ext: codec == "aac" ? "mp4" : "mkv")
    let (windows, failure) = try windows(path, count: 6)
    #expect(failure == nil)
    for window in windows {
      #expect(window.samples.count == Self.rate)
      #expect(window.coverage > 0.99, "window \(window.index) coverage \(window.coverage)")
      if window.index != 3 {
        #expect(window.samples.rms < 0.01, "window \(window.index) rms \(window.samples.rms)")
      }
    }
    let burst = windows[3].samples
    #expect(abs(burst.rms - 0.5 / 2.0.squareRoot() * (0.3).squareRoot()) < 0.03, "rms \(burst.rms)")
    // The tone's first and last loud samples: 0.2 s and 0.5 s into the window.
    let onset = try #require(burst.firstIndex(reaching: 0.25))
    let offset = try #require(burst.lastIndex { abs($0) >= 0.25 })
    let tolerance = codec == "aac" ? 0.004 : 0.001
    #expect(abs(Double(onset) / Double(Self.rate) - 0.2) < tolerance, "onset \(onset)")
    #expect(abs(Double(offset) / Double(Self.rate) - 0.5) < tolerance, "offset \(offset)")
  }

  @Test("silence: near-zero samples, fully covered")
  func silence() throws {
    let path = try AudioFixtures.video(
      "silence", seconds: 3, audio: [["-f", "lavfi", "-i", "anullsrc=r=44100:cl=stereo:d=3"]],
      codecArguments: ["-c:a", "aac"], ext: "mp4")
    let (windows, failure) = try windows(path, count: 3)
    #expect(failure == nil)
    for window in windows {
      #expect(window.coverage > 0.99, "window \(window.index) coverage \(window.coverage)")
      #expect(window.samples.allSatisfy { abs($0) < 1e-4 }, "window \(window.index)")
    }
  }

  @Test(
    "audio that starts 2.5 s late: silent windows, then half a window", arguments: ["mkv", "mp4"])
  func lateAudio(_ ext: String) throws {
    let path = try AudioFixtures.video(
      "late", seconds: 6, audio: [AudioFixtures.sine(frequency: 440, seconds: 3.5, offset: 2.5)],
      codecArguments: ext == "mp4" ? ["-c:a", "aac"] : ["-c:a", "pcm_s16le"], ext: ext)
    let (windows, failure) = try windows(path, count: 6)
    #expect(failure == nil)
    let coverage = windows.map(\.coverage)
    #expect(coverage[0] == 0 && coverage[1] == 0, "\(coverage)")
    #expect(coverage[3] > 0.99 && coverage[4] > 0.99, "\(coverage)")
    #expect(windows[0].samples.allSatisfy { $0 == 0 } && windows[1].samples.allSatisfy { $0 == 0 })
    // In MP4 the AAC encoder's priming (1024 samples, silent) is stamped before the tone: the
    // audio starts at 2.478 s (ffprobe says so too; the edit list counts whole milliseconds).
    // It is covered, as sound of the file.
    let early = ext == "mp4" ? 0.022 : 0
    #expect(abs(coverage[2] - (0.5 + early)) < 0.002, "\(coverage)")
    let half = Self.rate / 2
    let uncovered = Int((0.5 - early) * Double(Self.rate)) - 1
    #expect(windows[2].samples[..<uncovered].allSatisfy { $0 == 0 })
    // The tone itself begins 2.5 s in, to within a few ms.
    let onset = try #require(windows[2].samples.firstIndex(reaching: 0.05))
    #expect(abs(onset - half) < 64, "onset \(onset) against \(half)")
  }

  @Test("times are the video's: audio before the video's start belongs to no window")
  func videoClock() throws {
    // The video starts 1 s into the file; a tone plays from 1.3 s to 1.5 s of the file.
    let path = try AudioFixtures.video(
      "video-late", seconds: 3,
      audio: [
        AudioFixtures.expression("if(between(t,1.3,1.5),0.5*sin(2*PI*1000*t),0)", seconds: 4)
      ],
      codecArguments: ["-c:a", "pcm_s16le"], videoOffset: 1)
    let (windows, failure) = try windows(path, count: 3)
    #expect(failure == nil)
    #expect(windows.map(\.coverage).allSatisfy { $0 > 0.99 }, "\(windows.map(\.coverage))")
    let onset = try #require(windows[0].samples.firstIndex(reaching: 0.25))
    #expect(abs(onset - Self.rate * 3 / 10) < 16, "onset \(onset)")
    #expect(windows[1].samples.rms < 0.01 && windows[2].samples.rms < 0.01)
  }

  @Test("audio that ends early: later windows are silent with coverage 0")
  func earlyEnd() throws {
    let path = try AudioFixtures.video(
      "early-end", seconds: 6, audio: [AudioFixtures.sine(frequency: 440, seconds: 3)],
      codecArguments: ["-c:a", "pcm_s16le"])
    let sampler = try #require(try AudioSampler(path: path, interval: 1))
    var windows: [SoundWindow] = []
    for k in 0..<6 {
      windows.append(sampler.window(sample: k))
      // What is held beyond the window cut: less than a frame's sound, never the track.
      #expect(sampler.heldSamples < Self.rate / 4, "after window \(k): \(sampler.heldSamples)")
    }
    #expect(sampler.failure == nil)
    let coverage = windows.map(\.coverage)
    #expect(coverage[0...2].allSatisfy { $0 > 0.99 }, "\(coverage)")
    #expect(coverage[3...5].allSatisfy { $0 == 0 }, "\(coverage)")
    #expect(windows[3...5].allSatisfy { $0.samples.allSatisfy { $0 == 0 } })
    #expect(windows[3...5].allSatisfy { $0.samples.count == Self.rate })
  }

  @Test("a gap in the audio's timestamps reads as uncovered zeros, the sound after it in place")
  func gap() throws {
    // aselect drops the 1024-sample frames between 1.5 s and 2.5 s and keeps the others' times:
    // the packets jump from 1.493 s (ending 1.515 s) to 2.517 s.
    let path = try AudioFixtures.video(
      "gap", seconds: 4, audio: [AudioFixtures.sine(frequency: 440, seconds: 4)],
      codecArguments: ["-af", "aselect='not(between(t,1.5,2.5))'", "-c:a", "pcm_s16le"])
    let (windows, failure) = try windows(path, count: 4)
    #expect(failure == nil)
    let coverage = windows.map(\.coverage)
    // Matroska keeps milliseconds: 1.493 s is sample 71,680 (1.49333 s) at 48 kHz.
    let end = Double(71_680 + 1024) / 48_000 - 1
    let resume = 2.517 - 2
    #expect(
      abs(coverage[1] - end) < 0.002 && abs(coverage[2] - (1 - resume)) < 0.002, "\(coverage)")
    #expect(coverage[0] > 0.99 && coverage[3] > 0.99, "\(coverage)")
    let rate = Double(Self.rate)
    let lastSound = windows[1].samples.lastIndex { $0 != 0 } ?? 0
    #expect(
      abs(Double(lastSound) - end * rate) < 2,
      "last sound at \(lastSound), coverage \(coverage[1] * rate)")
    #expect(windows[2].samples[..<Int(resume * rate - 2)].allSatisfy { $0 == 0 })
    // The tone is back at full level just after the gap.
    #expect(Array(windows[2].samples[Int(resume * rate + 100)...]).rms > 0.08)
  }

  @Test("several audio streams: the one asked for, FFmpeg's best by default, a clear error")
  func streamChoice() throws {
    let path = try AudioFixtures.video(
      "two-streams", seconds: 3,
      audio: [
        AudioFixtures.sine(frequency: 440, seconds: 3),
        AudioFixtures.sine(frequency: 2000, seconds: 3),
      ],
      codecArguments: ["-c:a", "aac"])
    let first = try #require(try AudioSampler(path: path, interval: 1))
    #expect(first.stream.audioIndex == 0 && first.stream.streamIndex == 1)
    let second = try #require(try AudioSampler(path: path, interval: 1, audioStream: 1))
    #expect(second.stream.audioIndex == 1 && second.stream.streamIndex == 2)
    #expect(second.stream.codecName == "aac" && second.stream.sampleRate == 48_000)
    let low = first.window(sample: 1).samples.zeroCrossingsPerSecond(rate: Self.rate)
    let high = second.window(sample: 1).samples.zeroCrossingsPerSecond(rate: Self.rate)
    #expect(abs(low - 880) < 10, "stream 0: \(low) crossings a second")
    #expect(abs(high - 4000) < 20, "stream 1: \(high) crossings a second")

    let missing = capture { () throws(MediaError) in
      try AudioSampler(path: path, interval: 1, audioStream: 5)
    }
    let error = try #require(missing.failure)
    #expect(error.path == path)
    #expect(error.description.contains("audio stream 5") && error.description.contains("has 2"))
    #expect(!error.description.contains("\n"))
  }

  @Test(
    "sample rates: a 1 kHz tone stays 1 kHz at 16 kHz", arguments: [8000, 44_100, 48_000, 96_000])
  func sampleRates(_ rate: Int) throws {
    let path = try AudioFixtures.video(
      "rate-\(rate)", seconds: 3,
      audio: [AudioFixtures.expression("0.5*sin(2*PI*1000*t)", seconds: 3, rate: rate)],
      codecArguments: ["-c:a", "pcm_s16le"])
    let sampler = try #require(try AudioSampler(path: path, interval: 1))
    #expect(sampler.stream.sampleRate == rate)
    let windows = (0..<3).map { sampler.window(sample: $0) }
    #expect(sampler.failure == nil)
    for window in windows {
      #expect(window.coverage > 0.99, "window \(window.index) coverage \(window.coverage)")
    }
    let middle = windows[1].samples
    #expect(abs(middle.zeroCrossingsPerSecond(rate: Self.rate) - 2000) < 10)
    #expect(abs(middle.rms - 0.5 / 2.0.squareRoot()) < 0.02, "rms \(middle.rms)")
  }

  @Test(
    "layouts: mono, stereo and 5.1 mix down to one channel", arguments: ["mono", "stereo", "5.1"])
  func layouts(_ layout: String) throws {
    // The same tone in every channel.
    let channels = ["mono": 1, "stereo": 2, "5.1": 6][layout]!
    let expression = Array(repeating: "0.25*sin(2*PI*500*t)", count: channels).joined(
      separator: "|")
    let path = try AudioFixtures.video(
      "layout-\(layout)", seconds: 3,
      audio: [AudioFixtures.expression(expression, seconds: 3, layout: layout)],
      codecArguments: ["-c:a", "pcm_s16le"])
    let sampler = try #require(try AudioSampler(path: path, interval: 1))
    #expect(sampler.stream.channelCount == channels)
    let window = sampler.window(sample: 1)
    #expect(sampler.failure == nil)
    #expect(window.coverage > 0.99)
    #expect(abs(window.samples.zeroCrossingsPerSecond(rate: Self.rate) - 1000) < 10)
    // The normalised matrix keeps the level of a sound that is in every channel (without
    // normalising it was 1.41 for stereo and 3.41 for 5.1).
    let gain = window.samples.rms / (0.25 / 2.0.squareRoot())
    #expect(abs(gain - 1) < 0.01, "gain \(gain)")
  }

  @Test("an audio-only file is refused as no video stream")
  func audioOnly() throws {
    let url = FixtureStore.shared.scratchURL("audio-only.m4a")
    try FFmpegFixtures.run(
      ["-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-c:a", "aac", url.path])
    let result = capture { () throws(MediaError) in try AudioSampler(path: url.path, interval: 1) }
    #expect(result.failure == .noVideoStream(path: url.path))
  }

  @Test("a video without audio gives no sampler; a missing file throws")
  func noAudio() throws {
    let path = try FFmpegFixtures.video(seconds: 2).path
    #expect(try AudioSampler(path: path, interval: 1) == nil)
    let asked = capture { () throws(MediaError) in
      try AudioSampler(path: path, interval: 1, audioStream: 0)
    }
    #expect(asked.failure?.description.contains("has none") == true, "\(String(describing: asked))")
    let missing = capture { () throws(MediaError) in
      try AudioSampler(path: "/nonexistent/clip.mp4", interval: 1)
    }
    #expect(missing.failure == .notFound(path: "/nonexistent/clip.mp4"))
  }

  @Test("damaged audio decodes what it can or sets failure, never crashes", arguments: [0, 1, 2])
  func damagedAudio(_ seed: Int) throws {
    let clean = try AudioFixtures.video(
      "damage-source", seconds: 6, audio: [AudioFixtures.sine(frequency: 440, seconds: 6)],
      codecArguments: ["-c:a", "mp2"], ext: "ts")
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clean)))
    // Garble scattered bytes in the middle third, and cut the last sixth off.
    var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
    func next() -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33)
    }
    let third = bytes.count / 3
    for _ in 0..<(third / 50) { bytes[third + next() % third] = UInt8(next() % 256) }
    bytes.removeLast(bytes.count / 6)
    let url = FixtureStore.shared.scratchURL("damaged-\(seed).ts")
    try Data(bytes).write(to: url)
    let result = capture { () throws(MediaError) in try AudioSampler(path: url.path, interval: 1) }
    guard case .success(let sampler?) = result else {
      Issue.record("the damaged file did not open with its audio: \(result)")
      return
    }
    let windows = (0..<7).map { sampler.window(sample: $0) }
    for window in windows {
      #expect(window.samples.count == Self.rate)
      #expect((0...1).contains(window.coverage))
      #expect(window.samples.allSatisfy { $0.isFinite })
    }
    #expect(windows[0].coverage > 0.99, "the undamaged start decodes")
    #expect(windows[6].coverage == 0, "nothing past the cut")
    if let failure = sampler.failure {
      #expect(failure.hasPrefix(url.path + ": ") && !failure.contains("\n"))
    }
    print(
      "AudioSamplerTests: damaged \(seed): coverage \(windows.map(\.coverage)), "
        + "\(sampler.damagedPackets) damaged packets, failure \(sampler.failure ?? "none")")
  }

  @Test("two runs give identical samples; other intervals tile the same sound")
  func deterministic() throws {
    let path = try AudioFixtures.video(
      "deterministic", seconds: 4,
      audio: [AudioFixtures.expression("0.3*sin(2*PI*300*t*t)", seconds: 4, rate: 44_100)],
      codecArguments: ["-c:a", "aac"])
    let once = try windows(path, count: 4).windows
    let twice = try windows(path, count: 4).windows
    #expect(once == twice)
    // Half-second windows are the halves of the one-second ones.
    let halves = try windows(path, count: 8, interval: 0.5).windows
    #expect(halves.map(\.samples.count) == Array(repeating: Self.rate / 2, count: 8))
    #expect(halves.flatMap(\.samples) == once.flatMap(\.samples))
    #expect(halves[3].time == 1.5 && halves[3].index == 3)
  }
}

/// The placement rules alone: overlaps dropped, gaps silent, windows cut in order.
@Suite("Sound placement")
struct SoundPlacementTests {
  @Test("overlaps keep what came first; gaps read as uncovered zeros")
  func overlapAndGap() {
    var placement = SoundPlacement()
    placement.place([1, 2, 3, 4], at: 10)
    placement.place([9, 9, 5, 6], at: 12)  // 12 and 13 repeat: dropped
    placement.place([7], at: 18)  // 16 and 17 missing
    #expect(placement.frontier == 19)
    let (samples, covered) = placement.window(from: 8, to: 20)
    #expect(samples == [0, 0, 1, 2, 3, 4, 5, 6, 0, 0, 7, 0])
    #expect(covered == 7)
    placement.place([8, 8], at: 3)  // entirely in the past: dropped
    #expect(placement.frontier == 19)
  }

  @Test("discarding keeps only what later windows need")
  func discard() {
    var placement = SoundPlacement()
    placement.place(Array(repeating: 1, count: 100), at: 0)
    placement.place(Array(repeating: 2, count: 50), at: 100)
    #expect(placement.heldSamples == 150)
    placement.discard(before: 120)
    #expect(placement.heldSamples == 30)
    #expect(placement.window(from: 110, to: 130).covered == 10)
    #expect(placement.window(from: 120, to: 125).samples == [2, 2, 2, 2, 2])
    // Sound for windows already cut is not held, even before anything was placed.
    var late = SoundPlacement()
    late.discard(before: 1000)
    late.place(Array(repeating: 3, count: 600), at: 500)
    #expect(late.heldSamples == 100 && late.frontier == 1100)
    late.place(Array(repeating: 4, count: 10), at: -50)
    #expect(late.heldSamples == 100)
  }

  @Test("window positions round k·interval at 16 kHz")
  func positions() {
    func position(_ k: Int, _ seconds: Double) -> Int {
      AudioSampler.position(ofSample: k, interval: SampleInterval(seconds: seconds))
    }
    #expect(position(3, 1) == 48_000)
    #expect(position(1, 0.1) == 1600)
    // 1/3 s is held as 333,333 µs, as FrameSampler holds it.
    #expect(position(7, 1 / 3) == 37_333)
    #expect(position(3, 1 / 3) == 16_000)
    #expect(position(1, 0.0001) == 2)  // 1.6 grid steps
  }
}
