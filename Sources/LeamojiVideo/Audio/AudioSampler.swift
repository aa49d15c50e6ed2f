internal import CFFmpeg

/// The sound of one sample: mono Float PCM at `AudioSampler.sampleRate` for
/// `[k·interval, (k+1)·interval)` on the video stream's clock.
public struct SoundWindow: Sendable, Equatable {
  /// The sample's number k.
  public let index: Int
  /// Its start, k·interval seconds from the video stream's start.
  public let time: Double
  /// `AudioSampler.sampleRate` samples a second, zeros where there was no audio.
  public let samples: [Float]
  /// The fraction (0...1) of the window covered by real decoded audio (the rest is zeros).
  public let coverage: Double

  public init(index: Int, time: Double, samples: [Float], coverage: Double) {
    self.index = index
    self.time = time
    self.samples = samples
    self.coverage = coverage
  }
}

/// Decodes the audio of a video, one window per sample, as docs/frame-sampling.md ("The sound
/// of a sample") defines it.
///
/// It opens its own demuxer on the file rather than sharing the `FrameSampler`'s: the frame
/// sampler jumps with `av_seek_frame` over stretches no sample needs, while sound needs every
/// audio packet, so the two read the file independently. Decoding and resampling go on only as
/// far as the window asked for (plus the frame that crosses its end), so memory holds about one
/// window, never the whole track.
///
/// Times are on the video stream's clock (origin: its `start_time`, as `FrameSampler` uses).
/// Each decoded frame is placed by its best-effort timestamp; frames that follow the previous
/// one to within `jitterTolerance` continue the run, so ordinary streams are continuous.
public final class AudioSampler {
  /// Samples per second of every window.
  public static let sampleRate = 16_000
  /// The largest difference between a frame's timestamp and the end of the sound before it
  /// that still counts as continuous (timestamp rounding, container jitter).
  static let jitterTolerance = 0.020
  /// A frame this far before sound already placed means timestamps that cannot be trusted.
  static let largestStepBack = 1.0
  /// Timestamps further than this from the video's start (about 116 days) are absurd.
  static let farthestTime = 10_000_000.0

  /// The stream being decoded.
  public let stream: AudioStreamInfo
  /// Set once when the audio stream turned out to be broken (decoder or resampler failure,
  /// absurd timestamps, mostly undecodable packets): one line naming the file and the problem.
  /// From then on windows are silent with coverage 0.
  public private(set) var failure: String?
  /// Audio packets found damaged so far (skipped; their time stays silent).
  public var damagedPackets: Int { decoder?.damagedPackets ?? 0 }

  private let path: String
  /// The interval as `FrameSampler` holds it (to the microsecond), so windows start exactly at
  /// the frames' sample times.
  private let interval: SampleInterval
  /// The video's demuxer state, kept for as long as the decoder reads from it.
  private let file: VideoFile
  private let decoder: AudioDecoder?
  private let resampler = MonoResampler(outputRate: AudioSampler.sampleRate)
  private let timeBase: TimeBase
  /// The video stream's start in seconds: position 0 of the grid.
  private let origin: Double
  private let frame = Frame()
  private var placement = SoundPlacement()
  private var run: Run? = nil
  private var ended = false
  /// Where the last window asked for ends (grid position).
  private var windowsEnd = 0

  /// Consecutive sound going through the resampler: where it started and how much went in.
  private struct Run {
    /// Seconds from the video's start of the run's first input sample.
    let time: Double
    /// Grid position of the run's first output sample.
    let position: Int
    let inputRate: Int
    var inputSamples = 0
    var outputSamples = 0
    /// Seconds from the video's start where the next frame continues the run.
    var expectedTime: Double { time + Double(inputSamples) / Double(inputRate) }
    var nextPosition: Int { position + outputSamples }
  }

  /// Opens `path`'s audio stream number `audioStream` (0-based among the file's audio streams;
  /// nil: the first one, FFmpeg's best). Returns nil when the file has no audio stream and none
  /// was asked for. A stream without a decoder opens with `failure` set.
  /// - Throws: `MediaError` naming the file when it cannot be opened as a video (as
  ///   `VideoFile`, e.g. `noVideoStream` for an audio-only file), or when the stream asked for
  ///   does not exist (`unreadable`, listing the audio streams it has).
  public init?(path: String, interval: Double, audioStream: Int? = nil) throws(MediaError) {
    self.interval = SampleInterval(seconds: interval)  // refuses a non-positive interval
    let file = try VideoFile(path: path)
    guard
      let (info, audio) = try AudioStreams.choose(
        audioStream, in: file.format.pointer, videoStream: file.stream.pointee.index, path: path)
    else { return nil }
    self.path = path
    self.file = file
    stream = info
    timeBase = TimeBase(audio.pointee.time_base)
    origin = file.clock.startSeconds
    do {
      decoder = try AudioDecoder(format: file.format, stream: audio)
    } catch {
      decoder = nil
      fail(error)
    }
  }

