import LeamojiCore
import LeamojiTimeline
import Testing

@testable import LeamojiTerminal

@Suite("TerminalSafety: overlay text from files")
struct TerminalSafetyOverlayTests {
  @Test(
    "unsafe scalars: C0, DEL, C1, line/paragraph separators, bidi embeddings, overrides and isolates"
  )
  func unsafeScalars() {
    let unsafe: [UInt32] =
      [0x00, 0x07, 0x0A, 0x0D, 0x1B, 0x1F, 0x7F, 0x80, 0x85, 0x9B, 0x9D, 0x9F, 0x2028, 0x2029]
      + Array(0x202A...0x202E) + Array(0x2066...0x2069)
    for value in unsafe {
      #expect(TextWidth.isUnsafe(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
    // Printable text, bidi marks (invisible letters of one direction), joiners and emoji stay.
    let kept: [UInt32] = [
      0x20, 0x41, 0x7E, 0xA0, 0xE9, 0x061C, 0x200B, 0x200D, 0x200E, 0x200F, 0x2027, 0x202F, 0x2065,
      0x206A, 0xFE0F, 0x1F631,
    ]
    for value in kept {
      #expect(!TextWidth.isUnsafe(Unicode.Scalar(value)!), "U+\(String(value, radix: 16))")
    }
  }

  @Test("sanitising replaces bidi controls with ? and line/paragraph separators with spaces")
  func sanitiseBidi() {
    #expect(TextWidth.sanitized("a\u{202E}gpj.exe") == "a?gpj.exe")
    #expect(
      TextWidth.sanitized("\u{202A}\u{202B}\u{202C}\u{202D}\u{2066}\u{2067}\u{2068}\u{2069}")
        == "????????")
    #expect(TextWidth.sanitized("one\u{2028}two\u{2029}three") == "one two three")
    #expect(TextWidth.sanitized("שלום\u{200F} abc") == "שלום\u{200F} abc")
    #expect(TextWidth.width(of: Character("\u{202E}")) == 1, "drawn as the replacement")
  }

  @Test("a hostile title, label and emoji reach the screen only neutralised")
  func hostileOverlayBytes() {
    let markers = [
      Marker(
        confidence: 1, cueAt: 0, emoji: "\u{1B}]0;badge\u{07}", label: "hap\u{9B}2Jpy\u{202E}",
        second: 0),
      Marker(
        confidence: 1, cueAt: 0, emoji: "😱\u{2066}", label: "sc\u{1B}[2Jary\u{2028}x", second: 4),
    ]
    let overlay = PlayerOverlay(
      markers: markers, duration: 10,
      title: "\u{1B}]0;owned\u{07}\u{1B}[2J T \u{202E}evil\u{2029}end"
    ).layer(for: PlayerStatus(time: 1, isPlaying: true), columns: 80, rows: 12)
    let top = overlay.text(row: 0)
    #expect(top.hasPrefix(" ?]0;owned??[2J T ?evil end "), "\(top)")
    #expect(top.hasSuffix(" ?]0;badge? hap?2Jpy? "), "\(top)")
    #expect(overlay.text(row: 10).trimmingCharacters() == "😱? sc?[2Jary x scene in 3 s")

    var canvas = HalfBlockCanvas(
      columns: 80, rows: 12, reservedBottomRows: PlayerOverlay.statusRows)
    let bytes = canvas.frame(picture: nil, overlay: overlay)
    let shown = String(decoding: bytes, as: UTF8.self)
    #expect(shown.contains("?]0;owned??[2J T ?evil end"))
    #expect(!bytes.contains(0x07), "no BEL")
    for scalar in shown.unicodeScalars {
      let v = scalar.value
      let forbidden =
        (0x80...0x9F).contains(v) || v == 0x7F || (v < 0x20 && v != 0x1B)
        || [0x2028, 0x2029].contains(v) || (0x202A...0x202E).contains(v)
        || (0x2066...0x2069).contains(v)
      #expect(!forbidden, "U+\(String(v, radix: 16)) sent to the terminal")
    }
    // Every ESC starts one of the canvas's own CSI sequences (parameters, then a final byte).
    for (i, byte) in bytes.enumerated() where byte == 0x1B {
      #expect(i + 1 < bytes.count && bytes[i + 1] == 0x5B, "ESC not followed by [ at \(i)")
      let tail = bytes[(i + 2)...].prefix { !(0x40...0x7E).contains($0) }
      #expect(tail.allSatisfy { (0x30...0x3F).contains($0) }, "\(text(Array(tail)))")
    }
  }
}
