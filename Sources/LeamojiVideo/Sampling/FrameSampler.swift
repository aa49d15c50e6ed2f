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
  /// The frame is the one the sample before showed (a held frame): the same picture, so
  /// whatever was computed from it can be reused.
  public let repeatsPrevious: Bool
}

/// Hands out, for t = 0, interval, 2·interval, … (while t < duration), the frame on screen at
/// t: the decoded frame with the largest presentation time <= t (relative to the stream's
/// start time), or the first frame when none is that early. A stream that ends early yields
/// fewer samples; none is invented past its last frame. Nor past an implausible hold: a frame
/// that would still be on screen `StreamClock.longestHoldTicks` after it came on ends the
/// timeline there (`timelineBound` says so), so that damaged timestamps claiming hours or days
/// cost seconds.
///
/// Only frames that a sample uses are converted; decoding streams the file, holding at most
/// the current candidate frame and the one decoded after it (and the packets read ahead).
///
/// Unless `decodeEverything` is asked for, frames no sample can show and nothing refers to are
/// not decoded, and decoding jumps to a clean start before the next sample time when one lies
/// ahead (`SamplingShortcuts`); the samples are the same as decoding every frame gives.
public final class FrameSampler {
  private let file: VideoFile
  private let decoder: StreamDecoder
  /// Nil when every frame is decoded.
  private let shortcuts: SamplingShortcuts?
  /// Why every frame is decoded from the start, if it is.
  private let notEligible: String?
  /// The sample index the shortcuts last looked ahead for.
  private var lookedAheadFor: Int? = nil
  private let scaler = Scaler()
  private let previewScaler = Scaler()
  private var schedule: SampleSchedule

  /// The latest frame starting at or before the next sample time (or the first frame).
  private var candidate = Frame()
  private var candidateStamp: FrameStamp? = nil
  /// When the candidate came on screen within the timeline, in ticks: its start, but not before
  /// the timeline's start (0); 0 for the first frame, which answers every sample before it.
  private var candidateShownFrom: Int64 = 0
  private var candidateImage: RGBImage? = nil
  private var candidatePreview: RGBImage? = nil
  /// The frame decoded after the candidate, when it has been read ahead.
  private var upcoming = Frame()
  private var upcomingStamp: FrameStamp? = nil

  /// Facts about the video being sampled.
  public var info: VideoInfo { file.info }
  /// Size of every sampled image (after rotation).
  public let outputSize: PixelSize
  /// Size of every sample's `preview` (after rotation), if previews were asked for.
  public let previewSize: PixelSize?
  /// How many samples the video holds by its stated length (t = 0, interval, … before the
  /// end), for progress figures; nil when the length is unknown. A damaged or cut file may
  /// give fewer.
  public let expectedSampleCount: Int?
  /// Where the timeline was cut short because a frame would stay on screen implausibly long;
  /// nil while it was not.
  public private(set) var timelineBound: TimelineBound? = nil
  /// Packets or pictures skipped as damaged so far.
  public var corruptPacketCount: Int { decoder.corruptPackets }
  /// Frames decoded so far.
  public var decodedFrameCount: Int { decoder.decodedFrames }
  /// How the video has been decoded so far: which frames were left out, or why none were.
  public var decoding: DecodingSummary {
    DecodingSummary(
      packetsRead: decoder.queue.packetsRead, packetsSkipped: decoder.skippedPackets,
      framesDecoded: decoder.decodedFrames, restarts: shortcuts?.restarts ?? 0,
      fallbackReason: notEligible ?? shortcuts?.fallbackReason)
  }

