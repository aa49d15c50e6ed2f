internal import CFFmpeg
import LeamojiCore

/// One sampled moment of a video: the picture on screen at `time`.
public struct SampledFrame: Sendable {
  /// The sample's number k (0, 1, 2, ...).
  public let index: Int
  /// `k * interval`: seconds from the video stream's start.
  public let time: Double
  /// Presentation time of the frame shown, in seconds from the stream's start.
  public let presentationTime: Double
  /// The frame converted to RGB at the sampler's output size, upright.
  public let image: RGBImage
  /// The same frame at the sampler's `previewSize`, when one was asked for (e.g. for posters).
  public let preview: RGBImage?
}

/// Hands out, for t = 0, interval, 2·interval, … (while t < duration), the frame on screen at
/// t: the decoded frame with the largest presentation time <= t (relative to the stream's
/// start time), or the first frame when none is that early. A stream that ends early yields
/// fewer samples; none is invented past its last frame.
///
/// Only frames that a sample uses are converted; decoding streams the file, holding at most
/// the current candidate frame.
public final class FrameSampler {
  private let file: VideoFile
  private let decoder: StreamDecoder
  private let scaler = Scaler()
  private let previewScaler = Scaler()
  private let interval: SampleInterval
  private let durationLimit: ExactTime?
  private let quarterTurns: Int
  private let scaledSize: PixelSize

  /// The best frame so far for the next sample, and its converted image once needed.
  private var candidate = Frame()
  private var candidatePTS: Int64? = nil
  private var candidateImage: RGBImage? = nil
  private var candidatePreview: RGBImage? = nil
  private var incoming = Frame()
  private var nextIndex = 0
  private var ended = false

  /// Facts about the video being sampled.
  public var info: VideoInfo { file.info }
  /// Size of every sampled image (after rotation).
  public let outputSize: PixelSize
  /// Size of every sample's `preview` (after rotation), if previews were asked for.
  public let previewSize: PixelSize?
  /// Packets or pictures skipped as damaged so far.
  public var corruptPacketCount: Int { decoder.corruptPackets }
  /// Frames decoded so far.
  public var decodedFrameCount: Int { decoder.decodedFrames }

  /// Opens `path` for sampling every `interval` seconds at `size` (nil: the display size).
  /// - Parameter previewWidth: when given, every sample also carries a `preview` this wide
  ///   with the display aspect ratio (one decode serves both the model and a poster).
  /// - Throws: `MediaError` naming the file.
  public init(path: String, interval: Double = 1, size: PixelSize? = nil, previewWidth: Int? = nil) throws(MediaError) {
    let file = try VideoFile(path: path)
    self.file = file
    self.decoder = try StreamDecoder(file: file)
    self.interval = SampleInterval(seconds: interval)
    let timeBase = file.timeBase
    let stream = file.stream.pointee
    if stream.duration != AVCode.noPTS, stream.duration > 0 {
      durationLimit = ExactTime(ticks: stream.duration, base: timeBase)
    } else if let format = Optional(file.format.pointer.pointee), format.duration != AVCode.noPTS,
      format.duration > 0
    {
      durationLimit = ExactTime(ticks: format.duration, base: TimeBase(num: 1, den: Int64(AV_TIME_BASE)))
    } else {
      durationLimit = nil
    }
    quarterTurns = file.info.rotation / 90
    outputSize = size ?? file.info.displaySize
    scaledSize = FrameSampler.unrotated(outputSize, quarterTurns: quarterTurns)
    previewSize = previewWidth.map { width in
      let display = file.info.displaySize
      let height = max(2, Int((Double(width) * Double(display.height) / Double(display.width) / 2).rounded()) * 2)
      return PixelSize(width: max(2, width), height: height)
    }
  }

  private static func unrotated(_ size: PixelSize, quarterTurns: Int) -> PixelSize {
    quarterTurns % 2 == 1 ? PixelSize(width: size.height, height: size.width) : size
  }

  /// The next sample, or nil when the video has no more.
  /// - Throws: `MediaError.corrupt` when the file holds no decodable frame at all.
  public func next() throws(MediaError) -> SampledFrame? {
    while !ended {
      let time = interval.time(ofSample: nextIndex)
      if let durationLimit, !(time < durationLimit) {
        ended = true
        break
      }
      // The candidate answers this sample as soon as a later frame starts after it.
      if let pts = candidatePTS, let upcoming = upcomingPTS, ExactTime(ticks: upcoming, base: file.timeBase) > time {
        _ = pts
        return try emitCandidate(at: time)
      }
      if upcomingPTS != nil {
        // The frame read ahead does not start after this sample: it becomes the candidate.
        promoteIncoming()
        continue
      }
      if !readAhead() {
        // End of stream: the last frame answers only while it is still on screen.
        guard let pts = candidatePTS else {
          ended = true
          throw .corrupt(path: file.info.path, reason: "no decodable video frame")
        }
        if time < lastFrameEnd(pts: pts) { return try emitCandidate(at: time) }
        ended = true
      }
    }
    return nil
  }

  // MARK: - Read-ahead

