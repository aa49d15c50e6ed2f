/// The three lighting moods the default model knows.
///
/// Raw values are the lower-case label strings used in folder names, model files and
/// `MovieData.json`, so `Mood(rawValue: "scary")` round-trips with everything else in leamoji.
public enum Mood: String, CaseIterable, Codable, Hashable, Sendable, CustomStringConvertible {
  /// High-key, warm, saturated, bright, soft shadows.
  case happy
  /// Mid-key, low saturation, even light, moderate contrast.
  case neutral
  /// Low-key, dark, cold or blood-red tints, hard contrast, vignette and grain.
  case scary

  /// The class index used by the default model (`labels` order in the model file).
  public var index: Int {
    switch self {
    case .happy: return 0
    case .neutral: return 1
    case .scary: return 2
    }
  }

  public var description: String { rawValue }
}
