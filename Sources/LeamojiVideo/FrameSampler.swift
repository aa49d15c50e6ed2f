internal import CFFmpeg
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

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
/// the current candidate frame and the one decoded after it (and the packets read ahead).
///
/// Unless `decodeEverything` is asked for, frames no sample can show and nothing refers to are
/// not decoded, and decoding jumps to a clean start before the next sample time when one lies
/// ahead (`SamplingShortcuts`); the samples are the same as decoding every frame gives. Where
/// the shortcuts apply and there are two or more cores, two single-threaded decoders sample
/// alternate runs of samples at once (`ParallelSampling`); at the first sign of anything
/// unusual (damage, a shortcut switched off) the rest is sampled by one decoder, as without.
public final class FrameSampler {
  /// What the samples are taken with now.
  private enum Source {
    case sequential(SampleEngine)
    case parallel(ParallelSampling)
  }

  private var source: Source
  private let path: String
  private let interval: Double
  private let size: PixelSize?
  private let previewWidth: Int?
  private let threads: Int32
  /// Samples handed out so far.
  private var delivered = 0
  private var finished = false
  /// Why the parallel decoders were left for one, if they were.
  private var leftParallel = false

  /// Facts about the video being sampled.
  public let info: VideoInfo
  /// Size of every sampled image (after rotation).
  public let outputSize: PixelSize
  /// Size of every sample's `preview` (after rotation), if previews were asked for.
  public let previewSize: PixelSize?
  /// Packets or pictures skipped as damaged so far.
  public var corruptPacketCount: Int {
    switch source {
    case .sequential(let engine): engine.corruptPacketCount
    case .parallel: 0  // its engines are clean, or it was left
    }
  }
  /// Frames decoded so far.
  public var decodedFrameCount: Int { decoding.framesDecoded }
  /// How the video has been decoded so far: which frames were left out, or why none were.
  public var decoding: DecodingSummary {
    switch source {
    case .sequential(let engine): engine.decoding
    case .parallel(let parallel): parallel.decoding
    }
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
  public convenience init(
    path: String, interval: Double = 1, size: PixelSize? = nil, previewWidth: Int? = nil,
    decodeEverything: Bool = false, decoderThreads: Int? = nil
  ) throws(MediaError) {
    try self.init(
      path: path, interval: interval, size: size, previewWidth: previewWidth,
      decodeEverything: decodeEverything, decoderThreads: decoderThreads,
      parallelRun: ParallelPlan.automatic)
  }

  /// As above, with the parallel decoding chosen by `parallelRun` (tests force it on short
  /// videos with a run length, or off with `.never`).
  init(
    path: String, interval: Double, size: PixelSize?, previewWidth: Int?,
    decodeEverything: Bool, decoderThreads: Int?, parallelRun plan: ParallelPlan
  ) throws(MediaError) {
    let file = try VideoFile(path: path)
    self.path = path
    self.interval = interval
    self.size = size
    self.previewWidth = previewWidth
    threads = decoderThreads.map { Int32(max(1, min(16, $0))) } ?? StreamDecoder.threadsPerCore
    info = file.info
    outputSize = size ?? file.clock.displaySize
    previewSize = previewWidth.map { file.clock.uprightSize(width: $0) }
    let run =
      decodeEverything || SamplingShortcuts.syntax(for: file).0 == nil
      ? nil : plan.run(for: file, interval: interval)
    if let run {
      let second = try VideoFile(path: path)
      var engines: [SampleEngine] = []
      for (part, opened) in [file, second].enumerated() {
        engines.append(
          try SampleEngine(
            file: opened, interval: interval, size: size, previewWidth: previewWidth,
            decodeEverything: false, threads: 1,
            share: SampleShare(run: run, part: part, parts: 2)))
      }
      let parallel = ParallelSampling(
        engines: engines, run: run, window: run + ParallelPlan.slack(run: run))
      if parallel.start() {
        source = .parallel(parallel)
        return
      }
    }
    let engine = try SampleEngine(
      file: run == nil ? file : try VideoFile(path: path), interval: interval, size: size,
      previewWidth: previewWidth, decodeEverything: decodeEverything, threads: threads)
    source = .sequential(engine)
  }

  /// The next sample, or nil when the video has no more.
  /// - Throws: `MediaError.corrupt` when the file holds no decodable frame at all.
  public func next() throws(MediaError) -> SampledFrame? {
    if finished { return nil }
    switch source {
    case .sequential(let engine):
      let sample = try engine.next()
      if sample == nil { finished = true } else { delivered += 1 }
      return sample
    case .parallel(let parallel):
      switch parallel.next() {
      case .sample(let sample):
        delivered += 1
        return sample
      case .end:
        parallel.stop()
        finished = true
        return nil
      case .unclean:
        parallel.stop()
        try sampleSequentially()
        return try next()
      }
    }
  }

  /// Leaves the parallel decoders for one sequential engine that decodes again from the start
  /// and passes over the samples already handed out: from here on everything (samples, damage
  /// counts, `--verbose`) is what sampling with one decoder gives.
  private func sampleSequentially() throws(MediaError) {
    let engine = try SampleEngine(
      file: try VideoFile(path: path), interval: interval, size: size,
      previewWidth: previewWidth, decodeEverything: false, threads: threads)
    leftParallel = true
    source = .sequential(engine)
    for _ in 0..<delivered {
      guard try engine.next() != nil else {
        finished = true
        return
      }
    }
  }
}

/// When `FrameSampler` samples with two decoders at once, and how many samples make a run.
enum ParallelPlan {
  /// Chosen per file (`run(for:interval:)`'s rules).
  case automatic
  /// Never.
  case never
  /// Always when the shortcuts apply, with runs of this many samples.
  case runs(Int)