  /// Presentation time (stream ticks, relative to the start) of the frame read ahead, if any.
  private var upcomingPTS: Int64? = nil
  private var lastPTS: Int64? = nil

  /// Decodes one more frame into `incoming`; false at the end of the stream.
  private func readAhead() -> Bool {
    while decoder.decode(into: incoming) {
      let pts = relativePTS(of: incoming)
      if let current = candidatePTS, pts < current {
        // Time went backwards (broken timestamps): such a frame is never the latest <= t.
        continue
      }
      if candidatePTS == nil {
        // The first frame answers every sample before it.
        swapIncomingIntoCandidate(pts: pts)
        continue
      }
      upcomingPTS = pts
      return true
    }
    return false
  }

  private func promoteIncoming() {
    guard let pts = upcomingPTS else { return }
    swapIncomingIntoCandidate(pts: pts)
    upcomingPTS = nil
  }

  private func swapIncomingIntoCandidate(pts: Int64) {
    swap(&candidate, &incoming)
    incoming.unref()
    candidatePTS = pts
    candidateImage = nil
    candidatePreview = nil
  }

  /// The frame's best-effort timestamp relative to the stream start; frames without one
  /// continue from the previous frame by its duration (or one frame period).
  private func relativePTS(of frame: Frame) -> Int64 {
    let f = frame.pointer.pointee
    var pts: Int64
    if f.best_effort_timestamp != AVCode.noPTS {
      pts = f.best_effort_timestamp - file.startTicks
    } else if let last = lastPTS {
      pts = last + max(1, frameDuration(of: frame) ?? 1)
    } else {
      pts = 0
    }
    lastPTS = pts
    return pts
  }

  /// A frame's duration in stream ticks: its packet duration, else one period of the frame rate.
  private func frameDuration(of frame: Frame) -> Int64? {
    let duration = frame.pointer.pointee.pkt_duration
    if duration > 0 { return duration }
    let rate = file.stream.pointee.avg_frame_rate.num > 0 ? file.stream.pointee.avg_frame_rate : file.stream.pointee.r_frame_rate
    guard rate.num > 0, rate.den > 0 else { return nil }
    let ticks = av_rescale_q(1, AVRational(num: rate.den, den: rate.num), file.stream.pointee.time_base)
    return ticks > 0 ? ticks : nil
  }

  /// When the last frame leaves the screen. Unknown duration: it covers its own instant only.
  private func lastFrameEnd(pts: Int64) -> ExactTime {
    if let duration = frameDuration(of: candidate) {
      return ExactTime(ticks: pts + duration, base: file.timeBase)
    }
    return ExactTime(ticks: pts + 1, base: file.timeBase)  // t <= pts, exactly
  }

  private func emitCandidate(at time: ExactTime) throws(MediaError) -> SampledFrame {
    let image: RGBImage
    if let cached = candidateImage {
      image = cached
    } else {
      image = try scaler.rgbImage(from: candidate.pointer, size: scaledSize, quarterTurns: quarterTurns)
      candidateImage = image
    }
    if let previewSize, candidatePreview == nil {
      candidatePreview = try previewScaler.rgbImage(
        from: candidate.pointer, size: FrameSampler.unrotated(previewSize, quarterTurns: quarterTurns),
        quarterTurns: quarterTurns)
    }
    let sample = SampledFrame(
      index: nextIndex, time: time.seconds, presentationTime: file.timeBase.seconds(candidatePTS ?? 0), image: image,
      preview: candidatePreview)
    nextIndex += 1
    return sample
  }
}

/// The sampling interval as an exact fraction of a second (microsecond precision), so that
/// sample times compare exactly with stream timestamps.
struct SampleInterval {
  let base: TimeBase
  let ticks: Int64

  init(seconds: Double) {
    precondition(seconds > 0 && seconds.isFinite, "sampling interval must be positive")
    var numerator = Int64((seconds * 1_000_000).rounded())
    var denominator: Int64 = 1_000_000
    if numerator == 0 { numerator = 1 }
    let divisor = gcd(numerator, denominator)
    numerator /= divisor
    denominator /= divisor
    base = TimeBase(num: 1, den: denominator)
    ticks = numerator
  }

  func time(ofSample index: Int) -> ExactTime {
    ExactTime(ticks: Int64(index) * ticks, base: base)
  }
}

/// A timestamp in some time base, compared exactly across time bases.
struct ExactTime: Comparable {
  let ticks: Int64
  let base: TimeBase

  var seconds: Double { base.seconds(ticks) }

  static func < (a: ExactTime, b: ExactTime) -> Bool {
    Int128(a.ticks) * Int128(a.base.num) * Int128(b.base.den) < Int128(b.ticks) * Int128(b.base.num) * Int128(a.base.den)
  }

  static func == (a: ExactTime, b: ExactTime) -> Bool {
    !(a < b) && !(b < a)
  }
}

private func gcd(_ a: Int64, _ b: Int64) -> Int64 {
  var (x, y) = (abs(a), abs(b))
  while y != 0 { (x, y) = (y, x % y) }
  return max(x, 1)
}
