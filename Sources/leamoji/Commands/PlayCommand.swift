import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCommandLine
import LeamojiCore
import LeamojiPlayback
import LeamojiTimeline

/// `leamoji play`: the video in the terminal with its emoji timeline.
struct Play: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play a video in the terminal with its emoji timeline on screen.",
    discussion: """
      The picture is drawn with 24-bit colour half blocks. The current scene's emoji is shown in \
      a corner, and a heads-up line appears --seek-ahead seconds before each scene. A video \
      that is not in the timeline file yet is analysed first.

      Keys: space pause/resume, ← / → seek 5 s, q or Esc quit.

      Examples:
        leamoji play SampleVideos/meadow-storm.mp4
        leamoji play film.mkv --data site/MovieData.json --seek-ahead 3 --stats
      """
  )

  @Argument(help: "The video to play.", completion: .file())
  var video: String

  @Option(help: "The timeline file.", completion: .file(extensions: ["json"]))
  var data = MovieData.defaultFileName

  @Option(help: "Seconds a cue appears before its scene (default: as analysed).")
  var seekAhead: Double?

  @OptionGroup var modelOptions: ModelOptions

  @Option(help: "Canvas size as COLSxROWS (default: the window, following resizes).")
  var size: String?

  @Flag(help: "On exit, print frames shown, frames dropped and output bytes per frame.")
  var stats = false

  func validate() throws {
    if let seekAhead, !(seekAhead >= 0 && seekAhead <= 3600) {
      throw ValidationError("--seek-ahead must be 0 to 3600 seconds")
    }
    if let size, PixelSize(parsing: size) == nil {
      throw ValidationError("--size must look like 120x40 (columns x rows)")
    }
  }

  func run() throws {
    guard PlaybackSession.hasTerminal else {
      throw CommandFailure(
        "play needs a terminal (stdin and stdout); for the timeline as text use: "
          + "leamoji timeline \(video)", status: .usage)
    }
    let session = try PlaybackSession(video: video)
    let movie = try timelineEntry()
    let report = try session.play(
      movie: movie, seekAhead: seekAhead, fixedSize: size.flatMap(PixelSize.init(parsing:)))
    if stats {
      Console.print(
        "frames shown \(report.framesShown), dropped \(report.framesDropped), "
          + "\(report.bytesPerFrame) output bytes per frame on average")
    }
    if let signal = report.terminationSignal {
      throw ExitCode(128 + signal)
    }
  }

  /// The video's entry in the timeline file, analysing the video first when it has none.
  private func timelineEntry() throws -> Movie {
    let movies: [Movie]
    do {
      movies = try MovieStore(path: data).read()
    } catch {
      throw CommandFailure(error)
    }
    for candidate in MovieID.candidates(forVideo: video).dropFirst() {
      guard let movie = movies.first(where: { $0.id == candidate }) else { continue }
      if let ambiguity = MovieData.ambiguity(of: candidate, ids: movies.map(\.id), path: data) {
        throw CommandFailure(ambiguity.description, status: .badInput)
      }
      return movie
    }
    let id = MovieID.slug(fromFileName: PathText.lastComponent(video))
    Console.writeStderr(
      "\(Console.safe(video)) is not in \(Console.safe(data)) yet: analysing it first\n")
    let model = try modelOptions.load()
    var options = AnalysisPlan.Options()
    options.seekAhead = seekAhead ?? 5
    let plan = try AnalysisPlan(
      model: model, output: data, options: options, idsInFile: movies.map(\.id))
    let progress = BatchProgress(enabled: Console.stderrIsTerminal)
    let stored = try plan.analyze(path: video, id: id) { done, total in
      progress.update(id, done: done, total: total)
    }
    progress.clear()
    return stored.movie
  }
}
