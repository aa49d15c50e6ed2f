import LeamojiCore

/// The colours of the player's overlay: one per mood (the same as `leamoji timeline`'s mood
/// strip), plus the bar and text colours.
public enum MoodPalette {
  /// Happy: warm yellow.
  public static let happy = RGB(250, 200, 40)
  /// Neutral: grey.
  public static let neutral = RGB(140, 140, 140)
  /// Scary: dark red.
  public static let scary = RGB(150, 20, 60)
  /// Any other label: blue.
  public static let other = RGB(60, 110, 200)
  /// Timeline before the first marker (no scene yet).
  public static let none = RGB(50, 50, 50)

  /// Status bar and text boxes.
  static let bar = RGB(20, 20, 20)
  /// Ordinary overlay text.
  static let text = RGB(235, 235, 235)
  /// The playhead in the timeline strip.
  static let playhead = RGB(255, 255, 255)
  /// Messages from the player (`seek +5 s`, errors).
  static let message = RGB(255, 225, 140)

  /// The colour of a label's scenes (case-insensitive); `none` for no label.
  public static func colour(for label: String?) -> RGB {
    guard let label else { return none }
    switch label.lowercased() {
    case "happy": return happy
    case "neutral": return neutral
    case "scary": return scary
    default: return other
    }
  }

  /// Black or white, whichever reads better on `background`.
  static func textColour(on background: RGB) -> RGB {
    let luma = 299 * Int(background.r) + 587 * Int(background.g) + 114 * Int(background.b)
    return luma > 140_000 ? RGB(0, 0, 0) : RGB(255, 255, 255)
  }
}
