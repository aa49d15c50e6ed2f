import ArgumentParser
import FoundationEssentials
import LeamojiCommandLine
import LeamojiCore
import LeamojiTimeline

/// `leamoji timeline`: an analysed video's markers as text, without playing it.
struct Timeline: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the emoji timeline of an analysed video.",
    discussion: """
      Give the video file or its id in the timeline file. Each marker shows when its scene \
      starts, when the cue appears (seek-ahead), the emoji, the label and the confidence; for \
      a video analysed with its sound, what fired a scary scene (picture, sound 👂, sudden ⚡) \
      and every sudden scare. Then the film's heads-up: the scary scenes, the scary time in \
      all, the first and the longest scene, the strongest moment and what fired it, and a \
      level from 0 to 5 (docs/heads-up.md). Level 0 means the model found no scary scene, not \
      that the film is safe. A timeline made by another model than the one in use (--model) \
      says so.

      Examples:
        leamoji timeline SampleVideos/meadow-storm.mp4
        leamoji timeline meadow-storm --data site/MovieData.json
      """
  )

  @Argument(help: "A video file, or the id of an entry.", completion: .file())
  var video: String

  @Option(help: "The timeline file.", completion: .file(extensions: ["json"]))
  var data = MovieData.defaultFileName

  @Flag(help: "Print the entry as one line of JSON (with its heads-up as \"headsUp\").")
  var json = false

  @OptionGroup var modelOptions: ModelOptions

  func run() throws {
    let entries: [CatalogueEntry]
    do {
      entries = try MovieStore(path: data).readCatalogue()
    } catch {
      throw CommandFailure(error)
    }
    let movies = entries.map(\.movie)
    let ids = Set(movies.map(\.id))
    let id =
      MovieID.candidates(forVideo: video).first { ids.contains($0) }
      ?? MovieID.slug(fromFileName: PathText.lastComponent(video))
    guard let entry = entries.first(where: { $0.movie.id == id }) else {
      throw CommandFailure(
        "\(video): not analysed yet (no entry '\(id)' in \(data)); run: leamoji analyze \(video)"
          + (data == MovieData.defaultFileName ? "" : " --output \(data)"),
        status: .noInput)
    }
    if let ambiguity = MovieData.ambiguity(of: id, ids: movies.map(\.id), path: data) {
      throw CommandFailure(ambiguity.description, status: .badInput)
    }
    let movie = entry.movie
    let headsUp = FilmHeadsUp(entry: entry, current: try modelOptions.identity())
    if json {
      Console.printJSON(jsonText(TimelineJSON(movie: movie, headsUp: headsUp)))
      return
    }
    for problem in entry.problems {
      Console.warning("\(data): entry '\(movie.id)': unreadable \(problem)")
    }
    let duration = entry.duration.map(secondsText) ?? "duration unknown"
    Console.print(
      "\(movie.title) (\(movie.id)): \(duration), cues \(secondsText(movie.seekAhead)) ahead")
    for (i, marker) in movie.markers.enumerated() {
      let last = i + 1 == movie.markers.count
      let end =
        last && entry.duration == nil
        ? "…" : clock(last ? movie.duration : movie.markers[i + 1].second)
      let confidence = CFormat.string("%.0f%%", Double(marker.confidence) * 100)
      let why = marker.firedByText.map { ", \($0) \(marker.badges)" } ?? ""
      Console.print(
        "  \(clock(marker.second)) – \(end)  cue at \(clock(marker.cueAt))"
          + "  \(marker.emoji) \(marker.label) (\(confidence)\(why))")
    }
    for event in movie.events ?? [] where event.kind == TimelineEvent.sudden {
      Console.print(
        "  ⚡ sudden scare at \(clock(event.second))  cue at \(clock(event.cueAt))")
    }
    Console.printFormatted(
      "  " + MoodStrip.render(Timeline.labelsPerSecond(movie), colour: Console.stdoutIsTerminal))
    Console.print(HeadsUpText.headline(headsUp))
    for line in HeadsUpText.details(headsUp) { Console.print("  " + line) }
  }

  /// The label on screen at each whole second, from the markers.
  static func labelsPerSecond(_ movie: Movie) -> [Label] {
    guard !movie.markers.isEmpty else { return [] }
    var labels: [Label] = []
    var second = 0.0
    var index = 0
    // A hand-written duration may be anything; a strip longer than ~11.5 days is no film.
    while second < min(movie.duration, CatalogueEntry.maximumSecond) {
      while index + 1 < movie.markers.count && movie.markers[index + 1].second <= second {
        index += 1
      }
      labels.append(Label(name: movie.markers[index].label))
      second += 1
    }
    return labels
  }
}

/// `timeline --json`: the entry's own keys, as in `MovieData.json`, and `headsUp`.
struct TimelineJSON: Encodable {
  let movie: Movie
  let headsUp: FilmHeadsUp

  enum Key: String, CodingKey { case headsUp }

  func encode(to encoder: any Encoder) throws {
    try movie.encode(to: encoder)
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(headsUp, forKey: .headsUp)
  }
}

/// `m:ss`, or `h:mm:ss` from an hour on.
func clock(_ seconds: Double) -> String {
  guard seconds.isFinite, abs(seconds) < 1e12 else { return CFormat.string("%g", seconds) }
  let whole = Int(seconds.rounded(.down))
  if whole >= 3600 {
    return CFormat.string("%ld:%02ld:%02ld", whole / 3600, whole / 60 % 60, whole % 60)
  }
  return CFormat.string("%ld:%02ld", whole / 60, whole % 60)
}
