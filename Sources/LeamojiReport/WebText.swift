import LeamojiTimeline

/// Escaping for the contexts the report writes text from `MovieData.json` into. Every string a
/// catalogue holds (titles, descriptions, ids, labels, emoji, file names) goes through one of
/// these before it reaches a page; nothing is written into a page unescaped.
public enum WebText {
  /// Text content of an element: `&`, `<`, `>` as character references; control characters
  /// (other than tab and line feed) and lone surrogates dropped.
  public static func html(_ text: String) -> String {
    replacing(text) { scalar in
      switch scalar {
      case "&": return "&amp;"
      case "<": return "&lt;"
      case ">": return "&gt;"
      case "\"": return "&quot;"
      case "'": return "&#39;"
      default: return isDropped(scalar) ? "" : nil
      }
    }
  }

  /// A double-quoted attribute value (the caller writes the quotes): as `html`, which also
  /// escapes both quote characters.
  public static func attribute(_ text: String) -> String { html(text) }

  /// One path segment of a relative URL: unreserved ASCII characters (letters, digits,
  /// `-._~`) as they are, every other byte of the UTF-8 as `%XX`. A segment can then never
  /// be a scheme (`javascript:`), a query, a fragment or another folder.
  public static func urlSegment(_ text: String) -> String {
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        out += "%" + hexDigit(byte >> 4) + hexDigit(byte & 15)
      }
    }
    return out
  }

  /// A relative URL from path segments (each escaped with `urlSegment`; `..` kept as a step
  /// up), e.g. `["..", "posters", "a b.jpg"]` → `../posters/a%20b.jpg`.
  public static func relativeURL(_ segments: [String]) -> String {
    segments.map { $0 == ".." ? ".." : urlSegment($0) }.joined(separator: "/")
  }

  /// A JSON string literal (with quotes) that is also safe inside an HTML `<script>` data
  /// block and a JavaScript file: `<`, `>`, `&`, U+2028 and U+2029 are written as `\uXXXX`, so
  /// the text can never close the element or end a line of script.
  public static func jsonString(_ text: String) -> String {
    let body = replacing(text) { scalar in
      switch scalar {
      case "\"": return "\\\""
      case "\\": return "\\\\"
      case "\n": return "\\n"
      case "\r": return "\\r"
      case "\t": return "\\t"
      case "<", ">", "&", "\u{2028}", "\u{2029}": return unicodeEscape(scalar.value)
      default:
        return scalar.value < 0x20 || scalar.value == 0x7F ? unicodeEscape(scalar.value) : nil
      }
    }
    return "\"" + body + "\""
  }

  /// `text` with each scalar that `replacement` gives a string for replaced by it (an empty
  /// string drops it); the others kept.
  private static func replacing(
    _ text: String, _ replacement: (Unicode.Scalar) -> String?
  ) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      if let replaced = replacement(scalar) {
        out += replaced
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// A number for JSON or an attribute: whole numbers without a fraction, others with at most
  /// three decimals; not-a-number and infinities as 0.
  public static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 1000).rounded() / 1000
    if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int(rounded)) }
    return String(rounded)
  }

  /// `m:ss`, or `h:mm:ss` from an hour on (seconds rounded down).
  public static func clock(_ seconds: Double) -> String { TimeText.clock(seconds) }

  /// Characters no page shows: C0/C1 controls other than tab and line feed, and non-characters.
  static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value == 9 || value == 10 { return false }
    if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
    return scalar.properties.isNoncharacterCodePoint
  }

  private static func unicodeEscape(_ value: UInt32) -> String {
    let digits = (0..<4).reversed().map { hexDigit(UInt8((value >> (4 * UInt32($0))) & 15)) }
    return "\\u" + digits.joined().lowercased()
  }

  private static func hexDigit(_ value: UInt8) -> String {
    String(UnicodeScalar(value < 10 ? 48 + value : 55 + value))
  }
}
