import LeamojiCore
import Testing

@testable import LeamojiTerminal

@Suite("Half-block canvas")
struct HalfBlockCanvasTests {
  let red = RGB(255, 0, 0)
  let green = RGB(0, 255, 0)
  let blue = RGB(0, 0, 255)
  let white = RGB(255, 255, 255)
  let black = RGB(0, 0, 0)

  @Test("2x2 pixels → 2 cells: exact bytes of the first (full) frame")
  func tinyImageExactBytes() {
    var canvas = HalfBlockCanvas(columns: 2, rows: 1)
    let bytes = canvas.frame(picture: image([[red, green], [blue, white]]), overlay: nil)
    let expected =
      "\(E)[0m\(E)[2J"  // full redraw: default attributes, clear
      + "\(E)[1;1H"  // first cell
      + "\(E)[38;2;255;0;0;48;2;0;0;255m▀"  // upper red, lower blue
      + "\(E)[38;2;0;255;0;48;2;255;255;255m▀"  // upper green, lower white
      + "\(E)[0m"  // reset at the line end
      + "\(E)[1;1H"  // cursor parked bottom-left
    #expect(text(bytes) == expected)
  }

  @Test("a second identical frame sends nothing but the cursor parking")
  func identicalFrame() {
    var canvas = HalfBlockCanvas(columns: 3, rows: 2)
    let picture = image([
      [red, green, blue], [blue, white, red], [green, green, red], [white, blue, blue],
    ])
    _ = canvas.frame(picture: picture, overlay: nil)
    #expect(text(canvas.frame(picture: picture, overlay: nil)) == "\(E)[2;1H")
    #expect(text(canvas.frame(picture: picture, overlay: nil)) == "\(E)[2;1H")
  }

  @Test("one changed pixel re-sends exactly that one cell")
  func oneChangedPixel() {
    var canvas = HalfBlockCanvas(columns: 4, rows: 2)
    var picture = RGBImage(width: 4, height: 4, fill: RGB(10, 20, 30))
    _ = canvas.frame(picture: picture, overlay: nil)
    picture[2, 3] = RGB(200, 100, 0)  // lower half of cell (column 2, row 1)
    let bytes = canvas.frame(picture: picture, overlay: nil)
    #expect(text(bytes) == "\(E)[2;3H\(E)[38;2;10;20;30;48;2;200;100;0m▀\(E)[0m\(E)[2;1H")
  }

  @Test("unchanged runs are skipped with cursor-forward; shared colours are not re-sent")
  func skipsAndReusesColours() {
    var canvas = HalfBlockCanvas(columns: 6, rows: 1)
    var picture = image([
      [black, black, black, black, black, black], [white, white, white, white, white, white],
    ])
    _ = canvas.frame(picture: picture, overlay: nil)
    for x in [0, 1, 4] { picture[x, 0] = red }
    let bytes = canvas.frame(picture: picture, overlay: nil)
    #expect(text(bytes) == "\(E)[1;1H\(E)[38;2;255;0;0;48;2;255;255;255m▀▀\(E)[2C▀\(E)[0m\(E)[1;1H")
  }

