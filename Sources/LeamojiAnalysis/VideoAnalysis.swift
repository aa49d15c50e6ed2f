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
  /// Samples classified together.
  public static let batchSize = 32
  /// Samples classified together when a poster is chosen: one, because the poster picker wants
  /// a sample's preview only when its confidence could make it the poster (`couldChoose`), and
  /// the sampler makes that preview from the picture it still holds, before decoding on (a
  /// batch's predictions do not depend on its size; one sample classifies as fast per image).
  /// Making every sample's preview cost about 0.2 CPU seconds a minute of 1080p film.
  public static let posterBatchSize = 1
  /// Threads a video's batches are classified on (see `run`'s `threads`), unless the network
  /// splits one image over threads (`Classifier.splitsOneImage`).
  static let classifyingThreads = 1

  public let info: VideoInfo
  /// One score per sample, in time order.
  public let scores: [SecondScore]
  /// The poster frame, when one was asked for and any sample was decoded.
  public let poster: RGBImage?
  /// Damaged packets skipped while decoding.
  public let corruptPackets: Int
  /// How the video was decoded: frames left out, or why every frame was decoded (`--verbose`).
  public let decodingNote: String

  /// Analyses the video at `path`.
  /// - Parameters:
  ///   - decodeEverything: decode every frame rather than only those the samples need (the
  ///     same result, slower).
  ///   - threads: the most threads for classifying a batch. Batches are small (4 or 32
  ///     samples, a few milliseconds) and come while the decoder's frame threads keep every core
  ///     busy, so they are classified on the calling thread: a second thread would cost a
  ///     network workspace, a worker thread and its allocation arena (about 4 MB of peak memory)
  ///     for no time saved. A network that splits one image over threads (a pretrained
  ///     backbone, 20 times the work per image) gets them all: its image is computed on every
  ///     core while the decoder waits for it.
  ///   - progress: called with (samples analysed, expected total or nil).
  /// - Throws: `LeamojiError` for a video that cannot be opened or decoded.
  public static func run(
    path: String, classifier: Classifier, interval: Double, threads: Int, wantPoster: Bool,
    decodeEverything: Bool = false, progress: (Int, Int?) -> Void
  ) throws(LeamojiError) -> VideoAnalysis {
    let sampler: FrameSampler
    do {
      sampler = try FrameSampler(
        path: path, interval: interval,
        size: classifier.inputSize,
        previewWidth: wantPoster ? posterWidth : nil, previewsOnRequest: wantPoster,
        decodeEverything: decodeEverything)
    } catch {
      throw LeamojiError(error)
    }
    let expected = sampler.expectedSampleCount
    var scores: [SecondScore] = []
    var picker = PosterPicker()
    var pending: [SampledFrame] = []

    func classifyPending() throws {
      guard !pending.isEmpty else { return }
      let predictions = try classifier.classify(
        pending.map(\.image),
        threads: classifier.splitsOneImage ? threads : min(threads, classifyingThreads))
      for (sample, prediction) in zip(pending, predictions) {
        scores.append(SecondScore(second: sample.time, probabilities: prediction.probabilities))
        // Batches of one when a poster is wanted: the sampler still holds this sample's picture.
        let confidence = Double(prediction.confidence)
        if wantPoster, picker.couldChoose(confidence: confidence),
          let preview = try sampler.previewOfLatestSample()
        {
          picker.consider(time: sample.time, image: preview, confidence: confidence)
        }
      }
      pending.removeAll(keepingCapacity: true)
      progress(scores.count, expected)
    }

    do {
      while let sample = try sampler.next() {
        pending.append(sample)
        if pending.count == (wantPoster ? posterBatchSize : batchSize) { try classifyPending() }
      }
      try classifyPending()
    } catch {
      throw LeamojiError.from(error, context: path)
    }
    return VideoAnalysis(
      info: sampler.info, scores: scores, poster: picker.choice?.image,
      corruptPackets: sampler.corruptPacketCount, decodingNote: sampler.decoding.description)
  }
}
