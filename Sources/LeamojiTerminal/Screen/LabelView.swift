import LeamojiCore

/// What the labelling screen shows at one moment (`leamoji label`, `leamoji review`): the
/// picture is drawn by the canvas, these lines go in the panel below it.
public struct LabelPanel: Equatable, Sendable {
  /// First line: where the frame is and how far along the run is, e.g.
  /// `frame 3 of 40 · night-walk.mp4 at 0:12`.
  public var heading: String
  /// The model's guess, or nil when there is none (everything decided).
  public var guess: Label?
  /// The guess's confidence (0…1).
  public var confidence: Double
  /// The label keys: the model's labels in output order (key `1` is the first), each with the
  /// letter that picks it when that letter is unique, else nil.
  public var choices: [(label: Label, letter: Character?)]
  /// Decisions per label name, in `choices` order, plus extra counts such as `skipped 2`.
  public var counts: String
  /// The last thing that happened (`filed Scary/night-walk-12.png`), or nil.
  public var message: String?
  /// The key help line.
  public var keys: String
  /// The word before the guess: `guess` (label), `timeline` (review: the stored label).
  public var guessCaption: String

  public init(
    heading: String, guess: Label?, confidence: Double,
    choices: [(label: Label, letter: Character?)],
    counts: String, message: String?, keys: String, guessCaption: String = "guess"
  ) {
    self.heading = heading
    self.guess = guess
    self.confidence = confidence
    self.choices = choices
    self.counts = counts
    self.message = message
    self.keys = keys
    self.guessCaption = guessCaption
  }

  public static func == (a: LabelPanel, b: LabelPanel) -> Bool {
    a.heading == b.heading && a.guess == b.guess && a.confidence == b.confidence
      && a.choices.map(\.label) == b.choices.map(\.label)
      && a.choices.map(\.letter) == b.choices.map(\.letter) && a.counts == b.counts
      && a.message == b.message && a.keys == b.keys && a.guessCaption == b.guessCaption
  }
}

/// Lays out the labelling screen's panel: `rows` lines at the bottom of the canvas (reserve
/// them with `reservedBottomRows` so the picture is never covered).
public enum LabelView {
  /// Rows the panel takes at the bottom of the screen.
  public static let rows = 5
  static let panelBackground = RGB(24, 24, 32)
  static let text = RGB(230, 230, 230)
  static let dim = RGB(150, 150, 160)

  /// The letters that pick a label: each label's first letter (lower case) when no other
  /// label starts with it and it is not in `reserved` (keys with another meaning, such as
  /// `x`, `u` and `q`).
  public static func letters(for labels: [Label], reserved: Set<Character>) -> [Character?] {
    LabelKeys(labels: labels, reserved: reserved).letters
  }

  /// The overlay for `panel` on a `columns` x `rows` screen.
  public static func layer(for panel: LabelPanel, columns: Int, rows: Int) -> OverlayLayer {
    var layer = OverlayLayer(columns: columns, rows: rows)
    let top = max(0, rows - Self.rows)
    for row in top..<rows {
      layer.fill(row: row, column: 0, width: columns, background: panelBackground)
    }
    layer.write(panel.heading, row: top, column: 1, foreground: text, background: panelBackground)

    var col = 1
    if let guess = panel.guess {
      col = layer.write(
        "\(panel.guessCaption) \(guess.emoji) \(guess.name) \(Int((panel.confidence * 100).rounded()))%",
        row: top + 1, column: col, foreground: text, background: panelBackground)
      col += 3
    }
    for (index, choice) in panel.choices.enumerated() where index < 9 {
      let key = "\(index + 1)" + (choice.letter.map { "/\($0)" } ?? "")
      col =
        layer.write(
          "[\(key)] \(choice.label.emoji) \(choice.label.name)", row: top + 1, column: col,
          foreground: choice.label.colour, background: panelBackground) + 2
    }
    layer.write(
      panel.counts, row: top + 2, column: 1, foreground: text, background: panelBackground)
    if let message = panel.message {
      layer.write(message, row: top + 3, column: 1, foreground: text, background: panelBackground)
    }
    layer.write(panel.keys, row: top + 4, column: 1, foreground: dim, background: panelBackground)
    return layer
  }
}

/// The keys that pick a label in `label` and `review`: `1`…`9` for the first nine labels, and
/// each label's first letter (lower or upper case) when no other label starts with it and it
/// is not one of the screen's command keys.
public struct LabelKeys: Sendable {
  /// Per label, its letter key, or nil.
  public let letters: [Character?]
  private let count: Int

  /// The keys for `labels`, leaving `reserved` (command keys such as `u` and `q`) alone.
  public init(labels: [Label], reserved: Set<Character>) {
    let firsts = labels.map { $0.name.first.map { Character($0.lowercased()) } }
    letters = firsts.map { letter in
      guard let letter, letter.isASCII, letter.isLetter, !reserved.contains(letter),
        firsts.filter({ $0 == letter }).count == 1
      else { return nil }
      return letter
    }
    count = labels.count
  }

  /// The index of the label `character` picks, or nil.
  public func label(for character: Character) -> Int? {
    if let digit = character.wholeNumberValue, (1...9).contains(digit), digit <= count {
      return digit - 1
    }
    return letters.firstIndex { $0 == Character(character.lowercased()) }
  }
}