  /// Opens `path` for sampling every `interval` seconds at `size` (nil: the display size).
  /// - Parameter previewWidth: when given, every sample also carries a `preview` this wide
  ///   with the display aspect ratio (one decode serves both the model and a poster).
  /// - Parameters:
  ///   - decodeEverything: decode every frame instead of only those the samples need (the same
  ///     samples, slower; for checking, or for users who suspect a problem).
  ///   - decoderThreads: threads for the decoder (nil: one per core). With more than one,
  ///     FFmpeg's concealment of damaged pictures can vary from run to run; one makes even
  ///     damaged files decode the same every time.
  /// - Throws: `MediaError` naming the file.
  public init(
    path: String, interval: Double = 1, size: PixelSize? = nil, previewWidth: Int? = nil,
    decodeEverything: Bool = false, decoderThreads: Int? = nil
  ) throws(MediaError) {
    let file = try VideoFile(path: path)
    self.file = file
    let (syntax, reason) =
      decodeEverything ? (nil, "every frame was asked for") : SamplingShortcuts.syntax(for: file)
    let threads = decoderThreads.map { Int32(max(1, min(16, $0))) } ?? StreamDecoder.threadsPerCore
    decoder = try StreamDecoder(file: file, threads: threads, syntax: syntax)
    schedule = SampleSchedule(interval: SampleInterval(seconds: interval), end: file.clock.duration)
    expectedSampleCount = file.info.duration.map { Int(($0 / interval).rounded(.up)) }
    notEligible = reason
    if syntax != nil {
      let shortcuts = SamplingShortcuts(
        decoder: decoder, interval: schedule.interval, end: schedule.end)
      decoder.filter = shortcuts
      self.shortcuts = shortcuts
    } else {
      shortcuts = nil
    }
    outputSize = size ?? file.clock.displaySize
    previewSize = previewWidth.map { file.clock.uprightSize(width: $0) }
  }

  /// The next sample, or nil when the video has no more.
  /// - Throws: `MediaError.corrupt` when the file holds no decodable frame at all.
  public func next() throws(MediaError) -> SampledFrame? {
    guard let time = schedule.nextTime else { return nil }
    var current: FrameStamp
    if let stamp = candidateStamp {
      current = stamp
    } else {
      guard let first = decoder.decode(into: candidate) else {
        schedule.finish()
        throw .corrupt(path: file.info.path, reason: "no decodable video frame")
      }
      // The first frame answers every sample before it.
      adoptCandidate(first)
      candidateShownFrom = 0
      current = first
    }
    while true {
      if shortcuts?.needsReplay == true { current = replayFromStart(upTo: current) }
      shortcuts?.sampleTime = time
      if upcomingStamp == nil, let shortcuts, lookedAheadFor != schedule.nextIndex {
        lookedAheadFor = schedule.nextIndex
        shortcuts.skipAhead(to: time)
      }
      guard let following = upcomingStamp ?? readAhead(after: current) else {
        // End of stream: the last frame answers only while it is still on screen.
        if time < file.clock.time(current.endTicks) { return try emitHeldCandidate(at: time) }
        schedule.finish()
        return nil
      }
      // The candidate answers this sample as soon as the frame after it starts later.
      if file.clock.time(following.ticks) > time { return try emitHeldCandidate(at: time) }
      // That frame does not start after the sample: it becomes the candidate.
      swap(&candidate, &upcoming)
      upcoming.unref()
      upcomingStamp = nil
      adoptCandidate(following)
      current = following
    }
  }

  /// Decodes every frame again from the start up to the candidate, so that from here on the
  /// decoder is where decoding every frame would have it (after damage, see
  /// `SamplingShortcuts.needsReplay`). The candidate becomes the replayed frame with its start;
  /// a frame read ahead is dropped and decoded again. Returns the candidate's stamp.
  private func replayFromStart(upTo current: FrameStamp) -> FrameStamp {
    shortcuts?.replayed()
    upcoming.unref()
    upcomingStamp = nil
    guard decoder.rewind() else { return current }
    while let stamp = decoder.decode(into: upcoming) {
      if stamp.ticks < current.ticks { continue }
      if stamp.ticks == current.ticks {
        swap(&candidate, &upcoming)
        upcoming.unref()
        let shownFrom = candidateShownFrom
        adoptCandidate(stamp)
        candidateShownFrom = shownFrom
        return stamp
      }
      upcomingStamp = stamp
      return current
    }
    return current
  }

  /// Decodes the frame after the candidate into `upcoming`; nil at the end of the stream.
  /// Frames earlier than the candidate (broken timestamps going backwards) are passed over:
  /// such a frame is never the latest one at or before a sample time.
  private func readAhead(after current: FrameStamp) -> FrameStamp? {
    while let stamp = decoder.decode(into: upcoming) {
      if stamp.ticks < current.ticks { continue }
      upcomingStamp = stamp
      return stamp
    }
    return nil
  }

  /// Makes the frame now in `candidate` the one that answers samples.
  private func adoptCandidate(_ stamp: FrameStamp) {
    candidateStamp = stamp
    candidateShownFrom = max(0, stamp.ticks)
    shortcuts?.candidateTicks = stamp.ticks
    candidateImage = nil
    candidatePreview = nil
  }

