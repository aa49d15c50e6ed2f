/// One film of `leamoji list`: what the catalogue says about it in a line (and, with `--json`,
/// one JSON object with these keys).
public struct CatalogueSummary: Codable, Equatable, Sendable {
  public var id: String
  public var title: String
  /// Seconds; nil when the entry has no `duration`.
  public var duration: Double?
  /// Label → seconds of the film in scenes of that label (from the markers, up to the duration).
  public var seconds: [String: Double]
  /// Number of markers (scenes).
  public var markers: Int
  /// `leamoji`, `app` (the original app's object) or `none`.
  public var markerForm: String
  /// SHA-256 of the model the entry was analysed with; nil when not analysed by leamoji.
  public var model: String?
  /// Whether the entry shows changes made after leamoji wrote it (see `edits`).
  public var edited: Bool
  /// What shows them (`CatalogueEntry.edits`).
  public var edits: [String]
  /// The film's heads-up (docs/heads-up.md), when the caller computed it.
  public var headsUp: FilmHeadsUp?

  /// The summary of `entry`, with `headsUp` when given.
  public init(_ entry: CatalogueEntry, headsUp: FilmHeadsUp? = nil) {
    let movie = entry.movie
    id = movie.id
    title = movie.title
    duration = entry.duration
    seconds = Self.secondsPerLabel(movie)
    markers = movie.markers.count
    markerForm = entry.markerForm.rawValue
    model = entry.model?.sha256
    edits = entry.edits
    edited = !entry.edits.isEmpty
    self.headsUp = headsUp
  }

  /// Seconds per label: each marker's scene lasts until the next marker, the last one until the
  /// movie's duration (rounded to the millisecond).
  public static func secondsPerLabel(_ movie: Movie) -> [String: Double] {
    var seconds: [String: Double] = [:]
    for (index, marker) in movie.markers.enumerated() {
      let end = index + 1 < movie.markers.count ? movie.markers[index + 1].second : movie.duration
      seconds[marker.label, default: 0] += max(0, end - marker.second)
    }
    return seconds.mapValues { Rounding.time($0) }
  }
}
