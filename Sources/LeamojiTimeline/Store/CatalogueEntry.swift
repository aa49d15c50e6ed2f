import LeamojiCore

/// One entry of `MovieData.json` as leamoji reads it, whoever wrote it: leamoji itself, the
/// original iOS app (`id`, `title`, `description`, `poster`, and `markers` as an object from
/// second to `"Happy"` / `"Neutral"` / `"Scary"`), another tool or a person.
///
/// Any object with a string `id` is an entry. Every other key is optional: what is there and
/// readable fills `movie` (the typed view `timeline`, `play` and `list` show), what is missing
/// gets a default, and a key leamoji knows holding a value it cannot read is noted in
/// `problems` and otherwise ignored. The file's own keys are never changed by reading: the
/// store writes untouched entries back as they were (see `MovieStore`).
public struct CatalogueEntry: Equatable, Sendable {
  /// How an entry writes its markers.
  public enum MarkerForm: String, Equatable, Sendable {
    /// leamoji's array of `{ second, cueAt, emoji, label, confidence }` objects.
    case leamoji
    /// The original app's object from whole second to `"Happy"` / `"Neutral"` / `"Scary"`.
    case app
    /// No markers (a catalogue entry not analysed yet).
    case none
  }

  /// The latest second (about 11.5 days) an app marker key or an exported marker may have: what
  /// is beyond is no film, and would make per-second work unbounded.
  public static let maximumSecond: Double = 1_000_000

  /// The app's `seekTime`: seconds a cue comes before its scene when the entry does not say.
  public static let appSeekAhead: Double = 5

  /// The typed view. Defaults for missing keys: title = id, description "", duration = the end
  /// of the last marker's second (see `duration`), model with no labels and an empty hash,
  /// seekAhead = the app's 5 s.
  public var movie: Movie
  /// The entry's `duration`, nil when it has none.
  public var duration: Double?
  /// The entry's `model`, nil when it has none (not analysed by leamoji).
  public var model: ModelInfo?
  /// How the entry writes its markers.
  public var markerForm: MarkerForm
  /// The app's markers as written (second → `"Happy"`, ...), for entries in the app's form;
  /// `export --format ios` writes them back unchanged.
  public var appMarkers: [Int: String]?
  /// Keys leamoji does not write, sorted (kept as they are whenever leamoji rewrites the file).
  public var otherKeys: [String]
  /// Values of keys leamoji knows that it could not read, e.g.
  /// `markers[1].second: expected a number, found a string`.
  public var problems: [String]
  /// Signs that the entry was changed by hand since leamoji wrote it (see `findEdits`).
  public var edits: [String]
  /// A person's corrections of the timeline (`userEdits`, written by `leamoji review`), in the
  /// order they were made; already applied to `movie.markers`.
  public var userEdits: [UserEdit] = []

  /// Keys leamoji writes in an entry.
  public static let leamojiKeys: Set<String> = Set(Movie.CodingKeys.allCases.map(\.stringValue))

  /// Reads `object` (an entry with the string id `id`) leniently.
  static func read(_ object: [String: RawJSON], id: String) -> CatalogueEntry {
    var reader = FieldReader()
    let title = reader.string(object["title"], "title") ?? id
    let description = reader.string(object["description"], "description") ?? ""
    let poster = reader.string(object["poster"], "poster")
    let duration = reader.number(object["duration"], "duration")
    let seekAhead = reader.number(object["seekAhead"], "seekAhead")
    let model = reader.model(object["model"])
    let ahead = seekAhead ?? appSeekAhead
    let (markers, form, appMarkers) = reader.markers(object["markers"], seekAhead: ahead)
    let frames = reader.frames(object["frames"])
    let events = reader.events(object["events"], seekAhead: ahead)
    let lastSecond = max(
      markers.last.map { $0.second + 1 } ?? 0, frames?.last.map { $0.second + 1 } ?? 0)
    let movie = Movie(
      id: id, title: title, description: description, duration: duration ?? lastSecond,
      markers: markers, model: model ?? ModelInfo(labels: [], sha256: ""), poster: poster,
      seekAhead: ahead, frames: frames, events: events)
    var entry = CatalogueEntry(
      movie: movie, duration: duration, model: model, markerForm: form, appMarkers: appMarkers,
      otherKeys: object.keys.filter { !leamojiKeys.contains($0) }.sorted(),
      problems: reader.problems, edits: [])
    entry.userEdits = UserEdits.read(object)
    entry.edits = entry.findEdits(object)
    return entry
  }

