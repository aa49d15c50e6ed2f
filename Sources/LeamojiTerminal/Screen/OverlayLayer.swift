import LeamojiCore

/// One cell of an overlay: a character drawn on top of the picture.
public struct OverlayCell: Equatable, Sendable {
  /// The grapheme shown; for the right half of a 2-column character, that character again.
  public var character: Character
  /// Text colour.
  public var foreground: RGB
  /// Cell colour; nil takes the colour of the picture under the cell (text "on" the video).
  public var background: RGB?
  /// True for the right half of a 2-column character (nothing is sent for it: the left half
  /// covers both columns).
  public var isContinuation: Bool
  /// Columns the character takes: 1 or 2 (0 for a continuation cell).
  public var width: Int

  public init(
    character: Character, foreground: RGB, background: RGB?, isContinuation: Bool = false,
    width: Int = 1
  ) {
    self.character = character
    self.foreground = foreground
    self.background = background
    self.isContinuation = isContinuation
    self.width = width
  }
}

/// A grid of text cells laid over the video, the same size as the canvas: empty cells show
/// the picture, filled cells replace it.
///
/// Text written here is sanitised (control characters replaced, see `TextWidth.sanitized`),
/// 2-column characters take two cells, and anything that does not fit is clipped, so a layout
/// can never write outside the grid or leave half of a wide character behind.
public struct OverlayLayer: Equatable, Sendable {
  /// Width of the grid in terminal columns.
  public let columns: Int
  /// Height of the grid in terminal rows.
  public let rows: Int
  private var cells: [OverlayCell?]

  /// An empty overlay (nothing drawn over the picture). Negative sizes count as 0.
  public init(columns: Int, rows: Int) {
    self.columns = max(0, columns)
    self.rows = max(0, rows)
    cells = Array(repeating: nil, count: self.columns * self.rows)
  }

  /// The cell at `column`, `row` (0-based); nil when empty or outside the grid.
  public subscript(column: Int, row: Int) -> OverlayCell? {
    guard contains(column: column, row: row) else { return nil }
    return cells[row * columns + column]
  }

  /// True when no cell is filled.
  public var isEmpty: Bool { !cells.contains { $0 != nil } }

  /// Writes `text` (sanitised) on `row` from `column` on, clipped to the grid; zero-width
  /// characters are dropped and a 2-column character that does not fit whole is not drawn.
  /// - Returns: the column after the text (where the next text would go).
  @discardableResult
  public mutating func write(
    _ text: String, row: Int, column: Int, foreground: RGB, background: RGB? = nil
  ) -> Int {
    var col = column
    for character in TextWidth.sanitized(text) {
      let w = TextWidth.width(of: character)
      if w == 0 { continue }
      defer { col += w }
      guard row >= 0, row < rows, col >= 0, col + w <= columns else { continue }
      let head = OverlayCell(
        character: character, foreground: foreground, background: background, width: w)
      place(head, column: col, row: row)
      if w == 2 {
        var tail = head
        tail.isContinuation = true
        tail.width = 0
        place(tail, column: col + 1, row: row)
      }
    }
    return col
  }

  /// Fills `width` cells of `row` from `column` on with spaces on `background` (a box or bar).
  public mutating func fill(row: Int, column: Int, width: Int, background: RGB) {
    guard width > 0 else { return }
    write(
      String(repeating: " ", count: width), row: row, column: column,
      foreground: background, background: background)
  }

  /// The characters of `row` as a string, empty cells as spaces (for tests and debugging).
  public func text(row: Int) -> String {
    guard row >= 0, row < rows else { return "" }
    var out = ""
    for col in 0..<columns {
      guard let cell = cells[row * columns + col] else {
        out.append(" ")
        continue
      }
      if !cell.isContinuation { out.append(cell.character) }
    }
    return out
  }

  private func contains(column: Int, row: Int) -> Bool {
    column >= 0 && column < columns && row >= 0 && row < rows
  }

  /// Puts `cell` at `column`, `row`, turning the other half of any wide character it cuts
  /// into a space with that character's colours.
  private mutating func place(_ cell: OverlayCell, column: Int, row: Int) {
    let i = row * columns + column
    if let old = cells[i] {
      if old.isContinuation, column > 0, cells[i - 1]?.width == 2 {
        cells[i - 1] = blank(like: cells[i - 1]!)
      } else if old.width == 2, column + 1 < columns, cells[i + 1]?.isContinuation == true {
        cells[i + 1] = blank(like: cells[i + 1]!)
      }
    }
    cells[i] = cell
  }

  private func blank(like cell: OverlayCell) -> OverlayCell {
    OverlayCell(character: " ", foreground: cell.foreground, background: cell.background)
  }
}
