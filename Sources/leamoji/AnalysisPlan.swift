import Foundation
import LeamojiClassifier
import LeamojiCore
import LeamojiTimeline
import LeamojiVideo

/// Everything `analyze` decided once for a batch, and the per-video steps: analyse, write the
/// poster, merge the entry, write subtitles. Shared read-only by the jobs.
struct AnalysisPlan: Sendable {
  let classifier: Classifier
  let modelInfo: ModelInfo
  let store: MovieStore
  let folder: String
  let seekAhead: Double
  let interval: Double
  let includeFrames: Bool
  let poster: Bool
  let vtt: Bool
  let srt: Bool
  let title: String?
  let description: String?
  let threads: Int

  struct Stored {
    let movie: Movie
    let labels: [String]
    let replaced: Bool?
    let corruptPackets: Int
    /// Where the last sampled picture's second ends; before `movie.duration` when a damaged or
    /// cut file stops early.
    let picturesEnd: Double
  }

  /// Analyses one video and stores its entry; returns the entry as stored.
  func analyze(path: String, id: String, progress: (Int, Int?) -> Void) throws -> Stored {
    let analysis = try VideoAnalysis.run(
      path: path, classifier: classifier, interval: interval, threads: threads, wantPoster: poster, progress: progress)
    let encoder = MarkerEncoder(labels: classifier.labels, seekAhead: seekAhead)
    let timeline = encoder.encode(analysis.scores)
    let duration = analysis.info.duration ?? Double(analysis.scores.count) * interval

    var posterName: String? = nil
    if poster, let image = analysis.poster {
      posterName = "\(id).jpg"
      try write(try encodeJPEG(image), name: posterName!)
    }
    let movie = Movie(
      id: id, title: title ?? analysis.info.title ?? id, description: description ?? analysis.info.comment ?? "",
      duration: (duration * 1000).rounded() / 1000, markers: timeline.markers, model: modelInfo, poster: posterName,
      seekAhead: seekAhead, frames: includeFrames ? timeline.frames : nil)
    let result: MergeResult
    do {
      result = try store.merge([MovieUpdate(movie: movie, titleGiven: title != nil, descriptionGiven: description != nil)])
    } catch {
      throw CommandFailure(error.description, status: .cannotWrite)
    }
    let stored = result.movies.first { $0.id == id } ?? movie
    if vtt { try write(Array(Subtitles.webVTT(markers: stored.markers, duration: stored.duration).utf8), name: "\(id).vtt") }
    if srt { try write(Array(Subtitles.srt(markers: stored.markers, duration: stored.duration).utf8), name: "\(id).srt") }
    return Stored(
      movie: stored, labels: timeline.labels, replaced: result.replacedIDs.contains(id),
      corruptPackets: analysis.corruptPackets,
      picturesEnd: (analysis.scores.last?.second ?? -interval) + interval)
  }

  private func encodeJPEG(_ image: RGBImage) throws -> [UInt8] {
    do {
      return try ImageCodec.encodeJPEG(image, quality: 88)
    } catch {
      throw CommandFailure(error)
    }
  }

  private func write(_ bytes: [UInt8], name: String) throws {
    let path = folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
    do {
      try DurableFile(path).write(bytes)
    } catch {
      throw CommandFailure(error)
    }
  }
}

/// One status line for all running jobs: `id 12/30 s · id 5/24 s`.
final class BatchProgress: @unchecked Sendable {
  private let lock = NSLock()
  private let enabled: Bool
  private var jobs: [(id: String, done: Int, total: Int?)] = []
  private var lastDraw = Date.distantPast

  init(enabled: Bool) { self.enabled = enabled }

  func update(_ id: String, done: Int, total: Int?) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    if let i = jobs.firstIndex(where: { $0.id == id }) { jobs[i] = (id, done, total) } else { jobs.append((id, done, total)) }
    let now = Date()
    guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = now
    let parts = jobs.map { job -> String in
      let name = Console.safe(job.id)
      guard let total = job.total, total > 0 else { return "\(name) \(job.done) s" }
      let filled = min(20, job.done * 20 / total)
      return "\(name) [" + String(repeating: "#", count: filled) + String(repeating: "-", count: 20 - filled) + "] \(job.done)/\(total) s"
    }
    Console.writeStderr("\r\u{1B}[2K" + parts.joined(separator: "  "))
  }

  func remove(_ id: String) {
    lock.lock()
    jobs.removeAll { $0.id == id }
    lock.unlock()
  }

  func clear() {
    guard enabled else { return }
    Console.writeStderr("\r\u{1B}[2K")
  }
}
