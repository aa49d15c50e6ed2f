import Dispatch
import FoundationEssentials
import LeamojiClassifier
import LeamojiCore
import LeamojiIntensity
import LeamojiTimeline
import LeamojiVideo

/// One video's pass: sample every `interval` seconds at the model's input size, classify the
/// samples in batches, and keep the best poster candidate. The video is decoded on a thread of
/// its own a few samples ahead of the network (`samplesAhead`), so that decoding and
/// classifying overlap. Streams the video: memory holds one batch of samples and the few
/// decoded ahead, never the whole film.
public struct VideoAnalysis: Sendable {
  /// Width of poster images in pixels (height follows the display aspect ratio).
  public static let posterWidth = 342

  public let info: VideoInfo
  /// One score per sample, in time order.
  public let scores: [SecondScore]
  /// The poster frame, when one was asked for and any sample was decoded.
  public let poster: RGBImage?
  /// Damaged packets skipped while decoding.
  public let corruptPackets: Int
  /// How the video was decoded: frames left out, or why every frame was decoded (`--verbose`).
  public let decodingNote: String
  /// The audio stream listened to, when the sound was decoded and is part of `scores`.
  public let audioStream: AudioStreamInfo?
  /// Why the sound was left out although it was asked for (a broken audio stream): one line
  /// naming the file, for a warning. The scores are then the picture's alone.
  public let soundProblem: String?

  /// What to listen to besides the pictures (`analyze --signals`, `--audio-stream`).
  public struct Listening: Sendable {
    /// The audio stream, counted among the file's audio streams; nil: the first.
    public var audioStream: Int?
    /// How sound and pace become signals.
    public var fusion: FusionSettings

    public init(audioStream: Int? = nil, fusion: FusionSettings = .standard) {
      self.audioStream = audioStream
      self.fusion = fusion
    }
  }

  /// Where the timeline was cut short by an implausible hold, if it was (one warning line).
  public let timelineBound: TimelineBound?
  /// Samples the classifier was given: a sample showing the same frame as the one before (a
  /// held frame) takes that sample's prediction instead.
  public let classifiedSamples: Int

  /// How a video's samples are classified: how many together, on how many threads.
  public struct Batching: Sendable, Equatable {
    /// Samples classified together.
    public let size: Int
    /// Threads one batch is classified on.
    public let threads: Int

    /// The batching for `classifier` when `threads` are free for one video. The samples are
    /// classified on the calling thread while the video is decoded on a thread of its own
    /// (`run`), and the decoder's frame threads take one thread per core. A small network's
    /// batch of 32 samples takes a few milliseconds on one thread (a second would cost a
    /// network workspace, a worker thread and its allocation arena, about 4 MB of peak memory,
    /// for no time saved). A network that splits one image over threads (a pretrained
    /// backbone, 20 times the work per image) takes one sample at a time on half of `threads`
    /// (at least one), leaving the other half to the decoder: split over threads that the
    /// decoder keeps busy too, its lanes waited for each other at every step (on 2 cores, with
    /// both lanes, a fifth of `analyze`'s CPU time went to yielding at the lanes' barrier), and a
    /// batch of 32 would hold about 34 MB more of activations.
    public init(classifier: Classifier, threads: Int) {
      if classifier.splitsOneImage {
        self.init(size: 1, threads: max(1, threads / 2))
      } else {
        self.init(size: 32, threads: 1)
      }
    }

    public init(size: Int, threads: Int) {
      precondition(size >= 1 && threads >= 1, "batches need a size and a thread")
      self.size = size
      self.threads = threads
    }
  }

