import FoundationEssentials
import LeamojiClassifier
import LeamojiCore
import LeamojiTimeline
import LeamojiVideo

/// One video's pass: sample every `interval` seconds at the model's input size, classify the
/// samples in batches, and keep the best poster candidate. Streams the video: memory holds one
/// batch of samples, never the whole film.
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

    /// The batching for `classifier` when `threads` are free for one video. Batches come while
    /// the decoder's frame threads keep every core busy: a small network's batch of 32 samples
    /// takes a few milliseconds on the calling thread (a second thread would cost a network
    /// workspace, a worker thread and its allocation arena, about 4 MB of peak memory, for no
    /// time saved). A network that splits one image over threads (a pretrained backbone, 20
    /// times the work per image) takes one sample at a time on all `threads`: as fast per
    /// image, and a batch of 32 would hold about 34 MB more of activations.
    public init(classifier: Classifier, threads: Int) {
      if classifier.splitsOneImage {
        self.init(size: 1, threads: max(1, threads))
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
  ///   - progress: called with (samples analysed, expected total or nil).
  /// - Throws: `LeamojiError` for a video that cannot be opened or decoded.
  public static func run(
    path: String, classifier: Classifier, interval: Double, batching: Batching, poster: Bool,
    decodeEverything: Bool, progress: (Int, Int?) -> Void
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
    var scores: [SecondScore] = []
    var picker = PosterPicker()
    var pending: [SampledFrame] = []
    var classified = 0
    // The last sample's frame and prediction, for the samples that hold it.
    var previous: (presentationTime: Double, image: RGBImage, prediction: Prediction)? = nil

    func classifyPending() throws(LeamojiError) {
      guard !pending.isEmpty else { return }
      // A sample showing the frame of the one before it (the same time and picture: the
      // sampler hands a held frame's one converted image again) takes that sample's prediction;
      // the network is deterministic, so classifying it again would give the same scores.
      var held: [Bool] = []
      var last = previous.map { ($0.presentationTime, $0.image) }
      for sample in pending {
        held.append(last.map { $0.0 == sample.presentationTime && $0.1 == sample.image } ?? false)
        last = (sample.presentationTime, sample.image)
      }
      let images = zip(pending, held).filter { !$0.1 }.map(\.0.image)
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
      for (sample, isHeld) in zip(pending, held) {
        guard let prediction = isHeld ? previous?.prediction : fresh.next() else { break }
        previous = (sample.presentationTime, sample.image, prediction)
        scores.append(SecondScore(second: sample.time, probabilities: prediction.probabilities))
        let confidence = Double(prediction.confidence)
        if let preview = sample.preview, picker.couldChoose(confidence: confidence) {
          picker.consider(time: sample.time, image: preview, confidence: confidence)
        }
      }
      pending.removeAll(keepingCapacity: true)
      progress(scores.count, expected)
    }

    while true {
      let sample: SampledFrame?
      do {
        sample = try sampler.next()
      } catch {
        throw LeamojiError(error)
      }
      guard let sample else { break }
      pending.append(sample)
      if pending.count == batching.size { try classifyPending() }
    }
    try classifyPending()
    return VideoAnalysis(
      info: sampler.info, scores: scores, poster: picker.choice?.image,
      corruptPackets: sampler.corruptPacketCount, decodingNote: sampler.decoding.description,
      timelineBound: sampler.timelineBound, classifiedSamples: classified)
  }
}
