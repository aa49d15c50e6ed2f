import LeamojiCore
import Testing

@testable import LeamojiVideo

@Suite("Stream clock")
struct StreamClockTests {
  static let mp4Base = TimeBase(num: 1, den: 12800)
  static let coded = PixelSize(width: 160, height: 120)

  /// A clock with everything but the named parts left plain.
  static func clock(
    timeBase: TimeBase = mp4Base, start: Int64 = 0, rate: Ratio? = Ratio(num: 25, den: 1),
    streamDuration: Int64? = nil, containerDuration: Int64? = nil,
    aspect: Ratio? = nil, turns: Int = 0
  ) -> StreamClock {
    StreamClock(
      timeBase: timeBase, startTicks: start, frameRate: rate, streamDuration: streamDuration,
      containerDuration: containerDuration, codedSize: coded, sampleAspectRatio: aspect,
      quarterTurns: turns)
  }

  /// Rates, time bases and the period each gives.
  static let periods: [(Ratio, TimeBase, Int64?)] = [
    (Ratio(num: 25, den: 1), TimeBase(num: 1, den: 12800), 512),
    (Ratio(num: 30000, den: 1001), TimeBase(num: 1, den: 30000), 1001),
    (Ratio(num: 60, den: 1), TimeBase(num: 1, den: 1000), 17),  // 16.67
    (Ratio(num: 3, den: 1), TimeBase(num: 1, den: 10), 3),  // 3.33
    (Ratio(num: 2, den: 1), TimeBase(num: 1, den: 3), 2),  // 1.5: half away from zero
    (Ratio(num: 25, den: 1), TimeBase(num: 1, den: 1), nil),  // 0.04 of a tick
    (Ratio(num: 0, den: 1), TimeBase(num: 1, den: 1000), nil),  // no rate
    (Ratio(num: 25, den: 0), TimeBase(num: 1, den: 1000), nil),
  ]

  @Test("one frame period, rounded to the nearest tick as av_rescale_q rounds", arguments: periods)
  func framePeriod(_ rate: Ratio, _ base: TimeBase, _ period: Int64?) {
    let clock = Self.clock(timeBase: base, rate: rate)
    #expect(clock.framePeriod == period, "\(rate.num)/\(rate.den) fps in 1/\(base.den)")
    #expect((clock.frameRate == nil) == !rate.isPositive)
  }

  @Test("timestamps count from the stream's start; durations from the packet, else the rate")
  func stamps() {
    let clock = Self.clock(start: 1000)
    let first = clock.stamp(bestEffortTimestamp: 1000, packetDuration: 0, after: nil)
    #expect(first == FrameStamp(ticks: 0, duration: 512))
    let second = clock.stamp(bestEffortTimestamp: 1512, packetDuration: 300, after: first)
    #expect(second == FrameStamp(ticks: 512, duration: 300))
    #expect(second.endTicks == 812)
    #expect(clock.seconds(second.ticks) == 0.04)
    #expect(clock.time(second.ticks) == ExactTime(ticks: 40, base: TimeBase(num: 1, den: 1000)))
    // Before the start (an edit list's leading B-frames): negative, not clamped.
    #expect(clock.stamp(bestEffortTimestamp: 488, packetDuration: 0, after: nil).ticks == -512)
  }

  @Test("a frame without a timestamp follows the previous one by its own duration")
  func missingTimestamps() {
    let clock = Self.clock()
    let lone = clock.stamp(bestEffortTimestamp: nil, packetDuration: 0, after: nil)
    #expect(lone == FrameStamp(ticks: 0, duration: 512), "the first frame is at the start")
    let byPacket = clock.stamp(bestEffortTimestamp: nil, packetDuration: 100, after: lone)
    #expect(byPacket.ticks == 100)
    let byRate = clock.stamp(bestEffortTimestamp: nil, packetDuration: 0, after: byPacket)
    #expect(byRate.ticks == 612)
    // Neither duration known: one tick on, and the frame covers its own instant only.
    let bare = Self.clock(rate: nil)
    let after = bare.stamp(bestEffortTimestamp: nil, packetDuration: 0, after: byRate)
    #expect(after == FrameStamp(ticks: 613, duration: nil))
    #expect(after.endTicks == 614)
  }

  @Test("timestamps at the ends of Int64 saturate instead of trapping")
  func hostileTimestamps() {
    let early = Self.clock(start: -10)
    #expect(early.stamp(bestEffortTimestamp: .max, packetDuration: 0, after: nil).ticks == .max)
    let late = Self.clock(start: 10)
    #expect(late.stamp(bestEffortTimestamp: .min + 5, packetDuration: 0, after: nil).ticks == .min)
    let last = FrameStamp(ticks: .max - 1, duration: 512)
    #expect(last.endTicks == .max)
    #expect(late.stamp(bestEffortTimestamp: nil, packetDuration: 9, after: last).ticks == .max)
  }

