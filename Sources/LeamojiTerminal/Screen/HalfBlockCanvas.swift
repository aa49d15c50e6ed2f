import LeamojiCore

/// The video drawn with 24-bit colour half blocks: each cell is `▀` with the foreground set to
/// the upper pixel and the background to the lower one, so `columns` x `rows` cells show a
/// picture of up to `columns` x `2 * rows` pixels.
///
/// The canvas keeps what the terminal currently shows (a backing buffer) and each `frame`
/// returns only the bytes for cells that changed: cursor moves over unchanged runs, colours
/// re-sent only when they differ from the previous cell's, attributes reset at each line end,
/// the cursor parked bottom-left at the end. The caller writes the buffer with one `write`.
public struct HalfBlockCanvas {
  /// Width in terminal columns.
  public private(set) var columns: Int
  /// Height in terminal rows.
  public private(set) var rows: Int
  /// Rows at the bottom kept free of the picture (e.g. for the status bar).
  public private(set) var reservedBottomRows: Int
  /// Colour around the picture and of the missing lower half when the picture's height is odd.
  public var background: RGB
  /// Largest per-channel difference of a half-block cell's colours that still counts as
  /// unchanged (0: exact). A small tolerance saves bytes on noisy video; the backing buffer
  /// keeps what is on screen, so the error never exceeds it.
  public var tolerance: Int

  /// What the terminal shows now; empty until the first frame.
  private var screen: [ScreenCell] = []
  private var needsFullRedraw = true
  private var glyphs = GlyphTable()

  /// A canvas of `columns` x `rows` cells; the first `frame` is a full redraw.
  public init(
    columns: Int, rows: Int, reservedBottomRows: Int = 0, background: RGB = RGB(0, 0, 0),
    tolerance: Int = 0
  ) {
    self.columns = max(0, columns)
    self.rows = max(0, rows)
    self.reservedBottomRows = max(0, reservedBottomRows)
    self.background = background
    self.tolerance = max(0, tolerance)
  }

  /// Rows the picture may use: `rows - reservedBottomRows`, at least 1.
  public var pictureRows: Int { max(1, rows - reservedBottomRows) }

  /// The picture size to decode to for a video of display size `display` in this canvas (see
  /// `PictureFitting.pictureSize`).
  public func pictureSize(for display: PixelSize) -> PixelSize {
    PictureFitting.pictureSize(for: display, columns: columns, rows: pictureRows)
  }

  /// The largest size with the aspect ratio of `display` that fits `columns` x `2 * rows`
  /// pixels (see `PictureFitting.pictureSize`).
  public static func pictureSize(for display: PixelSize, columns: Int, rows: Int) -> PixelSize {
    PictureFitting.pictureSize(for: display, columns: columns, rows: rows)
  }

  /// Changes the size (after SIGWINCH); the next frame is a full redraw.
  public mutating func resize(columns: Int, rows: Int, reservedBottomRows: Int? = nil) {
    self.columns = max(0, columns)
    self.rows = max(0, rows)
    if let reserved = reservedBottomRows { self.reservedBottomRows = max(0, reserved) }
    invalidate()
  }

  /// Forgets what the terminal shows: the next frame clears the screen and sends every cell.
  public mutating func invalidate() {
    needsFullRedraw = true
    screen = []
  }

  /// The bytes that turn the screen into `picture` (centred in the picture rows, scaled down
  /// by nearest neighbour if it is bigger than them) with `overlay` on top.
  ///
  /// Only cells that differ from the previous frame are sent, unless this is the first frame
  /// or a redraw after `resize`/`invalidate`. An unchanged frame gives only the cursor parking
  /// sequence. Returns nothing for an empty (0-cell) canvas.
  public mutating func frame(picture: RGBImage?, overlay: OverlayLayer?) -> [UInt8] {
    guard columns > 0, rows > 0 else { return [] }
    if glyphs.isFull {
      glyphs = GlyphTable()
      invalidate()
    }
    var next = composePicture(picture)
    if let overlay { composeOverlay(overlay, into: &next) }
    let full = needsFullRedraw || screen.count != next.count
    var out: [UInt8] = []
    out.reserveCapacity(full ? columns * rows * 24 + 64 : 256)
    if full {
      out.append(contentsOf: TerminalEscape.resetAttributes)
      out.append(contentsOf: TerminalEscape.clearScreen)
      screen = next
    }
    emitChanges(next, full: full, into: &out)
    TerminalEscape.appendCursorPosition(row: rows - 1, column: 0, to: &out)
    needsFullRedraw = false
    return out
  }

