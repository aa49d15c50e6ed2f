import FoundationEssentials
import LeamojiCore

/// `export --format ios`: a catalogue in exactly the original iOS app's schema, so the app's
/// own `JSONDecoder().decode([Movie].self, …)` reads it.
///
/// Per film: `id`, `title`, `description`, `poster` (strings; "" when the entry has no poster),
/// and `markers` as an object from whole second to `"Happy"` / `"Neutral"` / `"Scary"` (the
/// app's `[Int: EmojiType]`), left out for an entry without markers. Encoded as the app does,
/// by `JSONEncoder` with `[.prettyPrinted, .sortedKeys]`, in the catalogue's order (by id);
/// C1 and bidi control characters are written as `\uXXXX` escapes (the same strings).
public enum AppExport {
  /// The app's `EmojiType` raw values.
  public static let emojiTypes = ["happy": "Happy", "neutral": "Neutral", "scary": "Scary"]

  /// One film as the app's `Movie` struct encodes it.
  struct AppMovie: Encodable {
    var id: String
    var title: String
    var description: String
    var poster: String
    var markers: [Int: String]?
  }

  /// The result: the document and the labels that had no app type.
  public struct Output: Sendable {
    /// The JSON document (UTF-8, with a trailing newline).
    public var data: Data
    /// Labels outside happy / neutral / scary, written as `"Neutral"` (the app's own fallback
    /// for a frame it cannot classify), sorted.
    public var unmappedLabels: [String]
  }

  /// The app's document for `entries`.
  /// - Parameter everySecond: one marker for every whole second from 0 to the duration (the
  ///   label of the scene on screen then), as the app wrote them, instead of one per scene start.
  ///   Entries already in the app's form are written as they are either way (their labels too).
  public static func export(_ entries: [CatalogueEntry], everySecond: Bool) throws -> Output {
    var unmapped = Set<String>()
    func appType(_ label: String) -> String {
      if let type = emojiTypes[label.lowercased()] { return type }
      unmapped.insert(label)
      return "Neutral"
    }
    let movies = entries.map { entry in
      let movie = entry.movie
      var markers: [Int: String]? = nil
      if let asWritten = entry.appMarkers {
        markers = asWritten
      } else if !movie.markers.isEmpty {
        var byKey: [Int: String] = [:]
        for (second, label) in points(entry, everySecond: everySecond) {
          byKey[second] = appType(label)
        }
        markers = byKey
      }
      return AppMovie(
        id: movie.id, title: movie.title, description: movie.description,
        poster: movie.poster ?? "", markers: markers)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    // C1 and bidi controls as \u escapes (the same strings, safe on a terminal).
    let data = MovieData.terminalSafe(try encoder.encode(movies))
    return Output(data: data + [0x0A], unmappedLabels: unmapped.sorted())
  }

  /// (whole second, label) pairs in time order; a later pair of the same second wins. Markers
  /// before 0 or after `CatalogueEntry.maximumSecond` (hand-written) are left out.
  static func points(_ entry: CatalogueEntry, everySecond: Bool) -> [(Int, String)] {
    let markers = entry.movie.markers
    let limit = CatalogueEntry.maximumSecond
    let inRange = markers.filter { $0.second >= 0 && $0.second <= limit }
    if !everySecond {
      return inRange.map { (Int($0.second.rounded(.down)), $0.label) }
    }
    return expand(inRange, end: min(entry.movie.duration, limit))
  }

  /// The label of the scene on screen at each whole second from the first marker to `end`.
  private static func expand(_ markers: [Marker], end: Double) -> [(Int, String)] {
    guard let first = markers.first else { return [] }
    var points: [(Int, String)] = []
    var index = 0
    var second = Int(first.second.rounded(.up))
    while Double(second) < end {
      while index + 1 < markers.count && markers[index + 1].second <= Double(second) {
        index += 1
      }
      points.append((second, markers[index].label))
      second += 1
    }
    return points
  }
}