  @Test("the stream's own duration wins over the container's; neither known is nil")
  func duration() {
    let own = Self.clock(streamDuration: 12800 * 4, containerDuration: 7_000_000)
    #expect(own.duration == ExactTime(ticks: 4, base: TimeBase(num: 1, den: 1)))
    let container = Self.clock(streamDuration: 0, containerDuration: 7_000_000)
    #expect(container.duration == ExactTime(ticks: 7, base: TimeBase(num: 1, den: 1)))
    #expect(Self.clock(streamDuration: -5, containerDuration: nil).duration == nil)
    #expect(Self.clock().duration == nil)
  }

  @Test("seek ticks: seconds from the start, rounded down, held inside Int64")
  func seekTicks() {
    let clock = Self.clock(start: 100)
    #expect(clock.absoluteTicks(atSeconds: 1.5) == 19200 + 100)
    #expect(clock.absoluteTicks(atSeconds: 0.00005) == 100, "0.64 of a tick")
    #expect(clock.absoluteTicks(atSeconds: 0) == 100)
    #expect(clock.absoluteTicks(atSeconds: .nan) == 100)
    #expect(clock.absoluteTicks(atSeconds: .infinity) > Int64.max / 4)
    #expect(clock.absoluteTicks(atSeconds: -.infinity) < Int64.min / 4)
    let late = Self.clock(start: .max - 10)
    #expect(late.absoluteTicks(atSeconds: 1e30) == .max)
  }

  @Test(
    "display size: the sample aspect ratio stretches the width, within reason",
    arguments: [
      (Ratio(num: 4, den: 3), PixelSize(width: 213, height: 120)),
      (Ratio(num: 1, den: 2), PixelSize(width: 80, height: 120)),
      (Ratio(num: 4, den: 1), PixelSize(width: 640, height: 120)),
      (Ratio(num: 5, den: 1), PixelSize(width: 160, height: 120)),  // implausible: square
      (Ratio(num: 1, den: 32768), PixelSize(width: 160, height: 120)),
      (Ratio(num: 0, den: 1), PixelSize(width: 160, height: 120)),  // unknown
      (Ratio(num: 1, den: 1), PixelSize(width: 160, height: 120)),
    ])
  func sampleAspectRatio(_ aspect: Ratio, _ display: PixelSize) {
    #expect(Self.clock(aspect: aspect).displaySize == display)
  }

  @Test("rotation: quarter turns normalised, display size upright, stored size turned back")
  func rotation() {
    let upright = PixelSize(width: 48, height: 64)
    for (turns, normalised) in [(0, 0), (1, 1), (2, 2), (3, 3), (-1, 3), (5, 1)] {
      let clock = Self.clock(turns: turns)
      #expect(clock.quarterTurns == normalised)
      let sideways = normalised % 2 == 1
      #expect(clock.displaySize == (sideways ? PixelSize(width: 120, height: 160) : Self.coded))
      let stored = clock.storedSize(forUpright: upright)
      #expect(stored == (sideways ? PixelSize(width: 64, height: 48) : upright), "turns \(turns)")
    }
    let anamorphicOnItsSide = Self.clock(aspect: Ratio(num: 4, den: 3), turns: 1)
    #expect(anamorphicOnItsSide.displaySize == PixelSize(width: 120, height: 213))
  }

  @Test("preview sizes keep the display aspect with an even height")
  func uprightSizeForWidth() {
    let clock = Self.clock()  // 160x120
    #expect(clock.uprightSize(width: 90) == PixelSize(width: 90, height: 68))  // 67.5
    #expect(clock.uprightSize(width: 64) == PixelSize(width: 64, height: 48))
    #expect(clock.uprightSize(width: 1) == PixelSize(width: 2, height: 2))
    let tall = Self.clock(turns: 1)  // 120x160
    #expect(tall.uprightSize(width: 90) == PixelSize(width: 90, height: 120))
  }

  @Test("exact times compare across time bases without rounding")
  func exactTimes() {
    let third = ExactTime(ticks: 1, base: TimeBase(num: 1, den: 3))
    let nearly = ExactTime(ticks: 333_333, base: .microseconds)
    #expect(nearly < third && !(third < nearly) && third != nearly)
    let milliseconds = TimeBase(num: 1, den: 1000)
    #expect(ExactTime(ticks: 512, base: Self.mp4Base) == ExactTime(ticks: 40, base: milliseconds))
    #expect(third.seconds == 1.0 / 3)
  }

  @Test(
    "a real file's clock agrees with ffprobe",
    arguments: [Fixture.h264At25, .offsetStartMKV, .mpeg2TS, .rotatedCW90, .h264NTSC])
  func fromFile(_ fixture: Fixture) throws {
    let video = try fixture.video
    let probe = video.probe
    let clock = try VideoFile(path: video.path).clock
    let base = probe.timeBase
    #expect(clock.timeBase == TimeBase(num: Int64(base.num), den: Int64(base.den)))
    #expect(clock.startTicks == Int64(probe.startPts ?? 0))
    #expect(clock.codedSize == PixelSize(width: probe.width, height: probe.height))
    #expect(clock.quarterTurns == probe.uprightQuarterTurns)
    #expect(clock.displaySize == video.uprightSize)
    if let rate = probe.averageFrameRate, rate.num > 0 {
      let period = Double(base.den * rate.den) / Double(base.num * rate.num)
      #expect(clock.framePeriod == Int64(period.rounded()), "\(fixture)")
    }
  }
}
