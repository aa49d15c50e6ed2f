internal import CFFmpeg
import LeamojiCore

/// The sequential sampler behind `FrameSampler` (see there for the contract): one demuxer, one
/// decoder, the samples of its schedule in order. With a `SampleShare` it answers only that
/// share's samples; every other sample time is passed over undecoded, and the samples it does
/// answer are exactly those answering every sample gives (the shortcuts only ever reason about
/// the sample times at and after the one being answered).
///
/// Only frames that a sample uses are converted; decoding streams the file, holding at most
/// the current candidate frame and the one decoded after it (and the packets read ahead).
///
/// Unless `decodeEverything` is asked for, frames no sample can show and nothing refers to are
/// not decoded, and decoding jumps to a clean start before the next sample time when one lies
/// ahead (`SamplingShortcuts`); the samples are the same as decoding every frame gives.
final class SampleEngine {
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
  private var candidateImage: RGBImage? = nil
  private var candidatePreview: RGBImage? = nil
  /// The frame decoded after the candidate, when it has been read ahead.
  private var upcoming = Frame()
  private var upcomingStamp: FrameStamp? = nil

  /// Facts about the video being sampled.
  var info: VideoInfo { file.info }
  /// Size of every sampled image (after rotation).
  let outputSize: PixelSize
  /// Size of every sample's `preview` (after rotation), if previews were asked for.
  let previewSize: PixelSize?
  /// Packets or pictures skipped as damaged so far.
  var corruptPacketCount: Int { decoder.corruptPackets }
  /// Frames decoded so far.
  var decodedFrameCount: Int { decoder.decodedFrames }
  /// How the video has been decoded so far: which frames were left out, or why none were.
  var decoding: DecodingSummary {
    DecodingSummary(
      packetsRead: decoder.queue.packetsRead, packetsSkipped: decoder.skippedPackets,
      framesDecoded: decoder.decodedFrames, restarts: shortcuts?.restarts ?? 0,
      fallbackReason: notEligible ?? shortcuts?.fallbackReason)
  }

  /// k of the sample `next` answers next.
  var nextIndex: Int { schedule.nextIndex }
  /// Every shortcut taken so far was safe and nothing was damaged: the samples handed out are
  /// those of decoding every frame, and so is everything counted.
  var isClean: Bool {
    notEligible == nil && shortcuts?.fallbackReason == nil && decoder.corruptPackets == 0
  }

  /// Samples `file` (opened for this engine alone) every `interval` seconds (see
  /// `FrameSampler.init`).
  /// - Parameters:
  ///   - threads: decoder threads.
  ///   - share: the samples this engine answers (nil: all).
  init(
    file: VideoFile, interval: Double, size: PixelSize?, previewWidth: Int?,
    decodeEverything: Bool, threads: Int32, share: SampleShare? = nil
  ) throws(MediaError) {
    self.file = file
    let (syntax, reason) =
      decodeEverything ? (nil, "every frame was asked for") : SamplingShortcuts.syntax(for: file)
    decoder = try StreamDecoder(file: file, threads: threads, syntax: syntax)
    schedule = SampleSchedule(
      interval: SampleInterval(seconds: interval), end: file.clock.duration, share: share)
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

  /// The next sample of the schedule, or nil when the video has no more.
  /// - Throws: `MediaError.corrupt` when the file holds no decodable frame at all.
  func next() throws(MediaError) -> SampledFrame? {
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
        if time < file.clock.time(current.endTicks) { return try emitCandidate(at: time) }
        schedule.finish()
        return nil
      }
      // The candidate answers this sample as soon as the frame after it starts later.
      if file.clock.time(following.ticks) > time { return try emitCandidate(at: time) }
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
        adoptCandidate(stamp)
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
    shortcuts?.candidateTicks = stamp.ticks
    candidateImage = nil
    candidatePreview = nil
  }

  /// The candidate as the sample at `time` (converted once, however many samples show it).
  private func emitCandidate(at time: ExactTime) throws(MediaError) -> SampledFrame {
    let clock = file.clock
    let image: RGBImage
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
      preview: candidatePreview)
    schedule.advance()
    return sample
  }
}
