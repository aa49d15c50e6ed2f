import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCommandLine
import LeamojiCore
import LeamojiTimeline

/// `leamoji analyze`: videos → per-second moods → markers merged into MovieData.json, with a
/// poster and optional subtitles beside it.
struct Analyze: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Analyse videos and merge their emoji timelines into MovieData.json.",
    discussion: """
      Samples one frame per second (--interval), labels it with the model, smooths the labels, \
      and writes one marker per scene change whose cue comes --seek-ahead seconds before the \
      scene. Entries of other videos in the file are kept; a video analysed again replaces its \
      own entry (keeping a title or description you edited, unless --title/--description is \
      given). Several videos are analysed --jobs at a time; a bad file is reported and the \
      others still finish.

      Examples:
        leamoji analyze SampleVideos/meadow-storm.mp4
        leamoji analyze movies/*.mp4 --jobs 2 --vtt --output site/MovieData.json
        leamoji analyze film.mkv --seek-ahead 3 --title "Forest Walk" --json
        leamoji analyze film.mkv --signals picture
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

  @Option(
    help: """
      The entry's id, exactly as given (default: a slug of the file name). The original iOS app \
      uses the video's file name without extension as its id.
      """)
  var id: String?

  @Option(help: "How many videos to analyse at once.")
  var jobs = 1

  @Option(
    help: ArgumentHelp(
      "How readily a second is called scary: low (scary from 70 %), normal (the model's tuned threshold, else the most probable label), high (from 30 %), or a probability. With a tuned threshold t, low and high are (1 + t) / 2 and t / 2.",
      valueName: "level"))
  var sensitivity = "normal"

  @Option(
    help: ArgumentHelp(
      "Which signals may call a second scary, comma-separated: picture (the model's p(scary)), sound (loudness relative to the film's own, with the picture), sudden (a steep rise of loudness with a sharp change of picture: a jump scare). picture alone does not decode the sound.",
      valueName: "list"))
  var signals = "picture,sound,sudden"

  @Option(
    help: ArgumentHelp(
      "The audio stream to listen to, counted from 0 among the file's audio streams (default: the first).",
      valueName: "n"))
  var audioStream: Int?

  @Flag(help: "Print each stored entry as one line of JSON instead of the summary.")
  var json = false

  @Flag(help: "Decode every frame, not only those needed (same result, slower).")
  var decodeAll = false

  @Flag(help: "Also say how each video was decoded (frames left out, or why none were).")
  var verbose = false

  func validate() throws {
    if videos.isEmpty { throw ValidationError("give at least one video") }
    guard seekAhead >= 0, seekAhead <= 3600, seekAhead.isFinite else {
      throw ValidationError("--seek-ahead must be 0 to 3600 seconds")
    }
    guard interval.isFinite, interval >= 0.04, interval <= 3600 else {
      throw ValidationError("--interval must be 0.04 to 3600 seconds")
    }
    guard jobs >= 1, jobs <= 64 else { throw ValidationError("--jobs must be 1 to 64") }
    guard AnalysisPlan.Sensitivity(parsing: sensitivity) != nil else {
      throw ValidationError(
        "--sensitivity takes low, normal, high or a probability between 0 and 1 (got '\(sensitivity)')"
      )
    }
    if Self.parseSignals(signals) == nil {
      throw ValidationError(
        "--signals takes picture, sound and sudden, comma-separated (got '\(signals)')")
    }
    if let audioStream, audioStream < 0 || audioStream > 255 {
      throw ValidationError("--audio-stream must be 0 to 255")
    }
    if videos.count > 1 && (title != nil || description != nil) {
      throw ValidationError("--title and --description apply to one video at a time")
    }
    if let id {
      if videos.count > 1 { throw ValidationError("--id applies to one video at a time") }
      if let problem = MovieID.problem(withExplicitID: id) {
        throw ValidationError("--id: \(problem)")
      }
    }
  }

  /// The signals of a `--signals` list; nil when a name is unknown or none is given.
  static func parseSignals(_ text: String) -> Set<Signal>? {
    let names = text.split(separator: ",").map { String($0.filter { $0 != " " }).lowercased() }
    let signals = names.compactMap(Signal.init(rawValue:))
    guard !names.isEmpty, signals.count == names.count else { return nil }
    return Set(signals)
  }

  func run() throws {
    let model = try modelOptions.load()
    var options = AnalysisPlan.Options()
    options.seekAhead = seekAhead
    options.interval = interval
    options.sensitivity = AnalysisPlan.Sensitivity(parsing: sensitivity) ?? .normal
    options.includeFrames = frames
    options.poster = poster
    options.vtt = vtt
    options.srt = srt
    options.title = title
    options.description = description
    options.decodeEverything = decodeAll
    options.signals = Self.parseSignals(signals) ?? Set(Signal.allCases)
    options.audioStream = audioStream
    options.threads = max(1, Classifier.defaultThreads / min(jobs, videos.count))
    let plan = try AnalysisPlan(model: model, output: output, options: options)

    let names = videos.map { PathText.lastComponent($0) }
    let ids = id.map { [$0] } ?? MovieID.ids(forFileNames: names)
    for (index, id) in ids.enumerated()
    where self.id == nil && id != MovieID.slug(fromFileName: names[index]) {
      Console.warning(
        "\(videos[index]): its id is taken by another video in this batch; stored as '\(id)'")
    }
    let progress = BatchProgress(enabled: Console.stderrIsTerminal)
    let failures = Locked<[CommandFailure]>([])
    let output = Locked(())
    JobPool.run(videos.count, workers: jobs) { index in
      let path = videos[index]
      do throws(LeamojiError) {
        let stored = try plan.analyze(path: path, id: ids[index]) { done, total in
          progress.update(ids[index], done: done, total: total)
        }
        progress.remove(ids[index])
        output.withValue { _ in
          progress.clear()
          report(stored, path: path)
        }
      } catch {
        progress.remove(ids[index])
        let failure = CommandFailure(error)
        output.withValue { _ in
          progress.clear()
          Console.error(failure.message)
        }
        failures.withValue { $0.append(failure) }
      }
    }
    progress.clear()
    if let first = failures.withValue({ $0.first }) {
      throw ExitCode(first.status.rawValue)
    }
  }

  /// The warnings and the summary (or JSON line) of one stored video.
  private func report(_ stored: AnalysisPlan.Stored, path: String) {
    if stored.replaced {
      Console.warning("\(path): replaced the existing entry '\(stored.movie.id)' in \(output)")
    }
    if stored.corruptPackets > 0 {
      var note = "\(path): skipped \(stored.corruptPackets) damaged packets"
      if stored.movie.duration - stored.picturesEnd > 1.5 * interval {
        note +=
          "; its pictures stop at \(secondsText(stored.picturesEnd)) of "
          + "\(secondsText(stored.movie.duration)) (cut short?)"
      }
      Console.warning(note)
    }
    if let note = stored.timelineNote { Console.warning(note) }
    if let soundNote = stored.soundNote { Console.warning(soundNote) }
    if verbose {
      Console.writeStderr(Console.safe("\(path): \(stored.decodingNote)") + "\n")
      Console.writeStderr(
        Console.safe("\(path): listened to \(stored.audioStream ?? "no sound")") + "\n")
    }
    if json {
      Console.printJSON(jsonText(stored.movie))
    } else {
      printSummary(stored.movie, path: path, labels: stored.labels)
    }
  }

  private func printSummary(_ movie: Movie, path: String, labels: [Label]) {
    var perLabel: [(label: Label, count: Int)] = []
    for label in labels {
      if let i = perLabel.firstIndex(where: { $0.label == label }) {
        perLabel[i].count += 1
      } else {
        perLabel.append((label, 1))
      }
    }
    let parts = perLabel.sorted { $0.label.name < $1.label.name }.map { label, count in
      "\(Console.safe(label.emoji)) \(Console.safe(label.name)) \(secondsText(Double(count) * interval))"
    }
    Console.print(
      "\(movie.id): \(secondsText(movie.duration)), \(movie.markers.count) marker\(movie.markers.count == 1 ? "" : "s") — \(parts.joined(separator: ", "))  (\(path))"
    )
    Console.printFormatted("  " + MoodStrip.render(labels, colour: Console.stdoutIsTerminal))
  }
}
