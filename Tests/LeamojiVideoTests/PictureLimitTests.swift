import Testing

@testable import LeamojiVideo

@Suite("Picture limit")
struct PictureLimitTests {
  @Test("DCI 8K and anything with as few pixels and no side above 16384 is allowed")
  func allowed() {
    #expect(PictureLimit.allows(width: 8192, height: 4320))
    #expect(PictureLimit.allows(width: 4320, height: 8192))
    #expect(PictureLimit.allows(width: 16384, height: 2160), "exactly the pixel limit")
    #expect(PictureLimit.allows(width: 1, height: 1))
    #expect(PictureLimit.maximumPixels == 8192 * 4320)
  }

  @Test("more pixels, a longer side, or no picture at all is refused")
  func refused() {
    #expect(!PictureLimit.allows(width: 8193, height: 4320))
    #expect(!PictureLimit.allows(width: 16385, height: 1))
    #expect(!PictureLimit.allows(width: 1, height: 16385))
    #expect(!PictureLimit.allows(width: 0, height: 120))
    #expect(!PictureLimit.allows(width: 160, height: -1))
  }
}
