import LeamojiCore
import Testing

@testable import LeamojiTerminal

@Suite("Picture fitting")
struct PictureFittingTests {
  func fit(_ w: Int, _ h: Int, _ columns: Int, _ rows: Int) -> PixelSize {
    HalfBlockCanvas.pictureSize(for: PixelSize(width: w, height: h), columns: columns, rows: rows)
  }

  @Test("16:9 in 120x40 cells (120x80 square pixels) is width-bound: 120x68")
  func wideVideo() {
    // 120 / 16 * 9 = 67.5 pixel rows; the nearest even height is 68 (34 cell rows).
    #expect(fit(1280, 720, 120, 40) == PixelSize(width: 120, height: 68))
    #expect(fit(1920, 1080, 120, 40) == PixelSize(width: 120, height: 68))
    // With the status bar's row kept free: 39 rows, still width-bound.
    #expect(fit(1280, 720, 120, 39) == PixelSize(width: 120, height: 68))
  }

  @Test("a tall window makes 16:9 height-bound; 4:3 in 80x24 is 64x48")
  func heightBound() {
    #expect(fit(1280, 720, 200, 20) == PixelSize(width: 71, height: 40))
    #expect(fit(640, 480, 80, 24) == PixelSize(width: 64, height: 48))
  }

  @Test("portrait video: 9:16 in 120x40 is 45x80, centred with black bars")
  func portrait() {
    #expect(fit(720, 1280, 120, 40) == PixelSize(width: 45, height: 80))
  }

  @Test("tiny windows and odd inputs still give a drawable size")
  func tiny() {
    #expect(fit(1280, 720, 1, 1) == PixelSize(width: 1, height: 2))
    #expect(fit(1280, 720, 3, 1) == PixelSize(width: 3, height: 2))
    #expect(fit(1280, 720, 0, 0) == PixelSize(width: 1, height: 2))
    #expect(fit(1, 1000, 120, 40) == PixelSize(width: 1, height: 80))
    #expect(fit(0, 0, 10, 5) == PixelSize(width: 10, height: 10))
  }

  @Test("small videos are scaled up to fill the space")
  func upscale() {
    #expect(fit(16, 9, 120, 40) == PixelSize(width: 120, height: 68))
  }

  @Test("always within bounds, height even, aspect kept to within a pixel")
  func properties() {
    var rng = SplitMix64(seed: 7)
    for _ in 0..<2000 {
      let w = Int.random(in: 1...4000, using: &rng)
      let h = Int.random(in: 1...4000, using: &rng)
      let columns = Int.random(in: 1...300, using: &rng)
      let rows = Int.random(in: 1...100, using: &rng)
      let size = fit(w, h, columns, rows)
      #expect(size.width >= 1 && size.width <= columns)
      #expect(size.height >= 2 && size.height <= 2 * rows && size.height % 2 == 0)
      // One side touches the limit; the other is the exact value rounded (width to the
      // nearest integer, height to the nearest even integer), unless clamped to the minimum.
      #expect(size.width == columns || size.height == 2 * rows)
      let scale = min(Double(columns) / Double(w), Double(2 * rows) / Double(h))
      let exactWidth = Double(w) * scale
      let exactHeight = Double(h) * scale
      #expect(abs(exactWidth - Double(size.width)) <= 0.5 + 1e-9 || size.width == 1)
      #expect(abs(exactHeight - Double(size.height)) <= 1 + 1e-9 || size.height == 2)
    }
  }

  @Test("nearest-neighbour scaling picks the pixel under each target pixel's centre")
  func nearestNeighbour() {
    let a = RGB(1, 1, 1)
    let b = RGB(2, 2, 2)
    let c = RGB(3, 3, 3)
    let d = RGB(4, 4, 4)
    let source = image([[a, a, b, b], [a, a, b, b], [c, c, d, d], [c, c, d, d]])
    #expect(
      PictureFitting.nearestNeighbour(source, to: PixelSize(width: 2, height: 2))
        == image([[a, b], [c, d]]))
    #expect(PictureFitting.nearestNeighbour(source, to: source.size) == source)
  }
}