  /// What shows that a person or another tool changed the entry after leamoji wrote it, as far
  /// as the file alone can tell: keys leamoji does not write, markers leamoji would not write
  /// (a missing `cueAt`, `emoji` or `confidence`, a `cueAt` other than
  /// `max(0, second - seekAhead)`, markers out of order), and unreadable values. An entry
  /// without `model` was not written by leamoji at all and reports only its unreadable values.
  /// A title or description typed over leamoji's own cannot be told from the file.
  private func findEdits(_ object: [String: RawJSON]) -> [String] {
    var edits = problems.map { "unreadable \($0)" }
    guard model != nil else { return edits }
    let foreign = otherKeys.filter { $0 != UserEdits.key }
    if !foreign.isEmpty { edits.append("keys \(foreign.joined(separator: ", "))") }
    if object[UserEdits.key] != nil {
      edits.append("\(userEdits.count) correction\(userEdits.count == 1 ? "" : "s") in review")
    }
    if markerForm == .app { edits.append("markers in the app's form") }
    guard markerForm == .leamoji, case .array(let items)? = object["markers"] else { return edits }
    var previous = -Double.infinity
    for (index, item) in items.enumerated() {
      guard case .object(let marker) = item, case .number(let second)? = marker["second"] else {
        continue
      }
      let missing = ["confidence", "cueAt", "emoji"].filter { marker[$0] == nil }
      if !missing.isEmpty {
        edits.append("markers[\(index)] without \(missing.joined(separator: ", "))")
      } else if case .number(let cueAt)? = marker["cueAt"],
        abs(cueAt - Rounding.time(max(0, second - movie.seekAhead))) > 0.0005
      {
        edits.append("markers[\(index)].cueAt")
      }
      if second < previous { edits.append("markers[\(index)] out of order") }
      previous = second
    }
    return edits
  }
}

/// Reads fields of an entry without failing: a value of the wrong type is noted and skipped.
private struct FieldReader {
  var problems: [String] = []

  mutating func string(_ value: RawJSON?, _ path: String) -> String? {
    switch value {
    case nil, .null?: return nil
    case .string(let text)?: return text
    case let other?:
      note(path, "a string", other)
      return nil
    }
  }

  mutating func number(_ value: RawJSON?, _ path: String) -> Double? {
    switch value {
    case nil, .null?: return nil
    case .number(let number)?: return number
    case let other?:
      note(path, "a number", other)
      return nil
    }
  }

  mutating func model(_ value: RawJSON?) -> ModelInfo? {
    switch value {
    case nil, .null?: return nil
    case .object(let members)?:
      guard case .array(let items)? = members["labels"],
        case .string(let sha256)? = members["sha256"]
      else {
        problems.append("model: expected labels and sha256")
        return nil
      }
      var labels: [String] = []
      for item in items {
        guard case .string(let label) = item else {
          problems.append("model.labels: expected strings")
          return nil
        }
        labels.append(label)
      }
      return ModelInfo(labels: labels, sha256: sha256)
    case let other?:
      note("model", "an object", other)
      return nil
    }
  }

  /// Markers in either form, sorted by second. The app's per-second object becomes one marker
  /// per run of equal labels (its first second), so `timeline` and `play` show scenes.
  mutating func markers(_ value: RawJSON?, seekAhead: Double) -> (
    [Marker], CatalogueEntry.MarkerForm, [Int: String]?
  ) {
    switch value {
    case nil, .null?: return ([], .none, nil)
    case .array(let items)?:
      var markers: [Marker] = []
      for (index, item) in items.enumerated() {
        if let marker = leamojiMarker(item, path: "markers[\(index)]", seekAhead: seekAhead) {
          markers.append(marker)
        }
      }
      return (markers.sorted { $0.second < $1.second }, .leamoji, nil)
    case .object(let members)?:
      var perSecond: [(Double, String)] = []
      var asWritten: [Int: String] = [:]
      for (key, value) in members {
        guard let second = Double(key), second >= 0, second <= CatalogueEntry.maximumSecond else {
          problems.append("markers: key \"\(key)\" is not a second")
          continue
        }
        guard case .string(let name) = value else {
          note("markers.\(key)", "a string", value)
          continue
        }
        perSecond.append((second, name.lowercased()))
        asWritten[Int(second.rounded(.down))] = name
      }
      var markers: [Marker] = []
      for (second, label) in perSecond.sorted(by: { $0.0 < $1.0 })
      where markers.last?.label != label {
        markers.append(
          Marker(
            confidence: 1, cueAt: Rounding.time(max(0, second - seekAhead)),
            emoji: Label(name: label).emoji, label: label, second: second))
      }
      return (markers, .app, asWritten)
    case let other?:
      note("markers", "an array or an object", other)
      return ([], .none, nil)
    }
  }

