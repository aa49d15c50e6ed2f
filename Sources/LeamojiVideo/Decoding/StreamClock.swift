internal import CFFmpeg
import LeamojiCore

/// The video stream's clock and picture shape, read once when the file is opened. It turns
/// FFmpeg's ticks into times relative to the stream's start, says how long frames and the
/// stream last, and how stored pictures become upright ones. The sampler, playback, image
/// decoding and `VideoInfo` all use this one copy, so they cannot disagree.
///
/// Values only: `init(stream:format:)` reads FFmpeg once; everything else is plain arithmetic.
struct StreamClock: Equatable {
  /// Seconds per tick of the stream's timestamps.
  let timeBase: TimeBase
  /// The stream's start time in ticks (0 when unset). Every time leamoji reports is relative
  /// to it.
  let startTicks: Int64
  /// Frames per second as the container states it (average, else base rate); nil when unknown.
  let frameRate: Ratio?
  /// One frame period at `frameRate` in ticks, rounded to the nearest tick as `av_rescale_q`
  /// does; nil when the rate is unknown or a period is shorter than half a tick.
  let framePeriod: Int64?
  /// How long the stream lasts from its start: its own duration, else the container's; nil
  /// when neither is known.
  let duration: ExactTime?
  /// Width and height of the pictures as stored.
  let codedSize: PixelSize
  /// Clockwise quarter turns (0 to 3) that make a stored picture upright.
  let quarterTurns: Int
  /// Width and height as shown: the sample aspect ratio applied to the width, then rotation.
  let displaySize: PixelSize
  /// The longest a frame may stay on screen, in ticks: `longestHold` rounded down (at least
  /// one tick). A frame held longer ends the timeline (docs/frame-sampling.md, "Implausible
  /// timelines").
  let longestHoldTicks: Int64

  /// Seconds a frame may stay on screen: a static screen or a slow slideshow holds one for
  /// seconds to a minute, a damaged timestamp for hours or days.
  static let longestHold: Int64 = 60

  /// The clock from FFmpeg's numbers. Durations that are not positive count as unknown.
  /// - Parameters:
  ///   - streamDuration: the stream's duration in its own ticks.
  ///   - containerDuration: the container's duration in microseconds (`AV_TIME_BASE`).
  ///   - sampleAspectRatio: the pixels' width over their height; ratios beyond 1:4 and 4:1,
  ///     or stretching beyond `PictureLimit`, are taken as square pixels (damaged headers).
  init(
    timeBase: TimeBase, startTicks: Int64, frameRate: Ratio?, streamDuration: Int64?,
    containerDuration: Int64?, codedSize: PixelSize, sampleAspectRatio: Ratio?, quarterTurns: Int
  ) {
    self.timeBase = timeBase
    self.startTicks = startTicks
    self.frameRate = frameRate.flatMap { $0.isPositive ? $0 : nil }
    self.framePeriod = self.frameRate.flatMap { StreamClock.period(of: $0, in: timeBase) }
    let holdTicks =
      Int128(StreamClock.longestHold) * Int128(timeBase.den) / Int128(timeBase.num)
    longestHoldTicks = Int64(clamping: max(1, holdTicks))
    if let ticks = streamDuration, ticks > 0 {
      duration = ExactTime(ticks: ticks, base: timeBase)
    } else if let microseconds = containerDuration, microseconds > 0 {
      duration = ExactTime(ticks: microseconds, base: .microseconds)
    } else {
      duration = nil
    }
    self.codedSize = codedSize
    self.quarterTurns = ((quarterTurns % 4) + 4) % 4
    var width = codedSize.width
    if let aspect = sampleAspectRatio, aspect.isPositive, aspect.num != aspect.den {
      // Real anamorphic pixels are at most a few times wider or narrower than square; a damaged
      // header's 1:32768 would make pictures one pixel wide (or 20 million).
      let ratio = aspect.value
      let stretched = max(1, Int((Double(codedSize.width) * ratio).rounded()))
      let plausible = ratio >= 0.25 && ratio <= 4
      if plausible, PictureLimit.allows(width: stretched, height: codedSize.height) {
        width = stretched
      }
    }
    let shown = PixelSize(width: width, height: codedSize.height)
    displaySize = self.quarterTurns % 2 == 1 ? quarterTurned(shown) : shown
  }

  // MARK: - Time

  /// The stream's start in seconds.
  var startSeconds: Double { timeBase.seconds(startTicks) }

