import LeamojiCore

/// A parent's heads-up for one film, computed from its stored timeline alone: how many scary
/// scenes, how much scary time, the first and the longest scene, the strongest moment and what
/// fired it, the sudden scares, and a 0–5 level (the rule: docs/heads-up.md).
///
/// Scenes are the stored markers, never a new classification: a scary marker's scene lasts
/// until the next marker, the last one until the film's duration. Per-second scores (`frames`,
/// written by `analyze --frames`) only sharpen the strongest moment; without them it is the
/// most confident scary scene. Pure and O(markers + frames + events): a 90-minute film with
/// every second stored takes well under a millisecond (`leamoji-bench heads-up`).
public struct FilmHeadsUp: Codable, Equatable, Sendable {
  /// One stretch of the film, in seconds.
  public struct Scene: Codable, Equatable, Sendable {
    public var start: Double
    public var end: Double
    /// `end - start`, to the millisecond.
    public var seconds: Double

    public init(start: Double, end: Double) {
      self.start = start
      self.end = end
      seconds = Rounding.time(max(0, end - start))
    }
  }

  /// The moment the model found most frightening.
  public struct Moment: Codable, Equatable, Sendable {
    /// How `pScary` was measured.
    public enum Measure: String, Codable, Sendable {
      /// The p(scary) of that very second (`frames` were stored).
      case second
      /// The mean p(scary) over the scene starting at `second` (its marker's confidence).
      case sceneMean
      /// No probability known: a sudden scare in a film without a scary scene, or markers
      /// from a file that does not record confidences (the original app's).
      case none
    }

    /// When it happens (seconds from the start).
    public var second: Double
    /// The probability, 4 decimals; nil when `measure` is `none`.
    public var pScary: Double?
    public var measure: Measure
    /// What fired it, in the order picture, sound, sudden (empty when the file does not say).
    public var firedBy: [String]
    /// The second's intensity (0–1), when its sound was measured.
    public var intensity: Double?

    enum CodingKeys: String, CodingKey { case second, pScary, measure, firedBy, intensity }

