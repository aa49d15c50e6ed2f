import ArgumentParser
import Foundation
import LeamojiClassifier
import LeamojiCore
import LeamojiTerminal
import LeamojiTimeline
import LeamojiVideo

/// `leamoji play`: the video in the terminal with its emoji timeline.
struct Play: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Play a video in the terminal with its emoji timeline on screen.",
    discussion: """
      The picture is drawn with 24-bit colour half blocks. The current scene's emoji is shown in
      a corner, and a heads-up line appears --seek-ahead seconds before each scene. A video
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
    if let seekAhead, !(seekAhead >= 0 && seekAhead <= 3600) { throw ValidationError("--seek-ahead must be 0 to 3600 seconds") }
    if let size, PixelSize(parsing: size) == nil { throw ValidationError("--size must look like 120x40 (columns x rows)") }
  }

  func run() throws {
    guard TerminalSession.isTerminal() else {
      throw CommandFailure(
        "play needs a terminal (stdin and stdout); for the timeline as text use: leamoji timeline \(video)", status: .usage)
    }
    let playback: VideoPlayback
    do {
      playback = try VideoPlayback(path: video)
    } catch {
      throw CommandFailure(error)
    }
    var movie = try timelineEntry()
    if let seekAhead {
      movie.markers = movie.markers.map { marker in
        var m = marker
        m.cueAt = max(0, m.second - seekAhead)
        return m
      }
    }
    let session: TerminalSession
    do {
      session = try TerminalSession()
    } catch {
      throw CommandFailure("\(video): cannot use the terminal (\(error))", status: .failure)
    }
    defer { session.restore() }
    var player = TerminalPlayer(
      playback: playback, session: session, overlay: PlayerOverlay(markers: movie.markers, duration: movie.duration, title: movie.title),
      fixedSize: size.flatMap(PixelSize.init(parsing:)))
    let outcome = player.run()
    session.restore()
    if case .failed(let message) = outcome {
      throw CommandFailure("\(video): \(message)", status: .failure)
    }
    if stats {
      let shown = player.pacer.framesShown
      let perFrame = shown == 0 ? 0 : session.output.bytesWritten / max(1, session.output.buffersWritten)
      Console.print("frames shown \(shown), dropped \(player.pacer.framesDropped), \(perFrame) output bytes per frame on average")
    }
    if let signal = session.terminationSignal {
      throw ExitCode(128 + signal)
    }
  }

  /// The video's entry in the timeline file, analysing the video first when it has none.
  private func timelineEntry() throws -> Movie {
    let store = MovieStore(path: data)
    let movies: [Movie]
    do {
      movies = try store.read()
    } catch {
      throw CommandFailure(error.description, status: .badInput)
    }
    let id = MovieID.slug(fromFileName: (video as NSString).lastPathComponent)
    if let movie = movies.first(where: { $0.id == id }) { return movie }
    Console.writeStderr("\(Console.safe(video)) is not in \(Console.safe(data)) yet: analysing it first\n")
    let (classifier, modelPath) = try modelOptions.load()
    let modelBytes = (try? Data(contentsOf: URL(fileURLWithPath: modelPath))).map { [UInt8]($0) } ?? []
    let plan = AnalysisPlan(
      classifier: classifier, modelInfo: ModelInfo(labels: classifier.labelNames, sha256: SHA256.hex(modelBytes)),
      store: store,
      folder: (data as NSString).deletingLastPathComponent, seekAhead: seekAhead ?? 5, interval: 1, includeFrames: false,
      poster: true, vtt: false, srt: false, title: nil, description: nil, threads: Classifier.defaultThreads)
    let progress = BatchProgress(enabled: Console.stderrIsTerminal)
    let stored = try plan.analyze(path: video, id: id) { done, total in progress.update(id, done: done, total: total) }
    progress.clear()
    return stored.movie
  }
}
