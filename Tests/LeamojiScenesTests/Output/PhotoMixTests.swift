import LeamojiCore
import Testing

@testable import LeamojiScenes

/// Two synthetic "photos": a fine checkerboard (texture) and a smooth ramp.
private func testPhotos() -> [RGBImage] {
  var checker = RGBImage(width: 300, height: 200)
  var ramp = RGBImage(width: 120, height: 160)
  for y in 0..<checker.height {
    for x in 0..<checker.width {
      let v: UInt8 = (x / 2 + y / 2) % 2 == 0 ? 30 : 220
      for c in 0..<3 { checker.pixels[(y * checker.width + x) * 3 + c] = v }
    }
  }
  for y in 0..<ramp.height {
    for x in 0..<ramp.width {
      ramp.pixels[(y * ramp.width + x) * 3] = UInt8(x * 2)
      ramp.pixels[(y * ramp.width + x) * 3 + 1] = UInt8(y)
      ramp.pixels[(y * ramp.width + x) * 3 + 2] = 90
    }
  }
  return [checker, ramp]
}

@Suite("Photos mixed into the training scenes")
struct PhotoMixTests {
  let size = PixelSize(width: 64, height: 64)

  @Test("the same seed gives the same image; blending keeps the scene the stronger part")
  func deterministicBlend() {
    let mix = PhotoMix(photos: testPhotos(), blendShare: 1, plainShare: 0.5)
    let scene = makeScene(mood: .scary, seed: 8, size: size, set: .varied)
    let a = mix.blended(scene, seed: 8)
    #expect(a == mix.blended(scene, seed: 8))
    #expect(a != scene)
    // The scene's weight is 0.55 to 0.8: no pixel strays further than 0.45 of the full range.
    for i in a.pixels.indices {
      #expect(abs(Int(a.pixels[i]) - Int(scene.pixels[i])) <= 115)
    }
    #expect(mix.blended(scene, seed: 9) != a, "another seed draws another crop or weight")
  }

  @Test("the blend share decides how many scenes are mixed; none without photos")
  func share() {
    let scene = makeScene(mood: .happy, seed: 2, size: size, set: .varied)
    let mix = PhotoMix(photos: testPhotos(), blendShare: 0.3, plainShare: 0)
    let mixed = (0..<400).filter { mix.blended(scene, seed: UInt64($0)) != scene }.count
    #expect((80...160).contains(mixed), "about 30 % of 400: \(mixed)")
    #expect(PhotoMix(photos: testPhotos(), blendShare: 0).blended(scene, seed: 1) == scene)
    #expect(PhotoMix(photos: [], blendShare: 1).blended(scene, seed: 1) == scene)
    #expect(PhotoMix(photos: [], plainShare: 1).plainCount(perClass: 100) == 0)
    #expect(PhotoMix(photos: testPhotos(), plainShare: 0.5).plainCount(perClass: 101) == 51)
  }

  @Test("plain crops: deterministic, sized, and drawn from the photos")
  func plainCrops() {
    let mix = PhotoMix(photos: testPhotos())
    let first = mix.plain(index: 0, seed: 2018, size: size)
    #expect(first.size == size)
    #expect(first == mix.plain(index: 0, seed: 2018, size: size))
    let crops = (0..<20).map { mix.plain(index: $0, seed: 2018, size: size) }
    #expect(Set(crops.map(\.pixels)).count == 20, "every index a different crop")
    // A crop of the grey checkerboard has equal channels; one of the ramp has a blue of 90
    // scaled by the exposure gain while red and green vary: both photos are used.
    func isGrey(_ img: RGBImage) -> Bool {
      for i in stride(from: 0, to: img.pixels.count, by: 3) {
        let r = img.pixels[i]
        let g = img.pixels[i + 1]
        let b = img.pixels[i + 2]
        if r != g || g != b { return false }
      }
      return true
    }
    let grey = crops.filter(isGrey)
    #expect(!grey.isEmpty && grey.count < crops.count)
  }

  @Test("large photos are shrunk at load by box averaging")
  func shrinking() {
    var big = RGBImage(width: 2500, height: 1000, fill: RGB(10, 200, 90))
    big.pixels[0] = 255
    let small = PhotoMix(photos: [big]).photos[0]
    #expect(small.width == 833 && small.height == 333)
    #expect(small[5, 5] == RGB(10, 200, 90))
    #expect(small.pixels[0] == UInt8((255 + 8 * 10 + 4) / 9))
  }
}
