import Foundation
import LeamojiCore
import Testing

@Suite("RGBImage and PixelSize")
struct RGBImageTests {
  /// A 3x2 image whose pixels are all different: value = (x, y, x + 10 * y).
  func sample() -> RGBImage {
    var image = RGBImage(width: 3, height: 2)
    for y in 0..<2 { for x in 0..<3 { image[x, y] = RGB(UInt8(x), UInt8(y), UInt8(x + 10 * y)) } }
    return image
  }

  @Test("a clockwise quarter turn moves the top-left corner to the top-right")
  func quarterTurn() {
    let turned = sample().rotated(quarterTurns: 1)
    #expect(turned.width == 2 && turned.height == 3)
    #expect(turned[1, 0] == RGB(0, 0, 0))  // old top-left
    #expect(turned[0, 0] == RGB(0, 1, 10))  // old bottom-left
    #expect(turned[1, 2] == RGB(2, 0, 2))  // old top-right
  }

  @Test("four quarter turns, two half turns and -1 vs 3 agree")
  func turnsCompose() {
    let image = sample()
    #expect(image.rotated(quarterTurns: 4) == image)
    #expect(image.rotated(quarterTurns: 2).rotated(quarterTurns: 2) == image)
    #expect(image.rotated(quarterTurns: -1) == image.rotated(quarterTurns: 3))
    #expect(
      image.rotated(quarterTurns: 1).rotated(quarterTurns: 1) == image.rotated(quarterTurns: 2))
    #expect(image.rotated(quarterTurns: 2)[0, 0] == RGB(2, 1, 12))
  }

  @Test("sizes parse from WxH and reject nonsense")
  func parseSize() {
    #expect(PixelSize(parsing: "64x48") == PixelSize(width: 64, height: 48))
    #expect(PixelSize(parsing: "640X360") == PixelSize(width: 640, height: 360))
    for bad in ["", "64", "x64", "64x", "0x10", "-4x4", "axb", "64x48x2", "99999x10"] {
      #expect(PixelSize(parsing: bad) == nil, "\(bad)")
    }
  }
}
