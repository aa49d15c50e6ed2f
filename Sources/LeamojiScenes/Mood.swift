import LeamojiCore

/// The three lighting moods the scene generator paints: the standard labels of the vocabulary
/// (`Label.standard`), which the default model is trained on.
///
/// Raw values are the labels' names (`Label.name`), as used in folder names, model files and
/// `MovieData.json`, so `Mood(rawValue: "scary")` round-trips with everything else in leamoji.
public enum Mood: CaseIterable, Codable, Hashable, Sendable, RawRepresentable,
  CustomStringConvertible
{
  /// High-key, warm, saturated, bright, soft shadows.
  case happy
  /// Mid-key, low saturation, even light, moderate contrast.
  case neutral
  /// Low-key, dark, cold or blood-red tints, hard contrast, vignette and grain.
  case scary

  /// The mood's label in the vocabulary: its name, emoji and colour.
  public var label: Label {
    switch self {
    case .happy: return .happy
    case .neutral: return .neutral
    case .scary: return .scary
    }
  }

  /// The mood whose label is called `rawValue` (exactly, in lower case).
  public init?(rawValue: String) {
    guard let mood = Mood.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
    self = mood
  }

  /// The label's name, e.g. `scary`.
  public var rawValue: String { label.name }

  /// The class index used by the default model: the label's place in `Label.standard`.
  public var index: Int { Label.standard.firstIndex(of: label)! }

  public var description: String { rawValue }
}
