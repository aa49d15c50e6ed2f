import Foundation
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTestSupport
import LeamojiTimeline
import LeamojiVideo
import Testing

@Suite("VideoAnalysis: sampling, batched classification and the poster pick")
struct VideoAnalysisTests {
  static let video = Repository.sampleVideo("night-walk")

  static func run(
    _ path: String = video, interval: Double, poster: Bool,
    batching: VideoAnalysis.Batching = .init(classifier: Repository.shippedClassifier, threads: 2),
    progress: (Int, Int?) -> Void = { _, _ in }
  ) throws -> VideoAnalysis {
    try VideoAnalysis.run(
      path: path, classifier: Repository.shippedClassifier, interval: interval,
      batching: batching, poster: poster, decodeEverything: false, progress: progress)
  }

  @Test("every 2 s of a 24 s video: 12 scores at 0, 2, … 22 s, one probability per label")
  func scoresAtInterval() throws {
    let analysis = try Self.run(interval: 2, poster: false)
    #expect(analysis.info.duration == 24)
    #expect(analysis.scores.map(\.second) == stride(from: 0.0, to: 24, by: 2).map { $0 })
    let labels = Repository.shippedClassifier.labels.count
    for score in analysis.scores {
      #expect(score.probabilities.count == labels)
      #expect(abs(score.probabilities.reduce(0, +) - 1) < 1e-3, "\(score.second) s")
    }
    #expect(analysis.poster == nil, "no poster unless asked")
    #expect(analysis.corruptPackets == 0)
  }

  @Test("the scores follow the truth at clearly labelled seconds")
  func scoresFollowTruth() throws {
    let truth = try SampleTruth.of("night-walk")
    let analysis = try Self.run(interval: 2, poster: false)
    let names = Repository.shippedClassifier.labelNames
    let checked = analysis.scores.filter { truth.clearSeconds().contains(Int($0.second)) }
    #expect(Set(checked.map { truth.labels[Int($0.second)] }).count == 3, "every mood checked")
    // The model's own rule before smoothing: scary from its card's tuned threshold, else the
    // most probable label.
    let threshold = Repository.shippedClassifier.card.scaryThreshold
    let scary = names.firstIndex(of: "scary")
    for score in checked {
      var best = score.probabilities.indices.max {
        score.probabilities[$0] < score.probabilities[$1]
      }
      if let threshold, let scary, score.probabilities[scary] >= Float(threshold) { best = scary }
      #expect(best.map { names[$0] } == truth.labels[Int(score.second)], "\(score.second) s")
    }
  }

  @Test("a poster is picked when asked: one of the samples, poster-wide, display aspect")
  func posterWhenAsked() throws {
    let analysis = try Self.run(interval: 4, poster: true)
    let poster = try #require(analysis.poster)
    #expect(poster.width == VideoAnalysis.posterWidth)
    #expect(abs(poster.height - VideoAnalysis.posterWidth * 360 / 640) <= 2)
    #expect(analysis.scores.count == 6)
    #expect(Set(poster.pixels).count > 1, "a picture, not a blank")
  }

  @Test("the batch size changes neither the scores nor the poster")
  func batchSizeFree() throws {
    let one = try Self.run(interval: 2, poster: true, batching: .init(size: 1, threads: 2))
    let five = try Self.run(interval: 2, poster: true, batching: .init(size: 5, threads: 1))
    #expect(one.scores == five.scores)
    #expect(one.poster != nil && one.poster == five.poster)
  }

  @Test("a backbone takes one sample at a time on half the threads; a small network 32 on one")
  func batchingByNetwork() throws {
    let shipped = Repository.shippedClassifier
    // The other half is the decoder's, which runs on its own thread meanwhile.
    #expect(VideoAnalysis.Batching(classifier: shipped, threads: 4) == .init(size: 1, threads: 2))
    #expect(VideoAnalysis.Batching(classifier: shipped, threads: 3) == .init(size: 1, threads: 1))
    #expect(VideoAnalysis.Batching(classifier: shipped, threads: 1) == .init(size: 1, threads: 1))
    let small = try Classifier.untrained(labelNames: ["a", "b"], seed: 1)
    #expect(VideoAnalysis.Batching(classifier: small, threads: 3) == .init(size: 32, threads: 1))
  }

  @Test("progress counts batches up to the expected total", arguments: [2.0, 0.5])
  func progressReachesTotal(interval: Double) throws {
    var reports: [(done: Int, total: Int?)] = []
    let batching = VideoAnalysis.Batching(size: 5, threads: 2)
    let analysis = try Self.run(interval: interval, poster: false, batching: batching) {
      reports.append(($0, $1))
    }
    let total = Int(24 / interval)
    #expect(analysis.scores.count == total)
    #expect(reports.allSatisfy { $0.total == total })
    #expect(reports.last?.done == total)
    let counts = reports.map(\.done)
    #expect(counts == counts.sorted() && Set(counts).count == counts.count, "counting up")
    #expect(counts.allSatisfy { $0 > 0 && $0 <= total })
    // A report after each full batch and one for the rest.
    let batches = (total + batching.size - 1) / batching.size
    #expect(counts.count == batches)
  }

  @Test("a missing video is no input, a text file bad input, each naming the file")
  func unusableVideos() throws {
    let folder = try ScratchFolder.url("analysis-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("none.mp4").path
    let text = folder.appendingPathComponent("text.mp4")
    try Data("hello\n".utf8).write(to: text)
    for (path, kind) in [(missing, ProblemKind.noInput), (text.path, .badInput)] {
      var reports = 0
      #expect {
        _ = try Self.run(path, interval: 1, poster: true) { _, _ in reports += 1 }
      } throws: { error in
        let problem = error as? LeamojiError
        return problem?.kind == kind && problem?.message.hasPrefix(path + ": ") == true
      }
      #expect(reports == 0)
    }
  }
}