  /// Analyses the video at `path`.
  /// - Parameters:
  ///   - interval: seconds between samples.
  ///   - poster: choose a poster (`PosterPicker`); every sample then carries a poster-size
  ///     preview, made by the same decode.
  ///   - decodeEverything: decode every frame rather than only those the samples need (the
  ///     same result, slower).
  ///   - listening: decode the first (or the chosen) audio stream in the same pass and give
  ///     every score its sound and pace signals (nil: the picture alone). A video without
  ///     sound gives the picture's scores; a broken audio stream gives them too, with
  ///     `soundProblem` said.
  ///   - labelling: how a sample's label is decided (the timeline's encoder): the poster then
  ///     prefers a sample it calls calm. Nil: the most probable label, none preferred.
  ///   - progress: called with (samples analysed, expected total or nil).
  /// - Throws: `LeamojiError` for a video that cannot be opened or decoded, or an audio stream
  ///   asked for by number that the file does not have.
  public static func run(
    path: String, classifier: Classifier, interval: Double, batching: Batching, poster: Bool,
    decodeEverything: Bool, listening: Listening? = nil, labelling: MarkerEncoder? = nil,
    progress: (Int, Int?) -> Void
  ) throws(LeamojiError) -> VideoAnalysis {
    let sampler: FrameSampler
    do {
      sampler = try FrameSampler(
        path: path, interval: interval, size: classifier.inputSize,
        previewWidth: poster ? posterWidth : nil, decodeEverything: decodeEverything)
    } catch {
      throw LeamojiError(error)
    }
    let expected = sampler.expectedSampleCount
    var hearing: Hearing? = nil
    if let listening {
      do {
        hearing = try AudioSampler(
          path: path, interval: interval, audioStream: listening.audioStream
        ).map { Hearing(audio: $0, expectedSamples: expected) }
      } catch {
        throw LeamojiError(error)
      }
    }
    var scores: [SecondScore] = []
    var picker = PosterPicker()
    var pending: [SampledFrame] = []
    var classified = 0
    // The last sample's prediction, for the samples that hold its frame.
    var previous: Prediction? = nil

    func classifyPending() throws(LeamojiError) {
      guard !pending.isEmpty else { return }
      // A sample showing the frame of the one before it (`repeatsPrevious`, said by the sampler,
      // which converted that frame once) takes that sample's prediction; the network is
      // deterministic, so classifying it again would give the same scores.
      let images = pending.filter { !$0.repeatsPrevious }.map(\.image)
      var predictions: [Prediction] = []
      if !images.isEmpty {
        do {
          predictions = try classifier.classify(images, threads: batching.threads)
        } catch {
          throw LeamojiError.unexpected("\(path): \(error)")
        }
        classified += images.count
      }
      var fresh = predictions.makeIterator()
      for sample in pending {
        guard let prediction = sample.repeatsPrevious ? previous : fresh.next() else { break }
        previous = prediction
        scores.append(SecondScore(second: sample.time, probabilities: prediction.probabilities))
        if let preview = sample.preview {
          // The poster prefers a sample the timeline's own rule (`labelling`) calls calm.
          let decided = labelling?.pictureLabel(of: prediction.probabilities)
          let confidence = Double(
            decided.map { prediction.probabilities[$0.index] } ?? prediction.confidence)
          let calm = !(decided?.isScary ?? false)
          if picker.couldChoose(confidence: confidence, calm: calm) {
            picker.consider(time: sample.time, image: preview, confidence: confidence, calm: calm)
          }
        }
      }
      pending.removeAll(keepingCapacity: true)
      progress(scores.count, expected)
    }

    // The pictures are decoded (and their pace measured) on a thread of their own, a few
    // samples ahead of the network on this one, so that neither waits for the other.
    let decoding = Decoding(sampler: sampler, hearing: hearing, ahead: Self.samplesAhead)
    let thread = JoinableThread.start { decoding.run() }
    defer {
      decoding.handoff.cancel()
      thread?.join()
    }
    while true {
      let sample: SampledFrame?
      do {
        sample = try thread == nil ? decoding.sampleHere() : decoding.handoff.take()
      } catch let error as MediaError {
        throw LeamojiError(error)
      } catch {
        throw LeamojiError.unexpected("\(path): \(error)")
      }
      guard let sample else { break }
      pending.append(sample)
      if pending.count == batching.size { try classifyPending() }
    }
    try classifyPending()
    thread?.join()
    var soundProblem: String? = nil
    if let hearing, let listening {
      if let sound = hearing.sound(count: scores.count) {
        let signals = SignalBuilder.signals(
          sound: sound, pace: hearing.pace, interval: interval, settings: listening.fusion)
        for i in scores.indices where i < signals.count { scores[i].signals = signals[i] }
      } else if let failure = hearing.audio.failure {
        soundProblem = failure + "; analysed by its pictures alone"
      }
    }
    return VideoAnalysis(
      info: sampler.info, scores: scores, poster: picker.choice?.image,
      corruptPackets: sampler.corruptPacketCount, decodingNote: sampler.decoding.description,
      audioStream: soundProblem == nil ? hearing?.audio.stream : nil, soundProblem: soundProblem,
      timelineBound: sampler.timelineBound, classifiedSamples: classified)
  }

