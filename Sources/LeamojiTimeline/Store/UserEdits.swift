import LeamojiCore

/// A person's correction of a timeline (`leamoji review`): from `from` up to `to` seconds the
/// scene is `label`, whatever the model said. Stored in the entry as `userEdits`
/// (docs/movie-data.md), so that a later `analyze` of the same video applies it again.
public struct UserEdit: Equatable, Sendable {
  /// Where the corrected stretch starts, in seconds.
  public var from: Double
  /// Where it ends (exclusive), in seconds.
  public var to: Double
  /// The label the person chose.
  public var label: String

  public init(from: Double, to: Double, label: String) {
    self.from = from
    self.to = to
    self.label = label
  }
}

/// Reading, writing and applying `userEdits`.
public enum UserEdits {
  /// The entry key holding the edits.
  public static let key = "userEdits"

  /// The edits of `object` (an entry), in the order they were made; empty when there are none
  /// or the value cannot be read (an unreadable item is left out).
  static func read(_ object: [String: RawJSON]) -> [UserEdit] {
    guard case .array(let items)? = object[key] else { return [] }
    return items.compactMap { item in
      guard case .object(let edit) = item, case .number(let from)? = edit["from"],
        case .number(let to)? = edit["to"], case .string(let label)? = edit["label"],
        from.isFinite, to.isFinite, from < to, !label.isEmpty
      else { return nil }
      return UserEdit(from: from, to: to, label: label)
    }
  }

  /// `edits` as the file holds them.
  static func raw(_ edits: [UserEdit]) -> RawJSON {
    .array(
      edits.map {
        .object([
          "from": .number(Rounding.time($0.from)), "to": .number(Rounding.time($0.to)),
          "label": .string($0.label),
        ])
      })
  }

  /// `markers` (sorted by second) with `edits` applied in order, a later edit winning where two
  /// overlap: each edited stretch is one marker of its label with confidence 1, the scene it
  /// cut into resumes at its end (with that scene's confidence), and a marker whose label
  /// equals the one before it is dropped. `cueAt` is `max(0, second - seekAhead)`. Applying the
  /// same edits twice gives the same markers, so re-applying them after a re-analysis or a save
  /// is safe.
  public static func apply(
    _ edits: [UserEdit], to markers: [Marker], duration: Double, seekAhead: Double
  ) -> [Marker] {
    var result = markers
    for edit in edits {
      let from = max(0, edit.from)
      let to = edit.to
      guard from < to else { continue }
      let emoji =
        result.first { $0.label == edit.label }?.emoji ?? Label(name: edit.label).emoji
      // The scene on screen at `to`, which resumes after the edit.
      let resuming = result.last { $0.second <= to }
      result.removeAll { $0.second >= from && $0.second <= to }
      result.append(
        Marker(confidence: 1, cueAt: 0, emoji: emoji, label: edit.label, second: from))
      if let resuming, to < duration {
        var marker = resuming
        marker.second = to
        result.append(marker)
      }
      result.sort { $0.second < $1.second }
    }
    var merged: [Marker] = []
    for var marker in result {
      if let last = merged.last, last.label == marker.label { continue }
      marker.second = Rounding.time(marker.second)
      marker.cueAt = Rounding.time(max(0, marker.second - seekAhead))
      merged.append(marker)
    }
    return merged
  }

  /// `object` (an entry in leamoji's form) with its `userEdits` applied to its `markers` and to
  /// the labels of its `frames`; unchanged when it has no edits or its markers cannot be read.
  static func reapply(_ object: [String: RawJSON], id: String) -> [String: RawJSON] {
    let edits = read(object)
    guard !edits.isEmpty, case .array? = object["markers"] else { return object }
    let entry = CatalogueEntry.read(object, id: id)
    guard entry.markerForm == .leamoji else { return object }
    let movie = entry.movie
    let markers = apply(
      edits, to: movie.markers, duration: movie.duration, seekAhead: movie.seekAhead)
    var object = object
    guard let raw = try? MovieData.rawValue(markers) else { return object }
    object["markers"] = raw
    return relabelFrames(object, markers: markers)
  }

  /// `object` with the label of each of its `frames` set to the label of the marker on screen
  /// at that second (the smoothed label the markers were made from, corrections included).
  static func relabelFrames(_ object: [String: RawJSON], markers: [Marker]) -> [String: RawJSON] {
    guard case .array(var frames)? = object["frames"], !markers.isEmpty else { return object }
    for index in frames.indices {
      guard case .object(var frame) = frames[index], case .number(let second)? = frame["second"]
      else { continue }
      let marker = markers.last { $0.second <= second + 0.0005 } ?? markers[0]
      frame["label"] = .string(marker.label)
      frames[index] = .object(frame)
    }
    var object = object
    object["frames"] = .array(frames)
    return object
  }
}