  /// Seconds for `ticks` counted from the stream's start.
  func seconds(_ ticks: Int64) -> Double { timeBase.seconds(ticks) }

  /// The exact time of `ticks` counted from the stream's start.
  func time(_ ticks: Int64) -> ExactTime { ExactTime(ticks: ticks, base: timeBase) }

  /// Where a decoded frame sits: its best-effort timestamp relative to the stream's start. A
  /// frame without a timestamp follows `previous` by its own duration (at least one tick), or
  /// is at 0 when it is the first.
  /// - Parameters:
  ///   - bestEffortTimestamp: the frame's timestamp in absolute ticks, nil when FFmpeg has none.
  ///   - packetDuration: the frame's packet duration in ticks (0 or less: unknown).
  func stamp(
    bestEffortTimestamp: Int64?, packetDuration: Int64, after previous: FrameStamp?
  ) -> FrameStamp {
    let duration = packetDuration > 0 ? packetDuration : framePeriod
    let ticks: Int64
    if let timestamp = bestEffortTimestamp {
      ticks = saturating(timestamp, minus: startTicks)
    } else if let previous {
      ticks = saturating(previous.ticks, plus: max(1, duration ?? 1))
    } else {
      ticks = 0
    }
    return FrameStamp(ticks: ticks, duration: duration)
  }

  /// Ticks from the stream's start for an absolute timestamp (as packets carry them).
  func relativeTicks(_ absolute: Int64) -> Int64 { saturating(absolute, minus: startTicks) }

  /// The absolute tick (as `av_seek_frame` takes it) at `seconds` from the stream's start,
  /// rounded down. Times beyond what ticks can count are held at the largest one.
  func absoluteTicks(atSeconds seconds: Double) -> Int64 {
    let ticks = (seconds * Double(timeBase.den) / Double(timeBase.num)).rounded(.down)
    let bound = Double(Int64.max / 2)
    let held = ticks.isNaN ? 0 : min(max(ticks, -bound), bound)
    return saturating(Int64(held), plus: startTicks)
  }

  // MARK: - Pictures

  /// The size to scale a stored picture to so that, turned upright, it is `upright`.
  func storedSize(forUpright upright: PixelSize) -> PixelSize {
    quarterTurns % 2 == 1 ? quarterTurned(upright) : upright
  }

  /// An upright size `width` wide (at least 2) with the display aspect ratio, its height
  /// rounded to an even number (at least 2), as posters and previews use.
  func uprightSize(width: Int) -> PixelSize {
    let exact = Double(width) * Double(displaySize.height) / Double(displaySize.width)
    let height = max(2, Int((exact / 2).rounded()) * 2)
    return PixelSize(width: max(2, width), height: height)
  }

  /// The time at which a frame on screen since `ticks` has been held `longestHoldTicks`.
  func holdLimit(from ticks: Int64) -> ExactTime {
    time(saturating(ticks, plus: longestHoldTicks))
  }

  /// Ticks of one frame period at `rate`: timeBase.den * rate.den / (timeBase.num * rate.num),
  /// rounded half away from zero; nil when that is under one tick.
  private static func period(of rate: Ratio, in timeBase: TimeBase) -> Int64? {
    let numerator = Int128(rate.den) * Int128(timeBase.den)
    let denominator = Int128(rate.num) * Int128(timeBase.num)
    guard denominator > 0 else { return nil }
    let rounded = (numerator + denominator / 2) / denominator
    guard rounded > 0, rounded <= Int128(Int64.max) else { return nil }
    return Int64(rounded)
  }
}

/// A decoded frame's place on the stream clock.
struct FrameStamp: Equatable {
  /// Presentation time in ticks from the stream's start.
  let ticks: Int64
  /// How long the frame stays on screen, in ticks: its packet's duration, else one frame
  /// period; nil when neither is known.
  let duration: Int64?

  /// The first tick after the frame has left the screen. A frame of unknown duration covers
  /// its own instant only.
  var endTicks: Int64 { saturating(ticks, plus: duration ?? 1) }
}

/// An exact positive rational as FFmpeg states frame rates and sample aspect ratios.
struct Ratio: Equatable {
  let num: Int64
  let den: Int64

  /// Both terms positive: a usable value.
  var isPositive: Bool { num > 0 && den > 0 }
  var value: Double { Double(num) / Double(den) }
}

/// An exact rational time base (seconds per tick).
struct TimeBase: Equatable {
  let num: Int64
  let den: Int64