  @Test("a cell whose halves are equal is a space on that background")
  func flatCellIsSpace() {
    var canvas = HalfBlockCanvas(columns: 2, rows: 1)
    let bytes = canvas.frame(picture: image([[red, red], [red, blue]]), overlay: nil)
    #expect(
      text(bytes)
        == "\(E)[0m\(E)[2J\(E)[1;1H\(E)[48;2;255;0;0m \(E)[38;2;255;0;0;48;2;0;0;255m▀\(E)[0m\(E)[1;1H"
    )
  }

  @Test("odd picture height: the last row's lower half is the background colour")
  func oddHeight() {
    var canvas = HalfBlockCanvas(columns: 1, rows: 2, background: RGB(9, 9, 9))
    let bytes = canvas.frame(picture: image([[red], [green], [blue]]), overlay: nil)
    let expected =
      "\(E)[0m\(E)[2J\(E)[1;1H\(E)[38;2;255;0;0;48;2;0;255;0m▀\(E)[0m"
      + "\(E)[2;1H\(E)[38;2;0;0;255;48;2;9;9;9m▀\(E)[0m\(E)[2;1H"
    #expect(text(bytes) == expected)
  }

  @Test("the picture is centred; the rest is background; reserved rows stay free")
  func centred() {
    var canvas = HalfBlockCanvas(
      columns: 4, rows: 4, reservedBottomRows: 1, background: RGB(1, 2, 3))
    var screen = ScreenModel(columns: 4, rows: 4)
    screen.apply(canvas.frame(picture: image([[red, green], [blue, white]]), overlay: nil))
    let bg = ScreenModel.Look.block(upper: RGB(1, 2, 3), lower: RGB(1, 2, 3))
    // 3 picture rows, 1 cell of picture: top = (3 - 1) / 2 = 1, left = (4 - 2) / 2 = 1.
    #expect(screen[1, 1] == .block(upper: red, lower: blue))
    #expect(screen[2, 1] == .block(upper: green, lower: white))
    for (x, y) in [(0, 0), (1, 0), (3, 0), (0, 1), (3, 1), (0, 2), (2, 2), (0, 3), (3, 3)] {
      #expect(screen[x, y] == bg)
    }
    #expect(screen.unknown.isEmpty)
  }

  @Test("a picture bigger than the area is scaled down to fit")
  func biggerPictureScaled() {
    var canvas = HalfBlockCanvas(columns: 2, rows: 1)
    var screen = ScreenModel(columns: 2, rows: 1)
    let big = image([
      [red, red, green, green], [red, red, green, green], [blue, blue, white, white],
      [blue, blue, white, white],
    ])
    screen.apply(canvas.frame(picture: big, overlay: nil))
    #expect(screen[0, 0] == .block(upper: red, lower: blue))
    #expect(screen[1, 0] == .block(upper: green, lower: white))
  }

  @Test("resize and invalidate force a full redraw starting with a clear")
  func fullRedraw() {
    var canvas = HalfBlockCanvas(columns: 2, rows: 1)
    let picture = image([[red, green], [blue, white]])
    _ = canvas.frame(picture: picture, overlay: nil)
    canvas.invalidate()
    let again = text(canvas.frame(picture: picture, overlay: nil))
    #expect(again.hasPrefix("\(E)[0m\(E)[2J") && again.filter { $0 == "▀" }.count == 2)
    canvas.resize(columns: 3, rows: 2)
    let resized = text(canvas.frame(picture: picture, overlay: nil))
    #expect(resized.hasPrefix("\(E)[0m\(E)[2J") && resized.hasSuffix("\(E)[2;1H"))
  }

  @Test("with a tolerance, small colour changes are not re-sent but larger ones are")
  func tolerance() {
    var canvas = HalfBlockCanvas(columns: 1, rows: 1, tolerance: 2)
    _ = canvas.frame(picture: image([[RGB(100, 100, 100)], [RGB(50, 50, 50)]]), overlay: nil)
    #expect(
      text(canvas.frame(picture: image([[RGB(102, 99, 100)], [RGB(50, 52, 50)]]), overlay: nil))
        == "\(E)[1;1H")
    // Compared with what is on screen (100), not with the last frame (102): 103 is 3 away.
    #expect(
      text(canvas.frame(picture: image([[RGB(103, 100, 100)], [RGB(50, 50, 50)]]), overlay: nil))
        .contains("▀"))
  }

  @Test("overlay text replaces cells; a wide emoji takes two; removing it restores the picture")
  func overlayCells() {
    var canvas = HalfBlockCanvas(columns: 5, rows: 1)
    var screen = ScreenModel(columns: 5, rows: 1)
    let picture = image([[red, red, red, red, red], [blue, blue, blue, blue, blue]])
    screen.apply(canvas.frame(picture: picture, overlay: nil))
    var overlay = OverlayLayer(columns: 5, rows: 1)
    overlay.write("A😱", row: 0, column: 1, foreground: white, background: black)
    overlay.write("z", row: 0, column: 4, foreground: white)  // no background: blended picture
    let bytes = canvas.frame(picture: picture, overlay: overlay)
    screen.apply(bytes)
    #expect(screen[0, 0] == .block(upper: red, lower: blue))
    #expect(screen[1, 0] == .character("A", foreground: white, background: black))
    #expect(screen[2, 0] == .character("😱", foreground: white, background: black))
    #expect(screen[3, 0] == .covered)
    #expect(screen[4, 0] == .character("z", foreground: white, background: RGB(127, 0, 127)))
    // After the wide character the cursor position is re-sent (its width is the terminal's call).
    #expect(text(bytes).contains("😱\(E)[1;5H"))
    screen.apply(canvas.frame(picture: picture, overlay: nil))
    for x in 0..<5 { #expect(screen[x, 0] == .block(upper: red, lower: blue)) }
    #expect(screen.unknown.isEmpty)
  }

  @Test("a wide character cut by the right edge is drawn as a space")
  func wideAtEdge() {
    var canvas = HalfBlockCanvas(columns: 2, rows: 1)
    var overlay = OverlayLayer(columns: 3, rows: 1)
    overlay.write("😱", row: 0, column: 1, foreground: white, background: black)
    var screen = ScreenModel(columns: 2, rows: 1)
    screen.apply(canvas.frame(picture: nil, overlay: overlay))
    #expect(screen[1, 0] == .block(upper: black, lower: black))
  }

  @Test("random frames and overlays: the diffs always leave the screen equal to the frame")
  func diffsMatchFullFrames() {
    var rng = SplitMix64(seed: 42)
    let columns = 7
    let rows = 4
    var canvas = HalfBlockCanvas(columns: columns, rows: rows, reservedBottomRows: 1)
    var screen = ScreenModel(columns: columns, rows: rows)
    let palette = [red, green, blue, white, black, RGB(9, 9, 9)]
    var picture = RGBImage(width: 7, height: 5)
    for step in 0..<60 {
      for _ in 0..<Int.random(in: 0...6, using: &rng) {
        picture[Int.random(in: 0..<7, using: &rng), Int.random(in: 0..<5, using: &rng)] =
          palette.randomElement(using: &rng)!
      }
      var overlay = OverlayLayer(columns: columns, rows: rows)
      if step % 3 != 0 {
        let texts = ["ab", "😱x", "中文", "▶ 0:0\(step % 10)", "q😀"]
        overlay.write(
          texts.randomElement(using: &rng)!, row: Int.random(in: 0..<rows, using: &rng),
          column: Int.random(in: -1..<columns, using: &rng), foreground: white,
          background: step % 2 == 0 ? nil : black)
      }
      if step == 30 { canvas.invalidate() }
      screen.apply(canvas.frame(picture: picture, overlay: overlay))

      var fresh = HalfBlockCanvas(columns: columns, rows: rows, reservedBottomRows: 1)
      var expected = ScreenModel(columns: columns, rows: rows)
      expected.apply(fresh.frame(picture: picture, overlay: overlay))
      #expect(screen.cells == expected.cells, "step \(step)")
    }
    #expect(screen.unknown.isEmpty)
  }

  @Test("an empty canvas sends nothing")
  func emptyCanvas() {
    var canvas = HalfBlockCanvas(columns: 0, rows: 3)
    #expect(canvas.frame(picture: image([[red]]), overlay: nil).isEmpty)
  }
}