    /// Every key is written, unknown values as `null`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(second, forKey: .second)
      try container.encode(pScary, forKey: .pScary)
      try container.encode(measure, forKey: .measure)
      try container.encode(firedBy, forKey: .firedBy)
      try container.encode(intensity, forKey: .intensity)
    }
  }

  /// Whether there is a timeline at all: an entry without markers or events was never
  /// analysed and has no heads-up (`level` is nil), which is not the same as level 0.
  public var analysed: Bool
  /// Scary scenes (markers labelled scary, in any case, that start before the end).
  public var scaryScenes: Int
  /// Seconds of the film in scary scenes, to the millisecond.
  public var scarySeconds: Double
  /// `scarySeconds` over the duration, 0–1, 4 decimals (0 when the duration is 0).
  public var scaryShare: Double
  /// Sudden scares (`events` of kind `sudden`).
  public var suddenScares: Int
  /// The first and the longest scary scene (ties: the earlier one).
  public var firstScene: Scene?
  public var longestScene: Scene?
  /// The strongest moment: see `Moment`.
  public var strongest: Moment?
  /// 0 (no scary scene and no sudden scare found) to 5; nil when not `analysed`.
  public var level: Int?
  /// The rule's rows that raised the level above 1, in the rule's order (docs/heads-up.md).
  public var levelReasons: [String]
  /// Whether the timeline comes from the model in use; nil when it was not compared.
  public var model: ModelCheck?

  /// The heads-up of a catalogue entry, read as `list` reads it, with its model compared with
  /// `current` (the model in use; nil when none was found). The original app's markers carry
  /// no confidence, so none is used for them.
  public init(entry: CatalogueEntry, current: ModelIdentity?) {
    self.init(movie: entry.movie, confidencesKnown: entry.markerForm != .app)
    model = ModelCheck(recorded: entry.model, current: current)
  }

  /// The heads-up of `movie`'s stored timeline. `confidencesKnown`: whether its markers'
  /// `confidence` values are the model's (false for the original app's markers, which leamoji
  /// reads with confidence 1).
  public init(movie: Movie, confidencesKnown: Bool = true) {
    let scenes = Self.scaryScenes(movie)
    let sudden = (movie.events ?? []).filter { $0.kind == TimelineEvent.sudden }
    analysed = !movie.markers.isEmpty || !sudden.isEmpty
    scaryScenes = scenes.count
    let total = scenes.reduce(0) { $0 + max(0, $1.scene.end - $1.scene.start) }
    scarySeconds = Rounding.time(total)
    scaryShare = movie.duration > 0 ? Rounding.probability(min(1, total / movie.duration)) : 0
    suddenScares = sudden.count
    firstScene = scenes.first?.scene
    // `max(by:)` keeps the first of equal elements: ties go to the earlier scene.
    longestScene = scenes.max { a, b in a.scene.seconds < b.scene.seconds }?.scene
    strongest = Self.strongest(
      movie: movie, scenes: scenes, sudden: sudden, confidencesKnown: confidencesKnown)
    let reasons = Rule.reasons(
      share: movie.duration > 0 ? total / movie.duration : 0,
      longest: longestScene.map { $0.end - $0.start } ?? 0,
      strongestP: strongest?.pScary, suddenScares: suddenScares)
    let warned = scaryScenes > 0 || suddenScares > 0
    levelReasons = warned ? reasons : []
    level = analysed ? (warned ? 1 + reasons.count : 0) : nil
  }

  enum CodingKeys: String, CodingKey {
    case analysed, scaryScenes, scarySeconds, scaryShare, suddenScares, firstScene, longestScene
    case strongest, level, levelReasons, model
  }

  /// Every key is written, unknown values as `null`, so a script sees what is not known.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(analysed, forKey: .analysed)
    try container.encode(scaryScenes, forKey: .scaryScenes)
    try container.encode(scarySeconds, forKey: .scarySeconds)
    try container.encode(scaryShare, forKey: .scaryShare)
    try container.encode(suddenScares, forKey: .suddenScares)
    try container.encode(firstScene, forKey: .firstScene)
    try container.encode(longestScene, forKey: .longestScene)
    try container.encode(strongest, forKey: .strongest)
    try container.encode(level, forKey: .level)
    try container.encode(levelReasons, forKey: .levelReasons)
    try container.encode(model, forKey: .model)
  }

  /// The level rule's numbers (docs/heads-up.md explains them).
  public enum Rule {
    /// Scary time from this share of the film on raises the level by one, and again from
    /// `largeShare`.
    public static let share = 0.05
    public static let largeShare = 0.15
    /// A scary scene at least this long (seconds) raises the level by one.
    public static let longScene = 60.0
    /// A second with at least this p(scary), or any sudden scare, raises the level by one.
    public static let strongP = 0.8

    /// The rows that hold, in order; the level of a film with a warning is 1 + their number.
    static func reasons(share: Double, longest: Double, strongestP: Double?, suddenScares: Int)
      -> [String]
    {
      var reasons: [String] = []
      if share >= Rule.share { reasons.append("scary time at least 5 % of the film") }
      if share >= largeShare { reasons.append("scary time at least 15 % of the film") }
      if longest >= longScene { reasons.append("a scary scene of at least 1 min") }
      if suddenScares > 0 {
        reasons.append("a sudden scare")
      } else if let p = strongestP, p >= strongP {
        reasons.append("p(scary) at least 0.8")
      }
      return reasons
    }
  }

  /// The scary markers' scenes that have a length, with their marker.
  private static func scaryScenes(_ movie: Movie) -> [(scene: Scene, marker: Marker)] {
    let markers = movie.markers
    var scenes: [(scene: Scene, marker: Marker)] = []
    for (index, marker) in markers.enumerated() where isScary(marker.label) {
      let end = index + 1 < markers.count ? markers[index + 1].second : movie.duration
      guard end > marker.second else { continue }
      scenes.append((Scene(start: marker.second, end: end), marker))
    }
    return scenes
  }

  /// Whether `label` is the standard scary label, in any case.
  static func isScary(_ label: String) -> Bool { Label.standard(named: label) == .scary }

  /// The second with the highest p(scary) inside a scary scene when frames are stored (ties:
  /// the earliest), else the scary scene with the highest confidence, else the first sudden
  /// scare.
  private static func strongest(
    movie: Movie, scenes: [(scene: Scene, marker: Marker)], sudden: [TimelineEvent],
    confidencesKnown: Bool
  ) -> Moment? {
    if let frames = movie.frames, !scenes.isEmpty {
      var best: (frame: FrameScore, p: Double, marker: Marker)? = nil
      var sceneIndex = 0
      for frame in frames {
        while sceneIndex < scenes.count && scenes[sceneIndex].scene.end <= frame.second {
          sceneIndex += 1
        }
        guard sceneIndex < scenes.count, scenes[sceneIndex].scene.start <= frame.second,
          let p = scaryProbability(frame), p > (best?.p ?? -1)
        else { continue }
        best = (frame, p, scenes[sceneIndex].marker)
      }
      if let best {
        let fired = best.frame.firedBy.map(signalNames) ?? best.marker.signals.map(\.rawValue)
        return Moment(
          second: best.frame.second, pScary: Rounding.probability(best.p), measure: .second,
          firedBy: fired, intensity: best.frame.intensity)
      }
    }
    if let marker = scenes.max(by: { $0.marker.confidence < $1.marker.confidence })?.marker {
      return Moment(
        second: marker.second,
        pScary: confidencesKnown ? Rounding.probability(marker.confidence) : nil,
        measure: confidencesKnown ? .sceneMean : .none, firedBy: marker.signals.map(\.rawValue),
        intensity: nil)
    }
    if let first = sudden.first {
      return Moment(
        second: first.second, pScary: nil, measure: .none, firedBy: [Signal.sudden.rawValue],
        intensity: nil)
    }
    return nil
  }

  /// A frame's p(scary), under the scary label's name in any case; nil when it has none.
  private static func scaryProbability(_ frame: FrameScore) -> Double? {
    if let p = frame.probabilities["scary"] { return p.isFinite ? p : nil }
    let key = frame.probabilities.keys.sorted().first { isScary($0) }
    return key.flatMap { frame.probabilities[$0] }.flatMap { $0.isFinite ? $0 : nil }
  }

  /// The signal names leamoji knows, in order.
  private static func signalNames(_ names: [String]) -> [String] {
    names.compactMap(Signal.init(rawValue:)).sorted().map(\.rawValue)
  }
}
