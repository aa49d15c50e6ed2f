import LeamojiCore
import LeamojiTimeline
import Testing

@testable import LeamojiTerminal

@Suite("Overlay")
struct OverlayTests {
  let markers = [marker("happy", at: 0), marker("scary", at: 10), marker("neutral", at: 20)]

  func layer(_ status: PlayerStatus, columns: Int = 60, rows: Int = 10, title: String? = nil)
    -> OverlayLayer
  {
    PlayerOverlay(markers: markers.reversed(), duration: 30, title: title)
      .layer(for: status, columns: columns, rows: rows)
  }

  @Test("badge top-right, heads-up above the status bar, status bar on the last row")
  func layout() {
    let overlay = layer(PlayerStatus(time: 7.5, isPlaying: true))
    #expect(overlay.text(row: 0).hasSuffix(" 😀 happy "))
    #expect(TextWidth.width(of: overlay.text(row: 0)) == 60)
    #expect(overlay.text(row: 8).trimmingCharacters() == "😱 scary scene in 3 s")
    #expect(overlay.text(row: 9).hasPrefix(" ▶ 0:07 / 0:30  "))
    #expect(!overlay.text(row: 4).contains("buffering"))
    #expect(overlay.text(row: 3).trimmingCharacters().isEmpty)
  }

  @Test("a sudden scare inside a scary scene gets its own heads-up; a scene's heads-up comes first")
  func suddenHeadsUp() {
    let overlay = PlayerOverlay(
      markers: markers, duration: 30,
      events: [
        TimelineEvent(cueAt: 10, kind: "sudden", second: 15),
        TimelineEvent(cueAt: 16, kind: "sudden", second: 21),
      ])
    let inside = overlay.layer(
      for: PlayerStatus(time: 12.2, isPlaying: true), columns: 60, rows: 10)
    #expect(inside.text(row: 8).trimmingCharacters() == "⚡ sudden scare in 3 s")
    let scene = overlay.layer(for: PlayerStatus(time: 17.5, isPlaying: true), columns: 60, rows: 10)
    #expect(scene.text(row: 8).trimmingCharacters() == "😐 neutral scene in 3 s")
  }

  @Test("the timeline strip is coloured by mood and the playhead sits at the time's column")
  func strip() {
    let overlay = layer(PlayerStatus(time: 15, isPlaying: true))
    // " ▶ 0:15 / 0:30 " is 15 columns; the strip starts one later and ends before the edge.
    let start = 16
    let width = 60 - 1 - start
    #expect(width == 43)
    let colours = (0..<width).map { overlay[start + $0, 9]?.background }
    let playhead = CueLogic.playheadColumn(time: 15, duration: 30, width: width)
    #expect(playhead == 21)
    #expect(colours[playhead] == RGB(255, 255, 255))
    // Column c shows the scene at (c + 0.5) * 30 / 43 s: happy up to 13, scary 14...28.
    #expect(colours[0] == Label.happy.colour)
    #expect(colours[13] == Label.happy.colour)
    #expect(colours[14] == Label.scary.colour)
    #expect(colours[28] == Label.scary.colour)
    #expect(colours[29] == Label.neutral.colour)
    #expect(colours[42] == Label.neutral.colour)
    #expect(overlay[59, 9]?.background == RGB(20, 20, 20))
  }

  @Test("paused: ⏸ and the buffering box; seeking: the buffering box while playing")
  func buffering() {
    let paused = layer(PlayerStatus(time: 12, isPlaying: false))
    #expect(paused.text(row: 9).hasPrefix(" ⏸ 0:12 / 0:30"))
    #expect(paused.text(row: 4).trimmingCharacters() == "⏳ buffering (paused)")
    #expect(paused.text(row: 0).hasSuffix(" 😱 scary "))
    let seeking = layer(PlayerStatus(time: 12, isPlaying: true, isBuffering: true))
    #expect(seeking.text(row: 4).trimmingCharacters() == "⏳ buffering")
    #expect(seeking.text(row: 9).hasPrefix(" ▶ 0:12"))
  }

  @Test("title and message are shown, cut to fit, and cannot inject escape sequences")
  func titleAndMessage() {
    let overlay = layer(
      PlayerStatus(time: 2, isPlaying: true, message: "seek +5 s\u{1B}]0;pwned\u{7}"),
      title: "My \u{1B}[31mfilm\u{85} with a very long title that runs into the badge")
    let top = overlay.text(row: 0)
    #expect(top.hasPrefix(" My ?[31mfilm? with a very long title"))
    #expect(top.hasSuffix(" 😀 happy "))
    #expect(overlay.text(row: 1).hasPrefix(" seek +5 s?]0;pwned? "))
    for row in 0..<10 {
      #expect(!overlay.text(row: row).unicodeScalars.contains { TextWidth.isControl($0) })
    }
    var canvas = HalfBlockCanvas(columns: 60, rows: 10)
    let bytes = canvas.frame(picture: nil, overlay: overlay)
    // Every ESC in the output starts one of the canvas's own CSI sequences.
    for (i, byte) in bytes.enumerated() where byte == 0x1B {
      #expect(bytes[i + 1] == 0x5B)
      let tail = bytes[(i + 2)...].prefix { !(0x40...0x7E).contains($0) }
      #expect(tail.allSatisfy { (0x30...0x3B).contains($0) }, "\(text(Array(tail)))")
    }
    #expect(!bytes.contains(0x07) && !bytes.contains(0xC2))
  }

