/// The classifier's output for one sampled moment of a video: the input of the marker encoder.
public struct SecondScore: Equatable, Sendable {
  /// Time of the sample in seconds from the start of the video (`k * interval`).
  public var second: Double
  /// One probability per label, in the label order of the model (softmax output).
  public var probabilities: [Float]
  /// The second's sound and pace; nil for a video without sound (the picture decides alone).
  public var signals: SecondSignals?

  public init(second: Double, probabilities: [Float], signals: SecondSignals? = nil) {
    self.second = second
    self.probabilities = probabilities
    self.signals = signals
  }
}

/// One entry of a movie's emoji timeline: "from `second` on, the scene is `label`; show `emoji`
/// from `cueAt` on". The JSON keys are a contract (see docs/movie-data.md).
public struct Marker: Codable, Equatable, Sendable {
  /// Mean probability of `label` over the samples of this marker's scene, rounded to 4 decimals.
  public var confidence: Double
  /// When a player shows the emoji: `max(0, second - seekAhead)`, so it appears before the
  /// scene (the original app's `seekTime`).
  public var cueAt: Double
  /// The emoji for `label` (❔ when the model has none for it).
  public var emoji: String
  /// The (smoothed) label of the scene, e.g. `scary`.
  public var label: String
  /// Where the scene starts, in seconds (the first sample with this label).
  public var second: Double
  /// What made a scary scene scary (`picture`, `sound`, `sudden`, in that order), for videos
  /// analysed with their sound; absent otherwise and on other labels (old readers ignore it).
  public var firedBy: [String]?

  public init(
    confidence: Double, cueAt: Double, emoji: String, label: String, second: Double,
    firedBy: [String]? = nil
  ) {
    self.confidence = confidence
    self.cueAt = cueAt
    self.emoji = emoji
    self.label = label
    self.second = second
    self.firedBy = firedBy
  }

  /// The signals of `firedBy` that leamoji knows, in order.
  public var signals: [Signal] { (firedBy ?? []).compactMap(Signal.init(rawValue:)).sorted() }
}

/// Per-second probabilities as written by `analyze --frames`: the smoothed label and every
/// label's probability (rounded to 4 decimals) for one sample.
public struct FrameScore: Codable, Equatable, Sendable {
  /// Time of the sample in seconds.
  public var second: Double
  /// The label after smoothing (what the markers and mood strips show for this second).
  public var label: String
  /// Label → probability, as the classifier produced them.
  public var probabilities: [String: Double]
  /// The second's intensity (0…1, 4 decimals), for videos analysed with their sound.
  public var intensity: Double?
  /// What fired a scary second before smoothing (see `Marker.firedBy`), when anything did and
  /// the video was analysed with its sound.
  public var firedBy: [String]?

  public init(
    second: Double, label: String, probabilities: [String: Double], intensity: Double? = nil,
    firedBy: [String]? = nil
  ) {
    self.second = second
    self.label = label
    self.probabilities = probabilities
    self.intensity = intensity
    self.firedBy = firedBy
  }
}

/// Rounding used for every number the timeline writes, so that `MovieData.json` stays readable
/// (`0.9123` rather than `0.91230005025863647`) and identical inputs give identical bytes.
enum Rounding {
  /// Rounds to `decimals` places; `-0` becomes `0` and non-finite values become 0.
  static func round(_ value: Double, decimals: Int) -> Double {
    guard value.isFinite else { return 0 }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    return rounded == 0 ? 0 : rounded
  }

  /// Times are kept to the millisecond (what subtitle timestamps can express).
  static func time(_ value: Double) -> Double { round(value, decimals: 3) }

  /// Probabilities and confidences are kept to 4 decimals.
  static func probability(_ value: Double) -> Double { round(value, decimals: 4) }
}
