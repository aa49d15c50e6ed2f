import Testing

@testable import LeamojiTerminal

@Suite("Key parsing")
struct KeyParserTests {
  func keys(_ bytes: [UInt8], final: Bool = true) -> [Key] {
    KeyParser.parse(bytes, isFinal: final).keys
  }

  func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test("space, q, Q, Ctrl-C and other characters")
  func plainKeys() {
    #expect(keys(bytes(" ")) == [.space])
    #expect(keys(bytes("qQ")) == [.quit, .quit])
    #expect(keys([0x03]) == [.interrupt])
    #expect(keys(bytes("x5")) == [.character(0x78), .character(0x35)])
    #expect(keys([0x7F, 0xC3, 0xA9]) == [.unknown, .unknown, .unknown])
    #expect(keys([0x0D, 0x0A]) == [.enter, .enter])
    #expect(keys([]) == [])
  }

  @Test("arrow keys in CSI and SS3 forms, with modifiers")
  func arrows() {
    #expect(keys(bytes("\u{1B}[C")) == [.right])
    #expect(keys(bytes("\u{1B}[D")) == [.left])
    #expect(keys(bytes("\u{1B}[A\u{1B}[B")) == [.up, .down])
    #expect(keys(bytes("\u{1B}OC\u{1B}OD")) == [.right, .left])
    #expect(keys(bytes("\u{1B}[1;5C")) == [.right])  // Ctrl-→
    #expect(keys(bytes("\u{1B}[H\u{1B}[3~")) == [.unknown, .unknown])  // Home, Delete
  }

  @Test("a lone ESC is Esc once no more bytes are coming")
  func loneEscape() {
    #expect(KeyParser.parse([0x1B], isFinal: false) == ([], 0))  // wait for more
    #expect(keys([0x1B], final: true) == [.escape])
    #expect(keys([0x1B, 0x1B], final: true) == [.escape, .escape])
    #expect(keys(bytes("\u{1B}\u{1B}[D")) == [.escape, .left])
    #expect(keys(bytes("\u{1B}q")) == [.escape, .quit])  // Alt-q: both mean quit
    #expect(keys(bytes("q\u{1B}"), final: true) == [.quit, .escape])
    #expect(keys(bytes("\u{1B}"), final: true).first?.isQuit == true)
  }

  @Test("an unfinished sequence is kept until more bytes come or time runs out")
  func unfinished() {
    let first = KeyParser.parse(bytes(" \u{1B}["), isFinal: false)
    #expect(first.keys == [.space] && first.consumed == 1)
    #expect(keys(bytes("\u{1B}[C")) == [.right])  // the rest arrived
    #expect(keys(bytes("\u{1B}["), final: true) == [.escape, .character(0x5B)])
    #expect(KeyParser.parse(bytes("\u{1B}O"), isFinal: false) == ([], 0))
    #expect(keys(bytes("\u{1B}O"), final: true) == [.escape, .character(0x4F)])
  }

  @Test("mixed input and overlong sequences")
  func mixed() {
    #expect(keys(bytes("q\u{1B}[C \u{1B}[D")) == [.quit, .right, .space, .left])
    let long = bytes("\u{1B}[" + String(repeating: "1", count: 40) + "C") + bytes(" ")
    let parsed = keys(long)
    #expect(parsed.first == .unknown && parsed.last == .space && !parsed.contains(.right))
    #expect(keys(bytes("\u{1B}[\u{1}")) == [.escape, .character(0x5B), .unknown])
  }

  @Test("quit keys: q, Q, Esc and Ctrl-C")
  func quitKeys() {
    #expect([Key.quit, .escape, .interrupt].allSatisfy { $0.isQuit })
    #expect(![Key.space, .left, .right, .character(0x78), .unknown].contains { $0.isQuit })
  }
}
