/// One entry of `MovieData.json`: an analysed video and its emoji timeline.
///
/// The JSON keys are a contract with players (docs/movie-data.md); `poster` and
/// `frames` are left out of the JSON when nil. Decoding accepts hand-written entries: keys in any
/// order, unknown keys ignored, and a missing `title` (→ the id) or `description` (→ "").
public struct Movie: Codable, Equatable, Sendable {
  /// User-facing text; from the container's metadata, editable in the file.
  public var description: String
  /// Length of the video in seconds.
  public var duration: Double
  /// Unique key of the entry, a slug of the file name (see `MovieID`).
  public var id: String
  /// The emoji timeline, sorted by `second`.
  public var markers: [Marker]
  /// Which model produced the markers.
  public var model: ModelInfo
  /// File name of the poster image, relative to the JSON file.
  public var poster: String?
  /// The `seekAhead` the markers' `cueAt` were computed with, in seconds.
  public var seekAhead: Double
  /// User-facing title; from the container's metadata (else the id), editable in the file.
  public var title: String
  /// Per-sample probabilities, present only when `analyze --frames` asked for them.
  public var frames: [FrameScore]?
  /// Sudden scares (jump scares) found with the video's sound; absent when there are none.
  public var events: [TimelineEvent]?

  public init(
    id: String, title: String, description: String = "", duration: Double, markers: [Marker],
    model: ModelInfo, poster: String? = nil, seekAhead: Double, frames: [FrameScore]? = nil,
    events: [TimelineEvent]? = nil
  ) {
    self.description = description
    self.duration = duration
    self.id = id
    self.markers = markers
    self.model = model
    self.poster = poster
    self.seekAhead = seekAhead
    self.title = title
    self.frames = frames
    self.events = events.flatMap { $0.isEmpty ? nil : $0 }
  }

  enum CodingKeys: String, CodingKey, CaseIterable {
    case description, duration, id, markers, model, poster, seekAhead, title, frames, events
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    title = try container.decodeIfPresent(String.self, forKey: .title) ?? id
    description = try container.decodeIfPresent(String.self, forKey: .description) ?? ""
    duration = try container.decode(Double.self, forKey: .duration)
    markers = try container.decode([Marker].self, forKey: .markers)
    model = try container.decode(ModelInfo.self, forKey: .model)
    poster = try container.decodeIfPresent(String.self, forKey: .poster)
    seekAhead = try container.decode(Double.self, forKey: .seekAhead)
    frames = try container.decodeIfPresent([FrameScore].self, forKey: .frames)
    events = try container.decodeIfPresent([TimelineEvent].self, forKey: .events)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(description, forKey: .description)
    try container.encode(duration, forKey: .duration)
    try container.encode(id, forKey: .id)
    try container.encode(markers, forKey: .markers)
    try container.encode(model, forKey: .model)
    try container.encodeIfPresent(poster, forKey: .poster)
    try container.encode(seekAhead, forKey: .seekAhead)
    try container.encode(title, forKey: .title)
    try container.encodeIfPresent(frames, forKey: .frames)
    try container.encodeIfPresent(events, forKey: .events)
  }
}

/// The model a timeline was computed with, so that stale entries can be recognised.
public struct ModelInfo: Codable, Equatable, Sendable {
  /// Label names in class-index order.
  public var labels: [String]
  /// SHA-256 of the model file, lower-case hex.
  public var sha256: String

  public init(labels: [String], sha256: String) {
    self.labels = labels
    self.sha256 = sha256
  }
}