  // MARK: - Composition

  private func composePicture(_ picture: RGBImage?) -> [ScreenCell] {
    let blank = ScreenCell(
      foreground: background, background: background, glyph: ScreenCell.halfBlock)
    var cells = [ScreenCell](repeating: blank, count: columns * rows)
    guard var image = picture else { return cells }
    if image.width > columns || image.height > 2 * pictureRows {
      image = PictureFitting.nearestNeighbour(image, to: pictureSize(for: image.size))
    }
    let cellRows = (image.height + 1) / 2
    let left = (columns - image.width) / 2
    let top = (pictureRows - cellRows) / 2
    let width = image.width
    let height = image.height
    let fill = background
    image.pixels.withUnsafeBufferPointer { px in
      cells.withUnsafeMutableBufferPointer { out in
        for cellRow in 0..<cellRows {
          let upperRow = 2 * cellRow
          let hasLower = upperRow + 1 < height
          var u = upperRow * width * 3
          var l = (upperRow + 1) * width * 3
          var o = (top + cellRow) * columns + left
          for _ in 0..<width {
            let upper = RGB(px[u], px[u + 1], px[u + 2])
            let lower = hasLower ? RGB(px[l], px[l + 1], px[l + 2]) : fill
            out[o] = ScreenCell(foreground: upper, background: lower, glyph: ScreenCell.halfBlock)
            u += 3
            l += 3
            o += 1
          }
        }
      }
    }
    return cells
  }

  private mutating func composeOverlay(_ overlay: OverlayLayer, into cells: inout [ScreenCell]) {
    for row in 0..<min(rows, overlay.rows) {
      for col in 0..<min(columns, overlay.columns) {
        guard let cell = overlay[col, row] else { continue }
        let i = row * columns + col
        if cell.isContinuation {
          // Drawn by its left half; kept as the picture if that half could not be drawn.
          if col > 0, glyphs.width(of: cells[i - 1].glyph) == 2 {
            cells[i] = ScreenCell(
              foreground: cells[i - 1].foreground, background: cells[i - 1].background,
              glyph: ScreenCell.continuation)
          }
          continue
        }
        let under = cells[i]
        let fill = cell.background ?? under.blended
        let fits = cell.width < 2 || col + 1 < columns
        let glyph = glyphs.id(for: fits ? cell.character : " ")
        cells[i] = ScreenCell(foreground: cell.foreground, background: fill, glyph: glyph)
      }
    }
  }

  // MARK: - Emission

  private func unchanged(_ old: ScreenCell, _ new: ScreenCell) -> Bool {
    if old == new { return true }
    guard tolerance > 0, old.glyph == ScreenCell.halfBlock, new.glyph == ScreenCell.halfBlock
    else { return false }
    return old.foreground.isClose(to: new.foreground, within: tolerance)
      && old.background.isClose(to: new.background, within: tolerance)
  }

