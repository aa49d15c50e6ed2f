import LeamojiCore

/// A picture that carries its own frame number, robust enough to survive lossy compression and a
/// squash to 64 x 64 pixels.
///
/// The whole frame is a 4 x 4 grid of flat dark or light cells, read left to right, top to
/// bottom, most significant bit first: 16 bits = 12 bits of frame index + 4 check bits. The check
/// bits are a CRC-4 (x^4 + x + 1) of the index, XOR `0b0101` so that no codeword is all dark or
/// all light. A reader samples the centre of each cell only, so ringing at cell edges and any
/// scaling (also anamorphic) do not matter; a grey (undecidable) cell or a wrong CRC gives `nil`.
enum FrameIndexPattern {
  /// Cells per row and per column.
  static let grid = 4
  /// Bits that carry the index.
  static let indexBits = 12
  /// The largest index a frame can carry.
  static let maxIndex = (1 << indexBits) - 1

  /// The two cell colours: not the extremes, so that a wrong colour range (full vs limited)
  /// would show as a shifted level rather than being clipped away.
  static let light = RGB(215, 215, 215)
  static let dark = RGB(40, 40, 40)

  /// CRC-4 (polynomial x^4 + x + 1) of the 12 index bits, XOR 0b0101.
  static func checkBits(_ index: Int) -> Int {
    var register = 0
    for bit in stride(from: indexBits - 1, through: 0, by: -1) {
      let incoming = (index >> bit) & 1
      let top = (register >> 3) & 1
      register = (register << 1) & 0xF
      if top ^ incoming == 1 { register ^= 0b0011 }
    }
    return register ^ 0b0101
  }

  /// The 16-bit codeword of `index`: index bits first, check bits last.
  static func codeword(_ index: Int) -> Int {
    precondition(index >= 0 && index <= maxIndex, "frame index \(index) out of range")
    return (index << 4) | checkBits(index)
  }

  /// The 16 cells of `index`'s pattern, row by row from the top-left (true = light).
  static func cells(index: Int) -> [Bool] {
    let word = codeword(index)
    return (0..<grid * grid).map { cell in (word >> (grid * grid - 1 - cell)) & 1 == 1 }
  }

  /// `cells` (a 4 x 4 grid, row-major) turned `quarterTurns` * 90 degrees clockwise.
  static func rotate(cells: [Bool], quarterTurns: Int) -> [Bool] {
    var result = cells
    for _ in 0..<(((quarterTurns % 4) + 4) % 4) {
      let previous = result
      for row in 0..<grid {
        for column in 0..<grid {
          // Clockwise: the new top row is the old left column, read bottom to top.
          result[row * grid + column] = previous[(grid - 1 - column) * grid + row]
        }
      }
    }
    return result
  }

  /// A `width` x `height` picture of a 4 x 4 cell grid (true = light), built row by row.
  static func render(cells: [Bool], width: Int, height: Int) -> RGBImage {
    var pixels: [UInt8] = []
    pixels.reserveCapacity(width * height * 3)
    var rowBytes = [[UInt8]](repeating: [], count: grid)
    for row in 0..<grid {
      var bytes = [UInt8](repeating: 0, count: width * 3)
      for x in 0..<width {
        let colour = cells[row * grid + x * grid / width] ? light : dark
        bytes[x * 3] = colour.r
        bytes[x * 3 + 1] = colour.g
        bytes[x * 3 + 2] = colour.b
      }
      rowBytes[row] = bytes
    }
    for y in 0..<height { pixels.append(contentsOf: rowBytes[y * grid / height]) }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  /// The upright `width` x `height` picture of frame `index`.
  static func render(index: Int, width: Int, height: Int) -> RGBImage {
    render(cells: cells(index: index), width: width, height: height)
  }

  /// The index carried by `image`, or nil when a cell is grey or the check bits do not match.
  ///
  /// Each cell is judged by the mean of (R + G + B) / 3 over its central half (in each
  /// direction): above 160 is light, below 96 dark, anything between undecidable.
  static func frameIndex(in image: RGBImage) -> Int? {
    guard let bits = cellBits(in: image) else { return nil }
    var word = 0
    for bit in bits { word = (word << 1) | (bit ? 1 : 0) }
    let index = word >> 4
    return checkBits(index) == word & 0xF ? index : nil
  }

  /// The 16 cell values of `image` (true = light), or nil when a cell is undecidable.
  static func cellBits(in image: RGBImage) -> [Bool]? {
    var bits: [Bool] = []
    bits.reserveCapacity(grid * grid)
    for row in 0..<grid {
      for column in 0..<grid {
        let mean = centreLuma(of: image, row: row, column: column)
        if mean > 160 {
          bits.append(true)
        } else if mean < 96 {
          bits.append(false)
        } else {
          return nil
        }
      }
    }
    return bits
  }

  /// Mean of (R + G + B) / 3 over the central half of one cell.
  static func centreLuma(of image: RGBImage, row: Int, column: Int) -> Double {
    let cellW = Double(image.width) / Double(grid)
    let cellH = Double(image.height) / Double(grid)
    let x0 = Int((Double(column) + 0.25) * cellW)
    let x1 = max(x0 + 1, Int((Double(column) + 0.75) * cellW))
    let y0 = Int((Double(row) + 0.25) * cellH)
    let y1 = max(y0 + 1, Int((Double(row) + 0.75) * cellH))
    var sum = 0
    var count = 0
    for y in y0..<min(y1, image.height) {
      for x in x0..<min(x1, image.width) {
        let c = image[x, y]
        sum += Int(c.r) + Int(c.g) + Int(c.b)
        count += 3
      }
    }
    return Double(sum) / Double(max(count, 1))
  }

  /// The raw RGB24 bytes of frame `index` as stored in a file: the upright picture (of size
  /// `upright`) turned `storedQuarterTurns` * 90 degrees clockwise.
  static func storedFrameBytes(index: Int, upright: PixelSize, storedQuarterTurns: Int) -> [UInt8] {
    let stored =
      storedQuarterTurns % 2 == 0
      ? upright : PixelSize(width: upright.height, height: upright.width)
    let cells = rotate(cells: cells(index: index), quarterTurns: storedQuarterTurns)
    return render(cells: cells, width: stored.width, height: stored.height).pixels
  }

  /// The mean level of the centre of each cell, row by row: a compact fingerprint of a frame
  /// for comparing two decodes of it.
  static func cellLevels(in image: RGBImage) -> [Double] {
    (0..<grid * grid).map { centreLuma(of: image, row: $0 / grid, column: $0 % grid) }
  }
}
