/// A key press, as far as the player cares.
public enum Key: Equatable, Sendable {
  /// Space: pause / resume.
  case space
  /// `q` or `Q`: quit.
  case quit
  /// A lone Esc: quit.
  case escape
  /// Ctrl-C arriving as a byte (0x03), when the terminal does not turn it into SIGINT.
  case interrupt
  /// Enter or Return (CR, or LF from terminals that send it): accept, in the labelling view.
  case enter
  /// Arrow keys (`ESC [ A`…`D` or `ESC O A`…`D`, modifiers ignored).
  case up, down, right, left
  /// Any other printable ASCII character.
  case character(UInt8)
  /// Anything else: other control bytes, other escape sequences, non-ASCII bytes.
  case unknown

  /// True for the keys that end playback: q, Q, Esc and Ctrl-C.
  public var isQuit: Bool { self == .quit || self == .escape || self == .interrupt }
}

/// Turns raw terminal input bytes into keys: a pure function, tested on byte sequences.
///
/// An ESC byte is ambiguous: the Esc key alone, or the start of a sequence such as `ESC [ C`
/// (→). When the bytes end inside a possible sequence, `parse` leaves them unconsumed unless
/// `isFinal` is set — the session waits a few milliseconds for more bytes and, if none come,
/// parses again with `isFinal: true`, which reads the lone ESC as Esc.
public enum KeyParser {
  static let esc: UInt8 = 0x1B
  static let csiIntroducer: UInt8 = 0x5B  // [
  static let ss3Introducer: UInt8 = 0x4F  // O
  /// Longest control sequence accepted; longer ones are dropped as `.unknown`.
  static let maximumSequenceLength = 32

  /// The keys in `bytes`.
  /// - Parameters:
  ///   - bytes: input as read from the terminal.
  ///   - isFinal: true when no more bytes are coming soon, so a trailing ESC (or an unfinished
  ///     `ESC [` / `ESC O`) is a key of its own.
  /// - Returns: the keys and how many bytes they used; unused bytes (an unfinished escape
  ///   sequence, only when `isFinal` is false) should be kept for the next call.
  public static func parse(_ bytes: [UInt8], isFinal: Bool) -> (keys: [Key], consumed: Int) {
    var keys: [Key] = []
    var i = 0
    while i < bytes.count {
      let byte = bytes[i]
      guard byte == esc else {
        keys.append(plainKey(byte))
        i += 1
        continue
      }
      switch sequence(in: bytes, at: i) {
      case .complete(let key, let length):
        keys.append(key)
        i += length
      case .incomplete where !isFinal:
        return (keys, i)
      case .incomplete, .loneEscape:
        // A lone Esc; whatever follows is read as keys of its own.
        keys.append(.escape)
        i += 1
      }
    }
    return (keys, i)
  }

  private enum Sequence {
    case complete(Key, length: Int)
    case incomplete
    case loneEscape
  }

  /// Reads the escape sequence starting at `bytes[start]` (an ESC).
  private static func sequence(in bytes: [UInt8], at start: Int) -> Sequence {
    let introducer = start + 1
    guard introducer < bytes.count else { return .incomplete }
    switch bytes[introducer] {
    case csiIntroducer:
      // ESC [ parameters (0x30–0x3F) intermediates (0x20–0x2F) final (0x40–0x7E)
      var j = introducer + 1
      while j < bytes.count {
        let b = bytes[j]
        if j - start >= maximumSequenceLength { return .complete(.unknown, length: j - start) }
        if (0x40...0x7E).contains(b) { return .complete(arrow(b), length: j - start + 1) }
        guard (0x20...0x3F).contains(b) else { return .loneEscape }
        j += 1
      }
      return .incomplete
    case ss3Introducer:
      let j = introducer + 1
      guard j < bytes.count else { return .incomplete }
      guard (0x40...0x7E).contains(bytes[j]) else { return .loneEscape }
      return .complete(arrow(bytes[j]), length: 3)
    default:
      return .loneEscape
    }
  }

  private static func arrow(_ final: UInt8) -> Key {
    switch final {
    case 0x41: return .up  // A
    case 0x42: return .down  // B
    case 0x43: return .right  // C
    case 0x44: return .left  // D
    default: return .unknown
    }
  }

  private static func plainKey(_ byte: UInt8) -> Key {
    switch byte {
    case 0x20: return .space
    case 0x71, 0x51: return .quit  // q, Q
    case 0x03: return .interrupt
    case 0x0D, 0x0A: return .enter
    case 0x21...0x7E: return .character(byte)
    default: return .unknown
    }
  }
}
