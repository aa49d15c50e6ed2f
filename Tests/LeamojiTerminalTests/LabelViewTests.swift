import LeamojiCore
import Testing

@testable import LeamojiTerminal

@Suite("Labelling panel")
struct LabelViewTests {
  @Test("label keys: digits for the first nine labels, letters when unique, either case")
  func labelKeys() {
    let keys = LabelKeys(labels: Label.standard, reserved: ["x", "u", "q"])
    #expect(keys.label(for: "1") == 0 && keys.label(for: "3") == 2 && keys.label(for: "4") == nil)
    #expect(keys.label(for: "s") == 2 && keys.label(for: "S") == 2 && keys.label(for: "x") == nil)
    #expect(keys.label(for: "0") == nil && keys.label(for: "u") == nil)
  }

  @Test("label letters: the first letter when unique and not a command key")
  func letters() {
    #expect(LabelView.letters(for: Label.standard, reserved: ["x", "u", "q"]) == ["h", "n", "s"])
    let labels = ["sad", "scary", "uncanny", "Happy", "Éclair"].map { Label(name: $0) }
    #expect(
      LabelView.letters(for: labels, reserved: ["x", "u", "q"]) == [nil, nil, nil, "h", nil])
  }

  @Test("the panel: heading, guess, keys and counts in the bottom rows; any width is safe")
  func layout() {
    let panel = LabelPanel(
      heading: "frame 3 of 40 · night-walk.mp4 at 0:12 · night-walk-12", guess: .scary,
      confidence: 0.413,
      choices: zip(Label.standard, ["h", "n", "s"] as [Character?]).map { ($0, $1) },
      counts: "😀 happy 1   😐 neutral 0   😱 scary 2", message: "filed Scary/night-walk-11.png",
      keys: "q quit")
    let layer = LabelView.layer(for: panel, columns: 120, rows: 40)
    #expect(layer.text(row: 35).hasPrefix(" frame 3 of 40"))
    #expect(layer.text(row: 36).contains("guess 😱 scary 41%"))
    #expect(layer.text(row: 36).contains("[1/h] 😀 happy"))
    #expect(layer.text(row: 37).contains("scary 2"))
    #expect(layer.text(row: 38).contains("filed Scary/night-walk-11.png"))
    #expect(layer.text(row: 39).contains("q quit"))
    #expect(layer[5, 10] == nil, "the picture rows stay free")
    for (columns, rows) in [(0, 0), (1, 1), (10, 3), (30, 6)] {
      let small = LabelView.layer(for: panel, columns: columns, rows: rows)
      #expect(small.columns == columns && small.rows == rows)
    }
  }
}