  private mutating func emitChanges(_ next: [ScreenCell], full: Bool, into out: inout [UInt8]) {
    var foreground: RGB? = nil  // current attributes; nil = terminal default
    var background: RGB? = nil
    var cursorRow = -1
    var cursorColumn = -1  // -1: unknown (after a character whose width the terminal decides)
    for row in 0..<rows {
      var sentOnRow = false
      for col in 0..<columns {
        let i = row * columns + col
        let cell = next[i]
        if cell.glyph == ScreenCell.continuation { continue }
        let width = glyphs.width(of: cell.glyph)
        var changed = full || !unchanged(screen[i], cell)
        if !changed, width == 2, col + 1 < columns, screen[i + 1] != next[i + 1] { changed = true }
        guard changed else { continue }

        if cursorRow != row || cursorColumn < 0 || cursorColumn > col {
          TerminalEscape.appendCursorPosition(row: row, column: col, to: &out)
        } else if cursorColumn < col {
          TerminalEscape.appendCursorForward(col - cursorColumn, to: &out)
        }
        cursorRow = row
        cursorColumn = col

        if cell.glyph == ScreenCell.halfBlock && cell.foreground == cell.background {
          // Both halves equal: a space shows just the background.
          let wantBackground = background == cell.background ? nil : cell.background
          TerminalEscape.appendColours(foreground: nil, background: wantBackground, to: &out)
          background = cell.background
          out.append(TerminalEscape.space)
          cursorColumn += 1
        } else {
          TerminalEscape.appendColours(
            foreground: foreground == cell.foreground ? nil : cell.foreground,
            background: background == cell.background ? nil : cell.background, to: &out)
          foreground = cell.foreground
          background = cell.background
          if cell.glyph == ScreenCell.halfBlock {
            out.append(contentsOf: TerminalEscape.upperHalfBlock)
            cursorColumn += 1
          } else {
            out.append(contentsOf: glyphs.bytes(of: cell.glyph))
            cursorColumn = glyphs.isASCII(cell.glyph) ? cursorColumn + 1 : -1
          }
        }
        screen[i] = cell
        if width == 2, col + 1 < columns { screen[i + 1] = next[i + 1] }
        sentOnRow = true
      }
      if sentOnRow {
        out.append(contentsOf: TerminalEscape.resetAttributes)
        foreground = nil
        background = nil
      }
    }
  }
}

/// One cell as the terminal shows it: a half block (upper / lower colour), an overlay
/// character (text / cell colour) or the right half of a 2-column character.
struct ScreenCell: Equatable {
  static let halfBlock: UInt32 = 0
  static let continuation: UInt32 = 1

  var foreground: RGB
  var background: RGB
  /// `halfBlock`, `continuation` or a `GlyphTable` id.
  var glyph: UInt32

  /// The mean of the two colours: the cell colour under text that has no background of its own.
  var blended: RGB {
    RGB(
      UInt8((Int(foreground.r) + Int(background.r)) / 2),
      UInt8((Int(foreground.g) + Int(background.g)) / 2),
      UInt8((Int(foreground.b) + Int(background.b)) / 2))
  }
}

extension RGB {
  fileprivate func isClose(to other: RGB, within tolerance: Int) -> Bool {
    abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
      && abs(Int(b) - Int(other.b)) <= tolerance
  }
}

/// Overlay characters interned as small numbers, so screen cells stay plain values that
/// compare quickly; ids 0 and 1 are the half block and the continuation cell.
struct GlyphTable {
  private var ids: [Character: UInt32] = [:]
  private var utf8: [[UInt8]] = [[], []]
  private var widths: [Int] = [1, 0]
  private var ascii: [Bool] = [true, true]

  /// More distinct characters than this: start a new table (and redraw everything).
  var isFull: Bool { utf8.count > 4096 }

  mutating func id(for character: Character) -> UInt32 {
    if let id = ids[character] { return id }
    let id = UInt32(utf8.count)
    ids[character] = id
    utf8.append(Array(String(character).utf8))
    widths.append(TextWidth.width(of: character))
    ascii.append(character.isASCII)
    return id
  }

  func bytes(of id: UInt32) -> [UInt8] { utf8[Int(id)] }
  func width(of id: UInt32) -> Int { widths[Int(id)] }
  func isASCII(_ id: UInt32) -> Bool { ascii[Int(id)] }
}
