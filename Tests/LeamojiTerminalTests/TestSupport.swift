import LeamojiCore
import LeamojiTimeline

@testable import LeamojiTerminal

/// A clock the test moves by hand.
final class FakeClock: PlaybackClock {
  var time: Double
  init(_ time: Double = 100) { self.time = time }
  func now() -> Double { time }
  func advance(_ seconds: Double) { time += seconds }
}

/// Bytes as text, for readable expectations and failure messages.
func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// `ESC` spelled short inside expected strings.
let E = "\u{1B}"

/// A marker as `MarkerEncoder` makes them: `cueAt = max(0, second - seekAhead)`.
func marker(_ label: String, at second: Double, seekAhead: Double = 3) -> Marker {
  Marker(
    confidence: 0.9, cueAt: max(0, second - seekAhead), emoji: Label(name: label).emoji,
    label: label,
    second: second)
}

/// An image from rows of colours.
func image(_ rows: [[RGB]]) -> RGBImage {
  var pixels: [UInt8] = []
  for row in rows { for c in row { pixels += [c.r, c.g, c.b] } }
  return RGBImage(width: rows[0].count, height: rows.count, pixels: pixels)
}

/// A minimal terminal that understands exactly what the canvas sends (CUP, CUF, SGR 0 / 38;2 /
/// 48;2, ED 2, UTF-8 text, no autowrap), so tests can check what ends up on screen.
struct ScreenModel {
  /// What a cell looks like: upper and lower colour for blocks and spaces, or a character.
  enum Look: Equatable, CustomStringConvertible {
    case block(upper: RGB?, lower: RGB?)
    case character(String, foreground: RGB?, background: RGB?)
    case covered  // right half of a wide character

    var description: String {
      switch self {
      case .block(let u, let l):
        return
          "block(\(u.map { "\($0.r),\($0.g),\($0.b)" } ?? "-")/\(l.map { "\($0.r),\($0.g),\($0.b)" } ?? "-"))"
      case .character(let c, _, _): return "char(\(c))"
      case .covered: return "covered"
      }
    }
  }

  let columns: Int
  let rows: Int
  var cells: [Look]
  var row = 0
  var column = 0
  var foreground: RGB? = nil
  var background: RGB? = nil
  /// Sequences the model does not know (must stay empty).
  var unknown: [String] = []

  init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
    cells = Array(repeating: .block(upper: nil, lower: nil), count: columns * rows)
  }

  subscript(column: Int, row: Int) -> Look { cells[row * columns + column] }

  mutating func apply(_ bytes: [UInt8]) {
    var i = 0
    while i < bytes.count {
      if bytes[i] == 0x1B {
        guard i + 1 < bytes.count, bytes[i + 1] == 0x5B else {
          unknown.append("ESC")
          i += 1
          continue
        }
        var j = i + 2
        while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
        let params = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
        control(params, final: bytes[j])
        i = j + 1
        continue
      }
      let length = bytes[i] < 0x80 ? 1 : bytes[i] < 0xE0 ? 2 : bytes[i] < 0xF0 ? 3 : 4
      let scalarText = String(decoding: bytes[i..<(i + length)], as: UTF8.self)
      put(scalarText)
      i += length
    }
  }

  private mutating func control(_ params: String, final: UInt8) {
    let numbers = params.split(separator: ";", omittingEmptySubsequences: false).map {
      Int($0) ?? 0
    }
    switch final {
    case 0x48:  // H
      row = max(1, numbers.first ?? 1) - 1
      column = max(1, numbers.count > 1 ? numbers[1] : 1) - 1
    case 0x43:  // C
      column = min(columns - 1, column + max(1, params.isEmpty ? 1 : numbers[0]))
    case 0x4A where params == "2":  // J
      cells = Array(repeating: .block(upper: background, lower: background), count: columns * rows)
    case 0x6D:  // m
      var k = 0
      while k < numbers.count {
        switch numbers[k] {
        case 0:
          foreground = nil
          background = nil
          k += 1
        case 38, 48:
          let colour = RGB(UInt8(numbers[k + 2]), UInt8(numbers[k + 3]), UInt8(numbers[k + 4]))
          if numbers[k] == 38 { foreground = colour } else { background = colour }
          k += 5
        default:
          unknown.append("SGR \(numbers[k])")
          k += 1
        }
      }
    default:
      unknown.append("CSI \(params)\(Character(Unicode.Scalar(final)))")
    }
  }

  private mutating func put(_ character: String) {
    guard row < rows, column < columns else { return }
    let i = row * columns + column
    let width = TextWidth.width(of: Character(character))
    // Like real terminals: writing over either half of a wide character erases the other half.
    if cells[i] == .covered, column > 0 { cells[i - 1] = .block(upper: nil, lower: nil) }
    if case .character(let old, _, _) = cells[i], TextWidth.width(of: Character(old)) == 2,
      column + 1 < columns, cells[i + 1] == .covered
    {
      cells[i + 1] = .block(upper: nil, lower: nil)
    }
    switch character {
    case "▀": cells[i] = .block(upper: foreground, lower: background)
    case " ": cells[i] = .block(upper: background, lower: background)
    default:
      cells[i] = .character(character, foreground: foreground, background: background)
      if width == 2, column + 1 < columns { cells[i + 1] = .covered }
    }
    column = min(columns - 1, column + width)
  }
}