  /// Samples decoded ahead of the network at most: each holds its model-size image and its
  /// preview (about 0.3 MB with a poster). Two let the decoder go on while the network works
  /// on one; one and four measured the same within the noise on 2 cores.
  static let samplesAhead = 2

  /// The decoding side: samples the video and measures each sample's pace, handing the
  /// samples over in order.
  private final class Decoding: @unchecked Sendable {
    let sampler: FrameSampler
    let hearing: Hearing?
    let handoff: Handoff<SampledFrame>

    init(sampler: FrameSampler, hearing: Hearing?, ahead: Int) {
      self.sampler = sampler
      self.hearing = hearing
      handoff = Handoff(capacity: max(1, ahead))
    }

    /// The next sample on the caller's thread (when no thread of its own could be made).
    func sampleHere() throws(MediaError) -> SampledFrame? {
      guard let sample = try sampler.next() else { return nil }
      hearing?.measure(sample)
      return sample
    }

    /// Samples until the video ends, fails, or the consumer cancels.
    func run() {
      do {
        while !handoff.isCancelled, let sample = try sampleHere() {
          guard handoff.put(sample) else { return }
        }
        handoff.finish()
      } catch {
        handoff.finish(throwing: error)
      }
    }
  }

  /// The sound and pace of the samples. The pace is measured as the samples are decoded (on
  /// the decoding thread; read after it has ended); the sound
  /// on a thread of its own from the start, so that decoding it overlaps decoding the pictures
  /// (it needs nothing of them but the interval): up to the sample count the video's stated
  /// length gives, or until the audio ends, whichever is first. `sound(count:)` waits for it and
  /// measures any windows still missing (silence after the audio ended, or samples past the
  /// stated length), so the result is the same as measuring sample by sample.
  private final class Hearing: @unchecked Sendable {
    let audio: AudioSampler
    /// Only the loudness features: the signals use nothing of the spectrum yet.
    private var meter = SoundMeter(spectrum: false)
    private var paceMeter = PaceMeter()
    private var measured: [SoundSecond] = []
    private(set) var pace: [PaceSecond] = []
    private let worker = DispatchGroup()

    /// Starts measuring the sound of the first `expectedSamples` samples (nil: none ahead).
    init(audio: AudioSampler, expectedSamples: Int?) {
      self.audio = audio
      let ahead = expectedSamples ?? 0
      guard ahead > 0 else { return }
      DispatchQueue.global().async(group: worker) { [self] in
        while measured.count < ahead, !self.audio.isExhausted { measureNext() }
      }
    }

    func measure(_ sample: SampledFrame) {
      pace.append(paceMeter.measure(sample.image))
    }

    /// The sound of samples `0..<count` (waits for the thread); nil when the audio stream
    /// turned out to be broken (`audio.failure`).
    func sound(count: Int) -> [SoundSecond]? {
      worker.wait()
      guard audio.failure == nil else { return nil }
      while measured.count < count { measureNext() }
      guard audio.failure == nil else { return nil }
      return Array(measured.prefix(count))
    }

    private func measureNext() {
      measured.append(meter.measure(audio.window(sample: measured.count).samples))
    }
  }
}