  /// The candidate as the sample at `time`, unless it has by then been on screen for the
  /// longest plausible hold: then the timeline ends where that hold does (`timelineBound`) and
  /// the result is nil.
  private func emitHeldCandidate(at time: ExactTime) throws(MediaError) -> SampledFrame? {
    let clock = file.clock
    let limit = clock.holdLimit(from: candidateShownFrom)
    if time < limit { return try emitCandidate(at: time) }
    timelineBound = TimelineBound(
      path: file.info.path, end: limit.seconds, frameStart: clock.seconds(candidateShownFrom),
      longestHold: clock.seconds(clock.longestHoldTicks), claimed: schedule.end?.seconds)
    schedule.finish()
    return nil
  }

  /// The candidate as the sample at `time` (converted once, however many samples show it).
  private func emitCandidate(at time: ExactTime) throws(MediaError) -> SampledFrame {
    let clock = file.clock
    let image: RGBImage
    let repeatsPrevious = candidateImage != nil
    if let cached = candidateImage {
      image = cached
    } else {
      image = try scaler.uprightImage(from: candidate.pointer, size: outputSize, clock: clock)
      candidateImage = image
    }
    if let previewSize, candidatePreview == nil {
      candidatePreview = try previewScaler.uprightImage(
        from: candidate.pointer, size: previewSize, clock: clock)
    }
    // Later samples it answers (a held frame) use the converted images: the decoder can have
    // the picture back now (one 1080p picture less held while decoding on).
    candidate.unref()
    let sample = SampledFrame(
      index: schedule.nextIndex, time: time.seconds,
      presentationTime: clock.seconds(candidateStamp?.ticks ?? 0), image: image,
      preview: candidatePreview, repeatsPrevious: repeatsPrevious)
    schedule.advance()
    return sample
  }
}

/// Where a `FrameSampler` ended a timeline because one frame would have stayed on screen
/// implausibly long (docs/frame-sampling.md, "Implausible timelines").
public struct TimelineBound: Sendable, Equatable {
  /// The video's path.
  public let path: String
  /// Where the timeline now ends, in seconds from the stream's start: no sample at or after it.
  public let end: Double
  /// When the frame held too long came on screen.
  public let frameStart: Double
  /// The longest hold allowed for this stream, in seconds.
  public let longestHold: Double
  /// The length the video states, when it states one.
  public let claimed: Double?

  /// One line for a warning: the file, what its timestamps claim, and what was analysed.
  public var note: String {
    let claim = claimed.map { " (the video claims \(Self.text($0)))" } ?? ""
    return
      "\(path): its timestamps keep the frame at \(Self.text(frameStart)) on screen longer than "
      + "\(Self.text(longestHold))\(claim); analysed the first \(Self.text(end)) it can show"
  }

  /// "5.96 s", "1 min 12 s", "6 h 1 min", "70 days" (times from damaged files can be anything).
  static func text(_ seconds: Double) -> String {
    guard seconds.isFinite, abs(seconds) < 1e15 else { return "forever" }
    if seconds < 60 {
      var digits = CFormat.string("%.2f", seconds)
      while digits.hasSuffix("0") { digits.removeLast() }
      if digits.hasSuffix(".") { digits.removeLast() }
      return digits + " s"
    }
    let whole = Int(seconds.rounded())
    if whole < 3600 { return "\(whole / 60) min" + (whole % 60 == 0 ? "" : " \(whole % 60) s") }
    if whole < 2 * 86400 {
      return "\(whole / 3600) h" + (whole % 3600 / 60 == 0 ? "" : " \(whole % 3600 / 60) min")
    }
    return "\(whole / 86400) days"
  }
}

/// How a `FrameSampler` has decoded its video so far.
public struct DecodingSummary: Sendable, Equatable {
  /// Packets of the video stream read from the file.
  public let packetsRead: Int
  /// Packets never decoded because no sample needed them.
  public let packetsSkipped: Int
  /// Frames the decoder produced.
  public let framesDecoded: Int
  /// Times decoding jumped ahead to a clean start.
  public let restarts: Int
  /// Why every frame is being decoded, when the shortcuts were not (or no longer) used.
  public let fallbackReason: String?

  /// One line for `--verbose`.
  public var description: String {
    if let fallbackReason { return "decoded every frame (\(fallbackReason))" }
    return
      "decoded \(framesDecoded) frames; skipped \(packetsSkipped) of \(packetsRead) packets"
      + " (\(restarts) jumps to a key frame)"
  }
}
