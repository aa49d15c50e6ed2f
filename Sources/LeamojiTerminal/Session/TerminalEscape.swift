import LeamojiCore

/// The ANSI / xterm control sequences the player sends, in one place, as bytes.
///
/// Everything the terminal module writes to the screen is built from these constants and the
/// `append…` helpers below, so no escape string is spelled out anywhere else.
public enum TerminalEscape {
  /// The ESC byte that starts every control sequence.
  public static let escape: UInt8 = 0x1B
  /// Control Sequence Introducer, `ESC [`.
  static let csi: [UInt8] = [0x1B, 0x5B]

  /// `ESC[0m`: default colours and attributes.
  public static let resetAttributes: [UInt8] = csi + Array("0m".utf8)
  /// `ESC[2J`: clears the whole screen (with the current, i.e. default, background).
  public static let clearScreen: [UInt8] = csi + Array("2J".utf8)
  /// `ESC[?25l`: hides the cursor.
  public static let hideCursor: [UInt8] = csi + Array("?25l".utf8)
  /// `ESC[?25h`: shows the cursor.
  public static let showCursor: [UInt8] = csi + Array("?25h".utf8)
  /// `ESC[?1049h`: switches to the alternate screen, saving the shell's screen and cursor.
  public static let enterAlternateScreen: [UInt8] = csi + Array("?1049h".utf8)
  /// `ESC[?1049l`: back to the normal screen, restoring what the shell showed.
  public static let leaveAlternateScreen: [UInt8] = csi + Array("?1049l".utf8)
  /// `ESC[?7l`: no automatic wrap at the right margin, so a cell in the last column never
  /// scrolls the screen.
  public static let disableAutowrap: [UInt8] = csi + Array("?7l".utf8)
  /// `ESC[?7h`: automatic wrap back on (the terminal default).
  public static let enableAutowrap: [UInt8] = csi + Array("?7h".utf8)

  /// `▀` (U+2580 UPPER HALF BLOCK) in UTF-8: foreground paints the upper half of the cell,
  /// background the lower half.
  public static let upperHalfBlock: [UInt8] = [0xE2, 0x96, 0x80]
  /// A space: only the background colour shows, used when both halves of a cell are equal.
  static let space: UInt8 = 0x20

  /// What a session sends when it starts: alternate screen, no cursor, no autowrap, a clean page.
  public static let sessionStart: [UInt8] =
    enterAlternateScreen + hideCursor + disableAutowrap + resetAttributes + clearScreen
  /// What a session sends when it ends: default attributes, autowrap, cursor, normal screen.
  public static let sessionEnd: [UInt8] =
    resetAttributes + enableAutowrap + showCursor + leaveAlternateScreen

  /// The decimal digits of 0...255, so colours are appended without building strings.
  private static let decimal: [[UInt8]] = (0...255).map { Array(String($0).utf8) }

  /// Appends `value` (>= 0) in decimal.
  static func appendNumber(_ value: Int, to out: inout [UInt8]) {
    if value >= 0 && value < 256 {
      out.append(contentsOf: decimal[value])
    } else {
      out.append(contentsOf: String(max(0, value)).utf8)
    }
  }

  /// Appends `ESC[row;columnH` (CUP). `row` and `column` are 0-based here, 1-based on the wire.
  static func appendCursorPosition(row: Int, column: Int, to out: inout [UInt8]) {
    out.append(contentsOf: csi)
    appendNumber(row + 1, to: &out)
    out.append(0x3B)  // ;
    appendNumber(column + 1, to: &out)
    out.append(0x48)  // H
  }

  /// Appends `ESC[nC` (CUF, cursor forward by `count` columns; `ESC[C` for one).
  static func appendCursorForward(_ count: Int, to out: inout [UInt8]) {
    out.append(contentsOf: csi)
    if count != 1 { appendNumber(count, to: &out) }
    out.append(0x43)  // C
  }

  /// Appends one SGR sequence setting the 24-bit foreground and/or background:
  /// `ESC[38;2;r;g;bm`, `ESC[48;2;r;g;bm` or both joined as `ESC[38;2;r;g;b;48;2;r;g;bm`.
  /// Appends nothing when both are nil.
  static func appendColours(foreground: RGB?, background: RGB?, to out: inout [UInt8]) {
    guard foreground != nil || background != nil else { return }
    out.append(contentsOf: csi)
    if let fg = foreground {
      out.append(contentsOf: [0x33, 0x38, 0x3B, 0x32, 0x3B])  // 38;2;
      appendRGB(fg, to: &out)
      if background != nil { out.append(0x3B) }
    }
    if let bg = background {
      out.append(contentsOf: [0x34, 0x38, 0x3B, 0x32, 0x3B])  // 48;2;
      appendRGB(bg, to: &out)
    }
    out.append(0x6D)  // m
  }

  private static func appendRGB(_ colour: RGB, to out: inout [UInt8]) {
    out.append(contentsOf: decimal[Int(colour.r)])
    out.append(0x3B)
    out.append(contentsOf: decimal[Int(colour.g)])
    out.append(0x3B)
    out.append(contentsOf: decimal[Int(colour.b)])
  }
}
