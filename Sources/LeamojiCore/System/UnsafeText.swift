/// Characters that text from outside (titles, file names, labels) must never carry to a
/// terminal as they are, and their JSON escapes. One list for the CLI, the player and the
/// timeline file.
public enum UnsafeText {
  /// True for the scalars that text from outside (file names, titles, descriptions, labels) must
  /// never bring to a terminal as they are:
  /// - C0 controls U+0000–U+001F (ESC, BEL, CR, LF, backspace, ...), DEL U+007F and C1 controls
  ///   U+0080–U+009F (U+009B is CSI, U+009D OSC on terminals that take 8-bit controls), which
  ///   start escape sequences, move the cursor or break a line;
  /// - the line and paragraph separators U+2028 and U+2029, which some programs treat as line
  ///   breaks (a one-line message must stay one line for every reader);
  /// - the bidi embedding, override and isolate controls U+202A–U+202E and U+2066–U+2069, which
  ///   make a terminal show the rest of the line in a different order than it is written (a file
  ///   named `x\u{202E}4pm.exe` shows as `xexe.mp4`).
  /// The bidi marks U+200E, U+200F and U+061C are left alone: they act like invisible letters
  /// of one direction and cannot reorder a run of text.
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  /// What an unsafe scalar is shown as.
  public static let replacement: Unicode.Scalar = "?"

  /// `text` with every unsafe scalar replaced by `replacement`; with `breaksAsSpaces`, tabs and
  /// line breaks (CR, LF, U+2028, U+2029) become spaces instead (for a picture, where a title's
  /// line break reads best as a gap).
  public static func neutralised(_ text: String, breaksAsSpaces: Bool = false) -> String {
    guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if !isUnsafe(scalar) {
        result.append(scalar)
      } else if breaksAsSpaces, ["\t", "\n", "\r", "\u{2028}", "\u{2029}"].contains(scalar) {
        result.append(" ")
      } else {
        result.append(replacement)
      }
    }
    return String(result)
  }

  /// JSON text with every unsafe scalar written as a `\uXXXX` escape. JSON only allows these
  /// inside strings, where the escape means the same character: the document decodes to the
  /// same values, and printing it (`cat MovieData.json`) cannot drive the terminal.
  /// Tabs and line breaks are left as they are: a JSON encoder escapes them inside strings,
  /// so outside strings they are the document's own layout.
  public static func jsonEscaped(_ json: String) -> String {
    func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
      isUnsafe(scalar) && scalar != "\n" && scalar != "\r" && scalar != "\t"
    }
    guard json.unicodeScalars.contains(where: needsEscape) else { return json }
    var result = String.UnicodeScalarView()
    for scalar in json.unicodeScalars {
      if needsEscape(scalar) {
        // Every unsafe scalar is in the Basic Multilingual Plane: one escape, no surrogates.
        let hex = String(scalar.value, radix: 16)
        result.append(
          contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
            .unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return String(result)
  }
}