  @Test("tiny screens do not crash and keep the status bar")
  func tinyScreens() {
    for (columns, rows) in [(0, 0), (1, 1), (5, 1), (12, 2), (20, 3), (3, 40)] {
      let overlay = layer(
        PlayerStatus(time: 8, isPlaying: true, message: "hi"), columns: columns, rows: rows,
        title: "t")
      #expect(overlay.columns == columns && overlay.rows == rows)
      if rows > 0 && columns > 1 { #expect(overlay.text(row: rows - 1).hasPrefix(" ")) }
    }
  }

  @Test("clock: m:ss, h:mm:ss from an hour, rounded down, never negative")
  func clock() {
    #expect(PlayerOverlay.clock(0) == "0:00")
    #expect(PlayerOverlay.clock(7.99) == "0:07")
    #expect(PlayerOverlay.clock(75) == "1:15")
    #expect(PlayerOverlay.clock(600) == "10:00")
    #expect(PlayerOverlay.clock(3_723) == "1:02:03")
    #expect(PlayerOverlay.clock(-3) == "0:00")
    #expect(PlayerOverlay.clock(.infinity) == "0:00")
  }

  @Test("layer writing: wide characters take two cells, are clipped whole, halves never orphaned")
  func layerWriting() {
    var overlay = OverlayLayer(columns: 5, rows: 1)
    let white = RGB(255, 255, 255)
    #expect(overlay.isEmpty)
    let end = overlay.write("ab😱", row: 0, column: 2, foreground: white)
    #expect(end == 6)
    #expect(overlay.text(row: 0) == "  ab ")  // the emoji needs 2 columns, only 1 is left
    overlay.write("😱", row: 0, column: 0, foreground: white)
    #expect(overlay[1, 0]?.isContinuation == true && overlay[0, 0]?.width == 2)
    overlay.write("x", row: 0, column: 1, foreground: white)  // over the right half
    #expect(overlay.text(row: 0) == " xab ")
    overlay.write("中", row: 0, column: 3, foreground: white)
    overlay.write("y", row: 0, column: 3, foreground: white)  // over the left half
    #expect(overlay.text(row: 0) == " xay ")
    // Clipped on the left; the zero-width space is dropped.
    overlay.write("e\u{301}\u{200B}", row: 0, column: -1, foreground: white)
    #expect(overlay.text(row: 0) == " xay ")
    overlay.write("z", row: 5, column: 0, foreground: white)
    #expect(overlay.text(row: 5) == "")
  }

  @Test("widths: emoji and CJK 2, marks and format characters 0, the rest 1")
  func widths() {
    #expect(TextWidth.width(of: "😱") == 2)
    #expect(TextWidth.width(of: "❔") == 2)
    #expect(TextWidth.width(of: "⏳") == 2)
    #expect(TextWidth.width(of: "☹️") == 2)  // with VS16
    #expect(TextWidth.width(of: "🇫🇷") == 2)
    #expect(TextWidth.width(of: "👩‍💻") == 2)
    #expect(TextWidth.width(of: "中") == 2)
    #expect(TextWidth.width(of: "한") == 2)
    #expect(TextWidth.width(of: "▶") == 1)
    #expect(TextWidth.width(of: "⏸") == 1)
    #expect(TextWidth.width(of: "é") == 1)
    #expect(TextWidth.width(of: "a") == 1)
    #expect(TextWidth.width(of: Character("\u{200B}")) == 0)
    #expect(TextWidth.width(of: "😱 scary scene in 3 s") == 21)
  }

  @Test("sanitising replaces C0, ESC, DEL and C1; tabs and newlines become spaces")
  func sanitise() {
    #expect(TextWidth.sanitized("a\u{1B}[2Jb") == "a?[2Jb")
    #expect(TextWidth.sanitized("x\u{7F}y\u{9B}31m\u{80}") == "x?y?31m?")
    #expect(TextWidth.sanitized("one\ttwo\r\nthree\u{0}") == "one two  three?")
    #expect(TextWidth.sanitized("café 😱") == "café 😱")
    #expect(TextWidth.prefix("😱😱😱", fitting: 5) == "😱😱")
  }
}

extension String {
  /// Without leading and trailing spaces.
  func trimmingCharacters() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
