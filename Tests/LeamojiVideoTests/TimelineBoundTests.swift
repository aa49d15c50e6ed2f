import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

@testable import LeamojiVideo

/// docs/frame-sampling.md, "Implausible timelines": a frame that would stay on screen longer
/// than a minute ends the timeline there, with one note; honest holds are sampled as before.
@Suite("Frame sampling: implausible timelines are bounded")
struct TimelineBoundTests {
  /// Every sample of `url` (64x64) and the sampler's bound, decoding every frame or not.
  static func sample(_ url: URL, decodeEverything: Bool = false) throws -> (
    samples: [SampledFrame], bound: TimelineBound?
  ) {
    let sampler = try FrameSampler(
      path: url.path, interval: 1, size: PixelSize(width: 64, height: 64),
      decodeEverything: decodeEverything)
    var samples: [SampledFrame] = []
    while let sample = try sampler.next() {
      samples.append(sample)
      if samples.count > 10_000 { break }  // a runaway sampler, reported by the caller
    }
    #expect(try sampler.next() == nil, "next() after the end stays nil")
    return (samples, sampler.timelineBound)
  }

  /// What each damaged file must give: samples, the held frame's start, the end, the claim.
  static let expected:
    [(DamagedTimestamps, samples: Int, frameStart: Double, end: Double, note: String)] = [
      (
        .lastFrameHours, 72, 11.96, 71.96,
        "its timestamps keep the frame at 11.96 s on screen longer than 1 min (the video claims "
          + "6 h); analysed the first 1 min 12 s it can show"
      ),
      (
        .jumpToDay70, 66, 5.96, 65.96,
        "its timestamps keep the frame at 5.96 s on screen longer than 1 min (the video claims "
          + "70 days); analysed the first 1 min 6 s it can show"
      ),
      (
        .slowRate, 60, 0, 60,
        "its timestamps keep the frame at 0 s on screen longer than 1 min (the video claims "
          + "347 days); analysed the first 1 min it can show"
      ),
      (
        .mutatedTimescale, 60, 0, 60,
        "its timestamps keep the frame at 0 s on screen longer than 1 min (the video claims "
          + "42 h 40 min); analysed the first 1 min it can show"
      ),
    ]

  @Test("a frame held past a minute ends the timeline there, with one note", arguments: expected)
  func bounded(
    _ video: DamagedTimestamps, samples count: Int, frameStart: Double, end: Double, note: String
  ) throws {
    let url = try video.url
    let (samples, bound) = try Self.sample(url)
    #expect(samples.map(\.time) == (0..<count).map(Double.init), "\(video)")
    let last = try #require(samples.last)
    #expect(abs(last.presentationTime - frameStart) < 1e-9, "the held frame answers to the end")
    let made = try #require(bound, "\(video): no bound reported")
    #expect(abs(made.end - end) < 1e-9 && abs(made.frameStart - frameStart) < 1e-9)
    #expect(made.longestHold == 60)
    #expect(made.note == "\(url.path): \(note)")
  }

  @Test(
    "decoding every frame gives the same samples and bound", arguments: DamagedTimestamps.allCases)
  func sameDecodingEverything(_ video: DamagedTimestamps) throws {
    let url = try video.url
    let quick = try Self.sample(url)
    let full = try Self.sample(url, decodeEverything: true)
    #expect(quick.bound == full.bound, "\(video)")
    #expect(quick.samples.map(\.time) == full.samples.map(\.time), "\(video)")
    #expect(
      quick.samples.map(\.presentationTime) == full.samples.map(\.presentationTime), "\(video)")
    #expect(quick.samples.map(\.image) == full.samples.map(\.image), "\(video)")
  }

  @Test("an honest slideshow (one picture every 20 s) is sampled every second, unbounded")
  func honestSlideshow() throws {
    let (samples, bound) = try Self.sample(try DamagedTimestamps.slideshow.url)
    #expect(bound == nil)
    #expect(samples.map(\.time) == (0..<120).map(Double.init))
    let starts: [Double] = (0..<120).map { (second: Int) -> Double in Double(second / 20 * 20) }
    #expect(samples.map(\.presentationTime) == starts)
    // A held frame's samples share its converted picture.
    #expect(samples[0].image == samples[19].image && samples[0].image != samples[20].image)
  }

  @Test("the longest hold is one minute in the stream's ticks, saturating at the end of time")
  func longestHoldTicks() {
    func clock(_ base: TimeBase) -> StreamClock {
      StreamClock(
        timeBase: base, startTicks: 0, frameRate: Ratio(num: 25, den: 1), streamDuration: nil,
        containerDuration: nil, codedSize: PixelSize(width: 16, height: 16),
        sampleAspectRatio: nil, quarterTurns: 0)
    }
    #expect(clock(TimeBase(num: 1, den: 12800)).longestHoldTicks == 768_000)
    #expect(clock(TimeBase(num: 1, den: 1)).longestHoldTicks == 60)
    #expect(clock(TimeBase(num: 7, den: 3)).longestHoldTicks == 25)  // 25.7 ticks, rounded down
    #expect(clock(TimeBase(num: 1000, den: 1)).longestHoldTicks == 1)  // never 0
    let mp4 = clock(TimeBase(num: 1, den: 12800))
    #expect(mp4.holdLimit(from: 512).seconds == 60.04)
    #expect(mp4.holdLimit(from: .max - 5).ticks == .max, "saturates, no trap")
  }

  @Test("times in the note read as seconds, minutes, hours or days")
  func noteTimes() {
    let cases: [(Double, String)] = [
      (0, "0 s"), (5.96, "5.96 s"), (12.4, "12.4 s"), (59.5, "59.5 s"), (60, "1 min"),
      (65.96, "1 min 6 s"), (3599.6, "1 h"), (21_611.96, "6 h"), (153_600, "42 h 40 min"),
      (6_048_012, "70 days"), (.infinity, "forever"),
    ]
    for (seconds, text) in cases { #expect(TimelineBound.text(seconds) == text, "\(seconds)") }
  }
}
