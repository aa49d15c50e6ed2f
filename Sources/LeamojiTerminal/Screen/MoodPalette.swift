import LeamojiCore

/// The colours of the player's overlay: the labels' own colours (from `Label`, as in the CLI's
/// mood strip), plus the colours of the bar, the text and the stretch before the first scene.
public enum MoodPalette {
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

  /// The colour of the scenes of the label called `label` (`Label.colour`: standard names in
  /// any case, other labels blue); `none` for no label.
  public static func colour(for label: String?) -> RGB {
    label.map { Label(name: $0).colour } ?? none
  }

  /// Black or white, whichever reads better on `background`.
  static func textColour(on background: RGB) -> RGB {
    let luma = 299 * Int(background.r) + 587 * Int(background.g) + 114 * Int(background.b)
    return luma > 140_000 ? RGB(0, 0, 0) : RGB(255, 255, 255)
  }
}