  private mutating func leamojiMarker(_ item: RawJSON, path: String, seekAhead: Double) -> Marker? {
    guard case .object(let marker) = item else {
      note(path, "an object", item)
      return nil
    }
    guard let second = number(marker["second"], path + ".second") else {
      if (marker["second"] ?? .null) == .null { problems.append("\(path): no second") }
      return nil
    }
    guard let label = string(marker["label"], path + ".label") else {
      if (marker["label"] ?? .null) == .null { problems.append("\(path): no label") }
      return nil
    }
    return Marker(
      confidence: number(marker["confidence"], path + ".confidence") ?? 1,
      cueAt: number(marker["cueAt"], path + ".cueAt") ?? Rounding.time(max(0, second - seekAhead)),
      emoji: string(marker["emoji"], path + ".emoji") ?? Label(name: label).emoji,
      label: label, second: second, firedBy: strings(marker["firedBy"], path + ".firedBy"))
  }

  /// An array of strings (`firedBy`); nil when absent or unreadable (noted).
  private mutating func strings(_ value: RawJSON?, _ path: String) -> [String]? {
    switch value {
    case nil, .null?: return nil
    case .array(let items)?:
      var texts: [String] = []
      for item in items {
        guard case .string(let text) = item else {
          note(path, "an array of strings", value!)
          return nil
        }
        texts.append(text)
      }
      return texts
    case let other?:
      note(path, "an array of strings", other)
      return nil
    }
  }

  /// The entry's `events` (sudden scares); unreadable items are noted and skipped.
  mutating func events(_ value: RawJSON?, seekAhead: Double) -> [TimelineEvent]? {
    guard let value, value != .null else { return nil }
    guard case .array(let items) = value else {
      note("events", "an array", value)
      return nil
    }
    var events: [TimelineEvent] = []
    for (index, item) in items.enumerated() {
      let path = "events[\(index)]"
      guard case .object(let event) = item, let second = number(event["second"], path + ".second"),
        let kind = string(event["kind"], path + ".kind")
      else {
        problems.append("\(path): expected second and kind")
        continue
      }
      events.append(
        TimelineEvent(
          cueAt: number(event["cueAt"], path + ".cueAt")
            ?? Rounding.time(max(0, second - seekAhead)), kind: kind, second: second))
    }
    return events.sorted { $0.second < $1.second }
  }

  mutating func frames(_ value: RawJSON?) -> [FrameScore]? {
    guard let value, value != .null else { return nil }
    guard case .array(let items) = value else {
      note("frames", "an array", value)
      return nil
    }
    var frames: [FrameScore] = []
    for (index, item) in items.enumerated() {
      guard case .object(let frame) = item, case .number(let second)? = frame["second"],
        case .string(let label)? = frame["label"],
        case .object(let members)? = frame["probabilities"]
      else {
        problems.append("frames[\(index)]: expected second, label and probabilities")
        return nil
      }
      var probabilities: [String: Double] = [:]
      for (name, p) in members {
        guard case .number(let p) = p else {
          problems.append("frames[\(index)].probabilities.\(name): expected a number")
          return nil
        }
        probabilities[name] = p
      }
      frames.append(
        FrameScore(
          second: second, label: label, probabilities: probabilities,
          intensity: number(frame["intensity"], "frames[\(index)].intensity"),
          firedBy: strings(frame["firedBy"], "frames[\(index)].firedBy")))
    }
    return frames
  }

  private mutating func note(_ path: String, _ expected: String, _ found: RawJSON) {
    problems.append("\(path): expected \(expected), found \(found.kindDescription)")
  }
}
