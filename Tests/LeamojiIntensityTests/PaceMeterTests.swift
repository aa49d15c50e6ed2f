import LeamojiCore
import Testing

@testable import LeamojiIntensity

@Suite("Pace meter")
struct PaceMeterTests {
  /// A 32×24 scene: a diagonal gradient in `base`'s hues, plus `offset` on every channel.
  func scene(_ base: RGB, offset: Int = 0) -> RGBImage {
    var image = RGBImage(width: 32, height: 24)
    for y in 0..<24 {
      for x in 0..<32 {
        func channel(_ c: UInt8) -> UInt8 {
          UInt8(clamping: Int(c) * (x + y + 8) / 62 + offset)
        }
        image[x, y] = RGB(channel(base.r), channel(base.g), channel(base.b))
      }
    }
    return image
  }

  @Test("the first sample has no motion; a hard cut is a cut; a slight brightening is not")
  func cuts() {
    var meter = PaceMeter()
    let day = scene(RGB(250, 220, 120))
    #expect(meter.measure(day) == PaceSecond(motion: 0, change: 0))
    let brighter = meter.measure(scene(RGB(250, 220, 120), offset: 5))
    #expect(!brighter.isCut, "\(brighter)")
    #expect(brighter.motion > 0.015 && brighter.motion < 0.025)
    let night = meter.measure(scene(RGB(30, 40, 200)))
    #expect(night.isCut && night.change > 0.8, "\(night)")
    #expect(meter.measure(scene(RGB(30, 40, 200))) == PaceSecond(motion: 0, change: 0))
  }

  @Test("a picture of another size counts as a cut")
  func otherSize() {
    var meter = PaceMeter()
    _ = meter.measure(RGBImage(width: 4, height: 4))
    let next = meter.measure(RGBImage(width: 8, height: 4))
    #expect(next.isCut && next.motion == 1)
  }

  @Test("motion is the mean luma difference: black to white is 1")
  func motion() {
    var meter = PaceMeter()
    _ = meter.measure(RGBImage(width: 4, height: 4, fill: RGB(0, 0, 0)))
    let white = meter.measure(RGBImage(width: 4, height: 4, fill: RGB(255, 255, 255)))
    #expect(abs(white.motion - 1) < 1e-12 && white.change == 1)
  }
}
