import LeamojiCore
import LeamojiTimeline

/// One scene of a film's page: a marker and the stretch it lasts.
public struct ReportScene: Equatable, Sendable {
  /// Where the scene starts and ends (the next marker, or the end of the timeline), seconds.
  public var start: Double
  public var end: Double
  /// The marker's emoji and label.
  public var emoji: String
  public var label: String
  /// The marker's confidence, 0...1.
  public var confidence: Double
  /// Whether a person's correction (`userEdits`) made this scene.
  public var edited: Bool
  /// What fired a scary scene (`picture + sound`), when the timeline says.
  public var firedBy: String? = nil
  /// Its badges (👂 sound, ⚡ sudden).
  public var badges: String = ""
}

/// What the report shows of one catalogue entry, read the way `list` reads it: entries the
/// original app or a person wrote are shown with the same defaults (title = id, unknown
/// duration, the app's markers as scenes).
public struct ReportFilm: Equatable, Sendable {
  /// The entry as read from `MovieData.json`.
  public let entry: CatalogueEntry
  /// The name its files have in the site (`films/<stem>.html`, `posters/<stem>.jpg`, ...):
  /// the id when it is a plain file name, else a slug of it with a hash; unique in the site
  /// even when entries share an id.
  public let stem: String
  /// The scenes, in order.
  public let scenes: [ReportScene]
  /// The film's heads-up, its model compared with the model in use (docs/heads-up.md).
  public let headsUp: FilmHeadsUp

  /// The entry's id, title and description (title = id, description "" when missing).
  public var id: String { entry.movie.id }
  public var title: String { entry.movie.title }
  public var description: String { entry.movie.description }
  /// The entry's own duration; nil when it has none (shown as `? s`, as `list` does).
  public var duration: Double? { entry.duration }
  /// Where the timeline ends: the duration, else one second after the last marker.
  public var timelineEnd: Double { max(entry.movie.duration, 0) }

  /// Scenes labelled scary (any case).
  public var scaryScenes: Int { scenes.filter { Self.isScary($0.label) }.count }
  /// Seconds of the film in scary scenes.
  public var scarySeconds: Double {
    scenes.filter { Self.isScary($0.label) }.reduce(0) { $0 + max(0, $1.end - $1.start) }
  }

  /// The film of `entry`, whose files are named `stem`; `current` is the model in use (nil
  /// when none was found: the heads-up then says its model was not checked).
  public init(entry: CatalogueEntry, stem: String, current: ModelIdentity? = nil) {
    self.entry = entry
    self.stem = stem
    headsUp = FilmHeadsUp(entry: entry, current: current)
    let markers = entry.movie.markers
    let end = max(entry.movie.duration, 0)
    scenes = markers.enumerated().map { index, marker in
      let next = index + 1 < markers.count ? markers[index + 1].second : max(end, marker.second)
      let edited = entry.userEdits.contains {
        $0.label == marker.label && $0.from <= marker.second && marker.second < $0.to
      }
      return ReportScene(
        start: marker.second, end: next, emoji: marker.emoji, label: marker.label,
        confidence: marker.confidence, edited: edited, firedBy: marker.firedByText,
        badges: marker.badges)
    }
  }

  /// The films of a catalogue in `list`'s order (sorted by id, entries sharing an id in file
  /// order), each with a stem of its own, their heads-up compared with the model `current`.
  public static func films(of entries: [CatalogueEntry], current: ModelIdentity? = nil)
    -> [ReportFilm]
  {
    var taken = Set<String>()
    return MovieData.sortedByID(entries, id: \.movie.id).map { entry in
      let base = stemBase(for: entry.movie.id)
      var stem = base
      var number = 2
      while taken.contains(stem.lowercased()) {
        stem = base + "~" + String(number)
        number += 1
      }
      taken.insert(stem.lowercased())
      return ReportFilm(entry: entry, stem: stem, current: current)
    }
  }

  /// The id itself when it is 1 to 80 ASCII letters, digits, `-` or `_` (not starting with
  /// `-`); otherwise its slug (at most 48 characters) and 8 hex digits of a hash of the id, so
  /// that ids differing only in characters the slug drops still get different names.
  static func stemBase(for id: String) -> String {
    let plain =
      !id.isEmpty && id.utf8.count <= 80 && !id.hasPrefix("-")
      && id.unicodeScalars.allSatisfy {
        ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
          || $0 == "-" || $0 == "_"
      }
    if plain { return id }
    let slug = String(MovieID.slug(id).prefix(48))
    return slug + "-" + FNV1a.hex(Array(id.utf8)).prefix(8)
  }

  /// The class letter of a label's colour in the pages: `h`appy, `n`eutral, `s`cary or
  /// `o`ther (the labels' colours of `Label`).
  public static func moodClass(_ label: String) -> String {
    switch Label.standard(named: label)?.name {
    case "happy": return "h"
    case "neutral": return "n"
    case "scary": return "s"
    default: return "o"
    }
  }

  static func isScary(_ label: String) -> Bool { Label.standard(named: label)?.name == "scary" }

  /// The mood bar: each scene's class and its share of the timeline in thousandths, with the
  /// stretch before the first scene as `x` (no scene yet). Shares add up to 1000 when the
  /// timeline has a length (rounding goes to the last part).
  public var moodParts: [(mood: String, share: Int)] {
    let end = timelineEnd
    guard end > 0 else { return [] }
    var parts: [(String, Double)] = []
    if let first = scenes.first, first.start > 0 { parts.append(("x", min(first.start, end))) }
    for scene in scenes where scene.start < end {
      parts.append((Self.moodClass(scene.label), min(scene.end, end) - scene.start))
    }
    var result: [(mood: String, share: Int)] = []
    var used = 0
    for (index, part) in parts.enumerated() {
      let share =
        index == parts.count - 1 ? 1000 - used : Int((part.1 / end * 1000).rounded())
      used += share
      if share > 0 { result.append((part.0, share)) }
    }
    return result
  }
}

/// FNV-1a, 64 bits: a fast hash for file names and for telling whether a page changed (not
/// for security: the pages hold nothing secret).
public enum FNV1a {
  /// The hash of `bytes`.
  public static func hash(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0100_0000_01b3
    }
    return hash
  }

  /// The hash as 16 lower-case hex digits.
  public static func hex(_ bytes: [UInt8]) -> String {
    let value = hash(bytes)
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
