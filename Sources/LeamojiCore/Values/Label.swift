/// One thing the classifier can say about a picture, with everything leamoji shows for it: the
/// name (as in model files, training folders and `MovieData.json`), the emoji of timelines and
/// cues, the colour of mood strips and the player's overlay, and the letter of a plain-text
/// strip.
///
/// This is leamoji's one label vocabulary: the three standard moods, and any other label a
/// model was trained on. Every module asks it rather than keeping its own table.
public struct Label: Hashable, Sendable, CustomStringConvertible {
  /// The label as written in files, e.g. `scary`.
  public let name: String
  /// The emoji shown for it, e.g. 😱.
  public let emoji: String
  /// Its 24-bit colour in mood strips and the player's timeline.
  public let colour: RGB

  /// Bright, warm, cheerful scenes.
  public static let happy = Label(standard: "happy", emoji: "😀", colour: RGB(250, 200, 40))
  /// Ordinary, even light.
  public static let neutral = Label(standard: "neutral", emoji: "😐", colour: RGB(140, 140, 140))
  /// Dark, cold or blood-red scenes.
  public static let scary = Label(standard: "scary", emoji: "😱", colour: RGB(150, 20, 60))
  /// The standard labels in the order of the default model's outputs.
  public static let standard: [Label] = [.happy, .neutral, .scary]

  /// The emoji of a label that has none of its own.
  public static let unknownEmoji = "❔"
  /// The colour of every label that is not a standard one.
  public static let otherColour = RGB(60, 110, 200)

  /// The label called `name`. Its colour is the standard label's when the name is one of the
  /// standard names in any case (`Scary` is coloured as `scary`), else `otherColour`. Its emoji
  /// is `emoji` when given (a model file's choice), else the standard label's, else
  /// `unknownEmoji`.
  public init(name: String, emoji: String? = nil) {
    let standard = Label.standard(named: name)
    self.name = name
    self.emoji = emoji ?? standard?.emoji ?? Label.unknownEmoji
    self.colour = standard?.colour ?? Label.otherColour
  }

  private init(standard name: String, emoji: String, colour: RGB) {
    self.name = name
    self.emoji = emoji
    self.colour = colour
  }

  /// The standard label whose name is `name` ignoring case, if any.
  public static func standard(named name: String) -> Label? {
    let lower = name.lowercased()
    return standard.first { $0.name == lower }
  }

  /// The label's first character, standing for it in a strip of plain text (`?` for an empty
  /// name). Not made safe for a terminal: callers print it as they print the name.
  public var letter: Character { name.first ?? "?" }

  public var description: String { name }
}
