import ArgumentParser
import FoundationEssentials
import LeamojiCommandLine
import LeamojiCore
import LeamojiTimeline

/// `leamoji list`: the catalogue in MovieData.json, one line per film.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the films in MovieData.json, one line per film.",
    discussion: """
      Each line shows the id, the title, the duration, the seconds of each label, the number of \
      markers, the model the film was analysed with (the start of its SHA-256; "app" for \
      markers in the original iOS app's form, "-" when there are none) and whether the entry \
      was edited after leamoji wrote it (keys leamoji does not write, markers it would not \
      write, unreadable values, corrections made with `leamoji review`). Entries written by the original app or by hand are listed too.

      Each line ends with the film's heads-up level (0 to 5, docs/heads-up.md; 0 means the \
      model found no scary scene, not that the film is safe) and says when the timeline comes \
      from another model than the one in use (--model).

      Examples:
        leamoji list
        leamoji list --data site/MovieData.json --json
      """
  )

  @Option(help: "The timeline file.", completion: .file(extensions: ["json"]))
  var data = MovieData.defaultFileName

  @Flag(help: "Print one line of JSON per film.")
  var json = false

  @OptionGroup var modelOptions: ModelOptions

  func run() throws {
    let entries = try MovieStore.catalogueForCommand(at: data)
    let current = try modelOptions.identity()
    for (id, positions) in MovieData.duplicatedIDs(entries.map(\.movie.id)) {
      let numbers = positions.map(String.init)
      Console.warning(
        "\(data): id '\(id)' is in entries \(numbers.dropLast().joined(separator: ", ")) and "
          + "\(numbers.last!) (all listed); analyze, merge, review, timeline and play refuse "
          + "this id until only one entry has it")
    }
    // Every entry, entries sharing an id in file order.
    for entry in MovieData.sortedByID(entries, id: \.movie.id) {
      let summary = CatalogueSummary(
        entry, headsUp: FilmHeadsUp(entry: entry, current: current))
      if json {
        Console.printJSON(jsonText(summary))
      } else {
        Console.print(Self.line(summary, entry: entry))
      }
    }
  }

  /// `meadow-storm  "Meadow and Storm"  30 s  😀 happy 14 s, 😱 scary 16 s  2 markers
  /// model 1a2b3c4d5e6f  not edited  heads-up 4/5`.
  static func line(_ summary: CatalogueSummary, entry: CatalogueEntry) -> String {
    let emoji = Dictionary(
      entry.movie.markers.map { ($0.label, $0.emoji) }, uniquingKeysWith: { a, _ in a })
    let labels = summary.seconds.keys.sorted().map { label in
      "\(emoji[label] ?? Label(name: label).emoji) \(label) \(secondsText(summary.seconds[label] ?? 0))"
    }
    let model: String
    switch (summary.model, entry.markerForm) {
    case (let sha?, _): model = "model " + String(sha.prefix(12))
    case (nil, .app): model = "model app"
    case (nil, _): model = "model -"
    }
    let markers = "\(summary.markers) marker\(summary.markers == 1 ? "" : "s")"
    return [
      summary.id, "\"\(summary.title)\"", summary.duration.map(secondsText) ?? "? s",
      labels.isEmpty ? "no markers" : labels.joined(separator: ", "), markers, model,
      summary.edited ? "edited (\(summary.edits.joined(separator: "; ")))" : "not edited",
    ].joined(separator: "  ") + (summary.headsUp.map { "  " + HeadsUpText.short($0) } ?? "")
  }
}

extension MovieStore {
  /// Every entry of the timeline file at `path` for `list` and `export`: a missing file exits 66,
  /// one that cannot be read as a catalogue exits 65, each with one line naming the file.
  static func catalogueForCommand(at path: String) throws -> [CatalogueEntry] {
    let store = MovieStore(path: path)
    guard store.exists else { throw CommandFailure("\(path): no such file", status: .noInput) }
    do {
      return try store.readCatalogue()
    } catch {
      throw CommandFailure(error)
    }
  }
}
