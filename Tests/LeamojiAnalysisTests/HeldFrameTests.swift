import Foundation
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTestSupport
import LeamojiTimeline
import LeamojiVideo
import Testing

/// A sample showing the frame of the sample before it takes that sample's prediction instead
/// of being classified again (issue 37): the scores stay bit for bit what classifying every
/// sample gives, and the classifier sees each held frame once.
@Suite("VideoAnalysis: a held frame is classified once")
struct HeldFrameTests {
  static let smallCNN = Result { try Classifier.untrained(labelNames: ["a", "b", "c"], seed: 3) }

  /// The scores of every sample of `path` classified one by one, as before frames were reused.
  static func scoresClassifyingEverySample(
    _ path: String, classifier: Classifier, interval: Double = 1
  ) throws -> [SecondScore] {
    let sampler = try FrameSampler(path: path, interval: interval, size: classifier.inputSize)
    var scores: [SecondScore] = []
    while let sample = try sampler.next() {
      let prediction = try #require(try classifier.classify([sample.image], threads: 1).first)
      scores.append(SecondScore(second: sample.time, probabilities: prediction.probabilities))
    }
    return scores
  }

  static func analyse(
    _ path: String, classifier: Classifier, batching: VideoAnalysis.Batching, interval: Double = 1
  ) throws -> VideoAnalysis {
    try VideoAnalysis.run(
      path: path, classifier: classifier, interval: interval, batching: batching, poster: true,
      decodeEverything: false, progress: { _, _ in })
  }

  @Test(
    "a slideshow's 120 samples need 6 classifications and score as before",
    arguments: [(false, 1, 2), (false, 7, 1), (true, 32, 1), (true, 5, 1)])
  func slideshow(smallNetwork: Bool, batch: Int, threads: Int) throws {
    let classifier = smallNetwork ? try Self.smallCNN.get() : Repository.shippedClassifier
    let path = try DamagedTimestamps.slideshow.url.path
    let analysis = try Self.analyse(
      path, classifier: classifier, batching: .init(size: batch, threads: threads))
    #expect(analysis.scores.count == 120)
    #expect(analysis.classifiedSamples == 6, "one per picture of the slideshow")
    #expect(
      analysis.scores == (try Self.scoresClassifyingEverySample(path, classifier: classifier)),
      "bit for bit the scores of classifying every sample")
    #expect(analysis.poster != nil)
  }

  @Test("a video whose every sample shows a new frame classifies every sample")
  func noHolds() throws {
    let classifier = try Self.smallCNN.get()
    let path = Repository.sampleVideo("night-walk")
    let analysis = try Self.analyse(
      path, classifier: classifier, batching: .init(size: 5, threads: 1), interval: 2)
    #expect(analysis.scores.count == 12 && analysis.classifiedSamples == 12)
    #expect(
      analysis.scores
        == (try Self.scoresClassifyingEverySample(path, classifier: classifier, interval: 2)))
  }

  @Test("a damaged file's bound reaches the analysis: one classification for its held minute")
  func boundReported() throws {
    let classifier = try Self.smallCNN.get()
    let url = try DamagedTimestamps.slowRate.url
    let analysis = try Self.analyse(
      url.path, classifier: classifier, batching: .init(size: 32, threads: 1))
    #expect(analysis.scores.count == 60 && analysis.classifiedSamples == 1)
    let bound = try #require(analysis.timelineBound)
    #expect(bound.end == 60 && bound.note.hasPrefix(url.path + ": "))
  }
}
