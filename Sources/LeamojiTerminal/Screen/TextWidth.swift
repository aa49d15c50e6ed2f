import LeamojiCore

/// How many terminal columns text takes, and how to make outside text safe to print.
///
/// The rule is the simple East Asian Width one most terminals follow: emoji with emoji
/// presentation (😱, ⏳), anything followed by the emoji variation selector U+FE0F, flags and
/// CJK / Hangul / full-width forms take two columns; marks and format characters (zero-width
/// joiner, bidi marks, soft hyphen) on their own take none; everything else takes one, including
/// the characters `sanitized` replaces (bidi controls among them).
public enum TextWidth {
  /// What a control character is replaced with.
  public static let replacement = UnsafeText.replacement

  /// Columns taken by one grapheme cluster: 0, 1 or 2.
  public static func width(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if isUnsafe(first) { return 1 }  // printed as `replacement` (or a space) once sanitised
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
    if isRegionalIndicator(first) { return 2 }
    if first.properties.isEmojiPresentation || isWideRange(first.value) { return 2 }
    return 1
  }

  /// Columns taken by `text` (the sum over its grapheme clusters).
  public static func width(of text: String) -> Int {
    text.reduce(0) { $0 + width(of: $1) }
  }

  /// `text` with every scalar that `isUnsafe` names replaced — C0 controls (U+0000–U+001F, ESC
  /// included), DEL (U+007F), C1 controls (U+0080–U+009F), the line and paragraph separators and
  /// the bidi embedding, override and isolate controls — so text from outside (titles, labels,
  /// messages) can never inject an escape sequence or reorder what is shown around it. Tabs and
  /// line breaks (CR, LF, U+2028, U+2029) become spaces; the rest become `replacement`.
  public static func sanitized(_ text: String) -> String {
    UnsafeText.neutralised(text, breaksAsSpaces: true)
  }

  /// The longest prefix of `text` (sanitised) that fits in `columns` terminal columns, cut
  /// plainly (no ellipsis) so that layouts can rely on the width.
  public static func prefix(_ text: String, fitting columns: Int) -> String {
    var used = 0
    var out = ""
    for character in sanitized(text) {
      let w = width(of: character)
      if used + w > columns { break }
      used += w
      out.append(character)
    }
    return out
  }

  /// True for C0 controls, DEL and C1 controls.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value <= 0x9F)
  }

  /// Whether `scalar` must not reach a terminal as it is (see `UnsafeText.isUnsafe`).
  public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool { UnsafeText.isUnsafe(scalar) }

  private static func isRegionalIndicator(_ scalar: Unicode.Scalar) -> Bool {
    (0x1F1E6...0x1F1FF).contains(scalar.value)
  }

  /// Wide (W) and full-width (F) blocks outside the emoji: CJK, Hangul, kana, full-width forms.
  private static func isWideRange(_ v: UInt32) -> Bool {
    switch v {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
      0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
      return true
    default:
      return false
    }
  }
}