  /// Runs of samples at least this long, in seconds.
  static let minimumRunSeconds = 8.0

  /// Samples a worker may start beyond its run while the caller is behind.
  static func slack(run: Int) -> Int { max(1, run / 2) }

  /// The run length for sampling `file` every `interval` seconds, or nil for one decoder:
  /// with one core; when the video is shorter than two runs; when a run would be shorter than
  /// twice the longest key-frame distance in the container's index (the frames from a clean
  /// start up to a run's first sample are decoded by both workers when the run boundary falls
  /// inside that group of pictures).
  func run(for file: VideoFile, interval: Double) -> Int? {
    switch self {
    case .never: return nil
    case .runs(let run): return max(1, run)
    case .automatic: break
    }
    guard let forced = getenv("LEAMOJI_PARALLEL") else { return nil }
    if let run = Int(String(cString: forced)), run > 0 { return run }
    guard StreamDecoder.threadsPerCore >= 2, let duration = file.info.duration else { return nil }
    let keyDistance = file.longestKeyFrameDistance ?? Self.minimumRunSeconds / 2
    let seconds = max(Self.minimumRunSeconds, 2 * keyDistance)
    let run = max(1, Int((seconds / interval).rounded(.up)))
    guard Double(2 * run) * interval < duration else { return nil }
    return run
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
  /// Decoders sampling alternate runs at once (1: one decoder).
  public var parallelDecoders = 1
  /// Samples per run when `parallelDecoders` > 1.
  public var runSamples = 0

  /// One line for `--verbose`.
  public var description: String {
    if let fallbackReason { return "decoded every frame (\(fallbackReason))" }
    let parallel =
      parallelDecoders > 1
      ? "; \(parallelDecoders) decoders at once, alternate runs of \(runSamples) samples" : ""
    return
      "decoded \(framesDecoded) frames; skipped \(packetsSkipped) of \(packetsRead) packets"
      + " (\(restarts) jumps to a key frame)" + parallel
  }
}