  /// The window of sample `k`. Called with k = 0, 1, 2, … in order; a k already passed gives
  /// silence with coverage 0. After the audio ends: zeros, coverage 0.
  public func window(sample k: Int) -> SoundWindow {
    let start = Self.position(ofSample: k, interval: interval)
    let end = Self.position(ofSample: k + 1, interval: interval)
    while failure == nil, !ended, (placement.frontier ?? .min) < end {
      step()
    }
    let (samples, covered) = placement.window(from: start, to: end)
    placement.discard(before: end)
    windowsEnd = max(windowsEnd, end)
    let count = max(1, end - start)
    return SoundWindow(
      index: k, time: interval.time(ofSample: k).seconds, samples: samples,
      coverage: Double(covered) / Double(count))
  }

  /// Whether every window from here on is silence with coverage 0: the stream ended (or
  /// failed) and the windows asked for so far reach past the last sound it placed.
  public var isExhausted: Bool {
    failure != nil || (ended && (placement.frontier ?? .min) <= windowsEnd)
  }

  /// Sound samples held for windows not cut yet (for the memory bound's tests).
  var heldSamples: Int { placement.heldSamples }

  /// The grid position where sample k's window starts: k·interval·16000, rounded half up.
  static func position(ofSample k: Int, interval: SampleInterval) -> Int {
    let scaled = Int128(k) * Int128(interval.ticks) * Int128(sampleRate) * 2
    let denominator = Int128(interval.base.den) * 2
    return Int((scaled + Int128(interval.base.den)) / denominator)
  }

  // MARK: - Decoding

  /// Decodes one frame and places its sound (at the end: the resampler's tail).
  private func step() {
    guard let decoder else {
      ended = true
      return
    }
    do {
      guard decoder.decode(into: frame) else {
        try finishRun()
        ended = true
        checkDamage(atEnd: true)
        return
      }
      try place(frame)
      checkDamage(atEnd: false)
    } catch {
      fail(error)
    }
  }

  /// Continues the run with `frame`, or ends it and starts a new one where the frame's
  /// timestamp says (a gap, an overlap, or a change of format).
  private func place(_ frame: Frame) throws(AudioProblem) {
    let decoded = frame.pointer.pointee
    guard decoded.nb_samples > 0 else { return }
    let stamp = StreamClock.timestamp(decoded.best_effort_timestamp)
    let time = stamp.map { timeBase.seconds($0) - origin }
    if let time, !(abs(time) <= Self.farthestTime) {
      throw AudioProblem("an audio timestamp \(time) s from the video's start")
    }
    if var current = run, resampler.accepts(frame),
      time.map({ abs($0 - current.expectedTime) <= Self.jitterTolerance }) ?? true
    {
      current.inputSamples += Int(decoded.nb_samples)
      let output = try resampler.convert(frame)
      placement.place(output, at: current.nextPosition)
      current.outputSamples += output.count
      run = current
      return
    }
    let previousEnd = run?.expectedTime
    try finishRun()
    let start = time ?? previousEnd ?? 0
    if let placed = placement.frontier,
      start < Double(placed) / Double(Self.sampleRate) - Self.largestStepBack
    {
      throw AudioProblem(
        "audio timestamps go back from \(seconds(placed)) s to \(rounded(start)) s")
    }
    try resampler.start(for: frame)
    var fresh = Run(
      time: start, position: Int((start * Double(Self.sampleRate)).rounded()),
      inputRate: resampler.rate)
    fresh.inputSamples = Int(decoded.nb_samples)
    let output = try resampler.convert(frame)
    placement.place(output, at: fresh.position)
    fresh.outputSamples = output.count
    run = fresh
  }

  /// Places what the resampler still holds and ends the run. The filter's tail is cut where
  /// the run's input ends (swresample's flush gives a few samples more), so that a run's sound
  /// ends where its last frame does and never hides the start of the next.
  private func finishRun() throws(AudioProblem) {
    guard let current = run else { return }
    run = nil
    let tail = try resampler.drain()
    let total = (Double(current.inputSamples) * Double(Self.sampleRate) / Double(current.inputRate))
      .rounded()
    let wanted = max(0, Int(total) - current.outputSamples)
    placement.place(Array(tail.prefix(wanted)), at: current.nextPosition)
  }

  /// Fails when most of what was read is damaged: at least 32 damaged packets and more than
  /// decoded frames (checked as decoding goes, and at the end).
  private func checkDamage(atEnd: Bool) {
    guard let decoder, decoder.damagedPackets >= 32,
      decoder.damagedPackets > decoder.decodedFrames
    else { return }
    // Early on a few damaged packets can outnumber the frames; wait for a clear majority.
    if atEnd || decoder.damagedPackets > 2 * decoder.decodedFrames + 32 {
      fail(
        AudioProblem(
          "\(decoder.damagedPackets) damaged audio packets against"
            + " \(decoder.decodedFrames) decoded frames"))
    }
  }

  private func fail(_ problem: AudioProblem) {
    guard failure == nil else { return }
    failure = "\(path): \(stream.summary) cannot be used (\(problem.sentence))"
    placement.clear()
    run = nil
  }

  private func seconds(_ position: Int) -> String {
    rounded(Double(position) / Double(Self.sampleRate))
  }

  private func rounded(_ seconds: Double) -> String {
    String(Double((seconds * 1000).rounded()) / 1000)
  }
}