  /// Microseconds: FFmpeg's `AV_TIME_BASE`, in which containers state their duration.
  static let microseconds = TimeBase(num: 1, den: 1_000_000)

  func seconds(_ ticks: Int64) -> Double { Double(ticks) * Double(num) / Double(den) }
}

/// A timestamp in some time base, compared exactly across time bases.
struct ExactTime: Comparable {
  let ticks: Int64
  let base: TimeBase

  var seconds: Double { base.seconds(ticks) }

  static func < (a: ExactTime, b: ExactTime) -> Bool {
    Int128(a.ticks) * Int128(a.base.num) * Int128(b.base.den)
      < Int128(b.ticks) * Int128(b.base.num) * Int128(a.base.den)
  }

  static func == (a: ExactTime, b: ExactTime) -> Bool {
    !(a < b) && !(b < a)
  }
}

/// Width and height swapped: the size after a quarter turn.
private func quarterTurned(_ size: PixelSize) -> PixelSize {
  PixelSize(width: size.height, height: size.width)
}

// Timestamps come from files, and a hostile file may put them anywhere in Int64: arithmetic on
// them saturates rather than trapping.

private func saturating(_ a: Int64, plus b: Int64) -> Int64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  return overflow ? (b > 0 ? .max : .min) : sum
}

private func saturating(_ a: Int64, minus b: Int64) -> Int64 {
  let (difference, overflow) = a.subtractingReportingOverflow(b)
  return overflow ? (b < 0 ? .max : .min) : difference
}

// MARK: - Reading FFmpeg's stream

extension StreamClock {
  /// The clock of `stream` in `format`: time base, start, rate, durations, sample aspect ratio
  /// (`av_guess_sample_aspect_ratio`) and rotation (the display matrix).
  init(stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>) {
    let parameters = stream.pointee.codecpar.pointee
    let rates = [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate].map(Ratio.init)
    self.init(
      timeBase: TimeBase(stream.pointee.time_base),
      startTicks: StreamClock.timestamp(stream.pointee.start_time) ?? 0,
      frameRate: rates.first(where: \.isPositive),
      streamDuration: StreamClock.timestamp(stream.pointee.duration),
      containerDuration: StreamClock.timestamp(format.pointee.duration),
      codedSize: PixelSize(width: Int(parameters.width), height: Int(parameters.height)),
      sampleAspectRatio: Ratio(av_guess_sample_aspect_ratio(format, stream, nil)),
      quarterTurns: StreamClock.clockwiseQuarterTurns(of: stream))
  }

  /// Where `frame` sits on this clock (see `stamp(bestEffortTimestamp:packetDuration:after:)`).
  func stamp(_ frame: Frame, after previous: FrameStamp?) -> FrameStamp {
    let decoded = frame.pointer.pointee
    return stamp(
      bestEffortTimestamp: StreamClock.timestamp(decoded.best_effort_timestamp),
      packetDuration: cffmpeg_frame_duration(frame.pointer), after: previous)
  }

  /// `value`, or nil when it is FFmpeg's "no timestamp" (`AV_NOPTS_VALUE`).
  static func timestamp(_ value: Int64) -> Int64? {
    value == cffmpeg_nopts_value() ? nil : value
  }

  /// Clockwise quarter turns from the display matrix, as the ffmpeg CLI reads it.
  private static func clockwiseQuarterTurns(of stream: UnsafeMutablePointer<AVStream>) -> Int {
    var size = 0
    guard let data = cffmpeg_display_matrix(stream, &size),
      size >= 9 * 4
    else {
      return 0
    }
    let matrix = UnsafeRawPointer(data).bindMemory(to: Int32.self, capacity: 9)
    let anticlockwise = av_display_rotation_get(matrix)
    guard anticlockwise.isFinite else { return 0 }
    // Degrees are rounded to quarter turns; a huge value must not trap converting to Int.
    let quarters = (-anticlockwise / 90).rounded().truncatingRemainder(dividingBy: 4)
    return (Int(quarters) + 4) % 4
  }
}

extension Ratio {
  init(_ rational: AVRational) {
    self.init(num: Int64(rational.num), den: Int64(rational.den))
  }
}

extension TimeBase {
  /// The stream's time base; one that is not positive is taken as microseconds.
  init(_ rational: AVRational) {
    if rational.num > 0 && rational.den > 0 {
      self.init(num: Int64(rational.num), den: Int64(rational.den))
    } else {
      self = .microseconds
    }
  }
}
