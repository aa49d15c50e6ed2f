import ArgumentParser
import Dispatch
import Foundation
import LeamojiClassifier
import LeamojiCore
import LeamojiTimeline
import LeamojiVideo

/// `leamoji analyze`: videos → per-second moods → markers merged into MovieData.json, with a
/// poster and optional subtitles beside it.
struct Analyze: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Analyse videos and merge their emoji timelines into MovieData.json.",
    discussion: """
      Samples one frame per second (--interval), labels it with the model, smooths the labels,
      and writes one marker per scene change whose cue comes --seek-ahead seconds before the
      scene. Entries of other videos in the file are kept; a video analysed again replaces its
      own entry (keeping a title or description you edited, unless --title/--description is
      given). Several videos are analysed --jobs at a time; a bad file is reported and the
      others still finish.

      Examples:
        leamoji analyze SampleVideos/meadow-storm.mp4
        leamoji analyze movies/*.mp4 --jobs 2 --vtt --output site/MovieData.json
        leamoji analyze film.mkv --seek-ahead 3 --title "Forest Walk" --json
      """
  )

  @Argument(help: "Videos to analyse.", completion: .file())
  var videos: [String]

  @Option(help: "The timeline file to merge into.", completion: .file(extensions: ["json"]))
  var output = MovieData.defaultFileName

  @OptionGroup var modelOptions: ModelOptions

  @Option(help: "Seconds a cue appears before its scene (0: at the scene).")
  var seekAhead: Double = 5

  @Option(help: "Seconds between sampled frames.")
  var interval: Double = 1

  @Flag(help: "Include every sample's label and probabilities in the entry.")
  var frames = false

  @Flag(inversion: .prefixedNo, help: "Write a poster image <id>.jpg beside the timeline file.")
  var poster = true

  @Flag(help: "Write WebVTT subtitles <id>.vtt beside the timeline file.")
  var vtt = false

  @Flag(help: "Write SRT subtitles <id>.srt beside the timeline file.")
  var srt = false

  @Option(help: "Title of the entry (default: the video's title metadata, else its id).")
  var title: String?

  @Option(help: "Description of the entry (default: the video's comment metadata).")
  var description: String?

  @Option(help: "How many videos to analyse at once.")
  var jobs = 1

  @Flag(help: "Print each stored entry as one line of JSON instead of the summary.")
  var json = false

  func validate() throws {
    if videos.isEmpty { throw ValidationError("give at least one video") }
    guard seekAhead >= 0, seekAhead <= 3600, seekAhead.isFinite else { throw ValidationError("--seek-ahead must be 0 to 3600 seconds") }
    guard interval.isFinite, interval >= 0.04, interval <= 3600 else { throw ValidationError("--interval must be 0.04 to 3600 seconds") }
    guard jobs >= 1, jobs <= 64 else { throw ValidationError("--jobs must be 1 to 64") }
    if videos.count > 1 && (title != nil || description != nil) {
      throw ValidationError("--title and --description apply to one video at a time")
    }
  }

  func run() throws {
    let (classifier, modelPath) = try modelOptions.load()
    let modelBytes = (try? Data(contentsOf: URL(fileURLWithPath: modelPath))).map { [UInt8]($0) } ?? []
    let modelInfo = ModelInfo(labels: classifier.labelNames, sha256: SHA256.hex(modelBytes))
    let folder = (output as NSString).deletingLastPathComponent
    try Self.createFolder(folder, for: output)
    let store = MovieStore(path: output)
    // Fail before any work when the existing file is malformed (it is never overwritten).
    do {
      _ = try store.read()
    } catch {
      throw CommandFailure(error.description, status: .badInput)
    }

    let ids = MovieID.ids(forFileNames: videos.map { ($0 as NSString).lastPathComponent })
    for (index, id) in ids.enumerated() where id != MovieID.slug(fromFileName: (videos[index] as NSString).lastPathComponent) {
      Console.warning("\(videos[index]): its id is taken by another video in this batch; stored as '\(id)'")
    }
    let plan = AnalysisPlan(
      classifier: classifier, modelInfo: modelInfo, store: store, folder: folder, seekAhead: seekAhead, interval: interval,
      includeFrames: frames, poster: poster, vtt: vtt, srt: srt, title: title, description: description,
      threads: max(1, Classifier.defaultThreads / min(jobs, videos.count)))
    let progress = BatchProgress(enabled: Console.stderrIsTerminal)
    let next = Locked(0)
    let failures = Locked<[CommandFailure]>([])
    let output = Locked(())
    DispatchQueue.concurrentPerform(iterations: min(jobs, videos.count)) { _ in
      while let index = next.withValue({ n -> Int? in
        guard n < videos.count else { return nil }
        n += 1
        return n - 1
      }) {
        let path = videos[index]
        do {
          let stored = try plan.analyze(path: path, id: ids[index]) { done, total in
            progress.update(ids[index], done: done, total: total)
          }
          progress.remove(ids[index])
          output.withValue { _ in
            progress.clear()
            if let replaced = stored.replaced, replaced {
              Console.warning("\(path): replaced the existing entry '\(stored.movie.id)' in \(self.output)")
            }
            if stored.corruptPackets > 0 {
              var note = "\(path): skipped \(stored.corruptPackets) damaged packets"
              if stored.movie.duration - stored.picturesEnd > 1.5 * interval {
                note += "; its pictures stop at \(secondsText(stored.picturesEnd)) of \(secondsText(stored.movie.duration)) (cut short?)"
              }
              Console.warning(note)
            }
            if json {
              Console.printJSON(jsonText(stored.movie))
            } else {
              printSummary(stored.movie, path: path, labels: stored.labels)
            }
          }
        } catch {
          progress.remove(ids[index])
          let failure = (error as? CommandFailure) ?? CommandFailure("\(path): \(error)", status: .failure)
          output.withValue { _ in
            progress.clear()
            Console.error(failure.message)
          }
          failures.withValue { $0.append(failure) }
        }
      }
    }
    progress.clear()
    if let first = failures.withValue({ $0.first }) {
      throw ExitCode(first.status.rawValue)
    }
  }

  /// Makes the timeline file's folder when it does not exist yet, so posters and subtitles
  /// have somewhere to go.
  private static func createFolder(_ folder: String, for output: String) throws {
    guard !folder.isEmpty else { return }
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
      if !isDirectory.boolValue { throw CommandFailure("\(output): cannot write (\(folder) is not a folder)", status: .cannotWrite) }
      return
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw CommandFailure("\(output): cannot create its folder \(folder)", status: .cannotWrite)
    }
  }

  private func printSummary(_ movie: Movie, path: String, labels: [String]) {
    var perLabel: [(String, Int)] = []
    for label in labels {
      if let i = perLabel.firstIndex(where: { $0.0 == label }) { perLabel[i].1 += 1 } else { perLabel.append((label, 1)) }
    }
    let emoji = Dictionary(movie.markers.map { ($0.label, $0.emoji) }, uniquingKeysWith: { a, _ in a })
    let parts = perLabel.sorted { $0.0 < $1.0 }.map { label, count in
      "\(Console.safe(emoji[label] ?? Label.unknownEmoji)) \(Console.safe(label)) \(secondsText(Double(count) * interval))"
    }
    Console.print("\(movie.id): \(secondsText(movie.duration)), \(movie.markers.count) marker\(movie.markers.count == 1 ? "" : "s") — \(parts.joined(separator: ", "))  (\(path))")
    Console.printFormatted("  " + MoodStrip.render(labels, colour: Console.stdoutIsTerminal))
  }
}

/// "30 s", "2.5 s", "1 min 5 s".
func secondsText(_ seconds: Double) -> String {
  if seconds >= 60 {
    let whole = Int(seconds.rounded())
    return "\(whole / 60) min \(whole % 60) s"
  }
  return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
}
