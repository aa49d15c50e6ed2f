/// What can make a second scary: the picture model, the film's intensity (sound and pace), or a
/// sudden scare. Written, in this order, in a scary marker's `firedBy` (docs/movie-data.md).
public enum Signal: String, CaseIterable, Comparable, Codable, Sendable {
  /// The picture's p(scary) reached the sensitivity's threshold.
  case picture
  /// The picture's p(scary) and the second's intensity together reached the fused threshold.
  case sound
  /// A steep rise of loudness with a sharp change of picture in the same second.
  case sudden

  public static func < (a: Signal, b: Signal) -> Bool {
    allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
  }
}

extension Signal {
  /// The mark shown beside a cue this signal fired: 👂 for sound, ⚡ for a sudden scare; the
  /// picture, the usual case, has none.
  public var badge: String? {
    switch self {
    case .picture: nil
    case .sound: "👂"
    case .sudden: "⚡"
    }
  }
}

extension Marker {
  /// The badges of the signals that fired this marker (`👂`, `⚡`, both, or "").
  public var badges: String { signals.compactMap(\.badge).joined() }

  /// `picture + sound`, or nil when the marker does not say.
  public var firedByText: String? {
    let names = signals.map(\.rawValue)
    return names.isEmpty ? nil : names.joined(separator: " + ")
  }
}

/// What is known of one sampled second besides the picture: computed from its sound and pace
/// (`LeamojiIntensity`), nil for a video without sound.
public struct SecondSignals: Equatable, Sendable {
  /// How intense the second is, 0 (quiet, still) to 1 (as loud and busy as the film gets).
  public var intensity: Double
  /// A sudden scare starts in this second.
  public var sudden: Bool

  public init(intensity: Double, sudden: Bool = false) {
    self.intensity = intensity
    self.sudden = sudden
  }
}

/// How the picture's p(scary) and a second's signals combine into "scary", and which signals
/// may fire at all (`analyze --signals`). Its numbers come from the model card (tuned on the
/// footage check set), or `standard` for a model whose card has none.
///
/// The rule, per second with scary probability p, intensity i and threshold t (the
/// sensitivity's): *picture* fires when p ≥ t; *sound* fires when
/// (1 − soundWeight)·p + soundWeight·i ≥ t + soundMargin and p ≥ pictureFloor; *sudden* fires
/// on a sudden second and on the one after it (a sudden scare is a scene of its own, at least
/// as long as the shortest scene the smoother keeps at 1 s intervals).
public struct SignalFusion: Equatable, Sendable {
  /// The signals allowed to fire.
  public var signals: Set<Signal>
  /// The weight of intensity in the fused score, 0…1.
  public var soundWeight: Double
  /// How far above the sensitivity's threshold the fused score must reach.
  public var soundMargin: Double
  /// The least picture p(scary) with which sound may fire: loud football is not a warning.
  public var pictureFloor: Double

  public init(
    signals: Set<Signal> = Set(Signal.allCases), soundWeight: Double, soundMargin: Double,
    pictureFloor: Double
  ) {
    self.signals = signals
    self.soundWeight = min(1, max(0, soundWeight))
    self.soundMargin = soundMargin
    self.pictureFloor = pictureFloor
  }

  /// The picture alone: today's timeline, whatever the signals say.
  public static let pictureOnly = SignalFusion(
    signals: [.picture], soundWeight: 0, soundMargin: 0, pictureFloor: 0)

  /// The rule a model without fusion settings in its card uses (docs/intensity.md says why).
  public static let standard = SignalFusion(soundWeight: 0.5, soundMargin: 0.2, pictureFloor: 0.3)

  /// Which signals fire for one second with scary probability `p`: `pictureFires` is the
  /// picture's own verdict (the encoder's label rule), `threshold` the sensitivity's, and
  /// `previousSudden` whether the second before was sudden.
  func fired(
    p: Double, pictureFires: Bool, threshold: Double, signals second: SecondSignals?,
    previousSudden: Bool
  ) -> Set<Signal> {
    var fired: Set<Signal> = []
    if signals.contains(.picture), pictureFires { fired.insert(.picture) }
    guard let second else { return fired }
    let fused = (1 - soundWeight) * p + soundWeight * second.intensity
    if signals.contains(.sound), p >= pictureFloor, fused >= threshold + soundMargin {
      fired.insert(.sound)
    }
    if signals.contains(.sudden), second.sudden || previousSudden { fired.insert(.sudden) }
    return fired
  }
}

/// A moment of the timeline that is not a scene: a sudden scare. `play` shows ⚡ from `cueAt`.
public struct TimelineEvent: Codable, Equatable, Sendable {
  /// When a player shows the event's cue: `max(0, second - seekAhead)`.
  public var cueAt: Double
  /// What happens: `sudden` (a jump scare).
  public var kind: String
  /// The second the event happens in.
  public var second: Double

  public init(cueAt: Double, kind: String, second: Double) {
    self.cueAt = cueAt
    self.kind = kind
    self.second = second
  }

  /// The kind of a sudden scare.
  public static let sudden = "sudden"
}
