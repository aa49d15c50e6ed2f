import LeamojiCore
import Testing

@testable import LeamojiScenes

@Suite("Mood scenes")
struct MoodSceneTests {
  static let small = PixelSize(width: 64, height: 64)

  @Test("the same mood and seed give identical pixels", arguments: Mood.allCases)
  func deterministic(mood: Mood) {
    for seed: UInt64 in [0, 1, 12345, .max] {
      let a = makeScene(mood: mood, seed: seed, size: Self.small)
      let b = makeScene(mood: mood, seed: seed, size: Self.small)
      #expect(a == b)
    }
  }

  @Test("different seeds and different moods give different scenes", arguments: Mood.allCases)
  func variety(mood: Mood) {
    let images = (0..<6).map { makeScene(mood: mood, seed: UInt64($0), size: Self.small) }
    for i in images.indices {
      for j in images.indices where j > i {
        #expect(ImageMetrics.meanAbsoluteDifference(images[i], images[j]) > 3)
      }
    }
    let other = Mood.allCases.first { $0 != mood }!
    #expect(makeScene(mood: other, seed: 3, size: Self.small) != images[3])
  }

  @Test("every composition family of every mood appears")
  func variantsCovered() {
    var seen: [Mood: Set<String>] = [:]
    for mood in Mood.allCases {
      for seed in 0..<150 {
        seen[mood, default: []].insert(MoodScene(mood: mood, seed: UInt64(seed)).variant)
      }
    }
    #expect(seen[.happy] == ["sunny-meadow", "sunset-beach", "party-room", "toy-shapes", "festive-night"])
    #expect(
      seen[.neutral] == ["plain-room", "overcast-country", "city-street", "evening-room", "white-room", "fog-snow"])
    #expect(
      seen[.scary] == [
        "dark-forest", "blood-room", "bright-window-corridor", "haunted-hill", "lightning-storm", "cellar",
      ])
  }

  @Test("any size renders, including tiny and odd ones")
  func anySize() {
    for (w, h) in [(1, 1), (3, 7), (17, 5), (64, 64), (96, 54)] {
      for mood in Mood.allCases {
        let image = makeScene(mood: mood, seed: 9, size: PixelSize(width: w, height: h))
        #expect(image.width == w && image.height == h)
        #expect(image.pixels.count == w * h * 3)
      }
    }
  }

  @Test("the composition does not depend on the size: 256x256 box-filtered to 64x64 matches a 64x64 render")
  func sizeIndependence() {
    var total = 0.0
    var count = 0
    for mood in Mood.allCases {
      for seed: UInt64 in 0..<4 {
        let scene = MoodScene(mood: mood, seed: seed)
        let big = ImageMetrics.downscale(scene.render(size: PixelSize(width: 256, height: 256)), by: 4)
        let small = scene.render(size: Self.small)
        let mad = ImageMetrics.meanAbsoluteDifference(big, small)
        #expect(mad < 10, "\(mood) seed \(seed): \(mad)")
        total += mad
        count += 1
      }
    }
    #expect(total / Double(count) < 5)
  }

  @Test("a wider frame shows the same middle: the centre of 112x64 matches 64x64")
  func widerFrameSameCentre() {
    for mood in Mood.allCases {
      let scene = MoodScene(mood: mood, seed: 21)
      let wide = scene.render(size: PixelSize(width: 112, height: 64))
      let square = scene.render(size: Self.small)
      var centre = [UInt8]()
      for y in 0..<64 {
        let row = (y * 112 + 24) * 3
        centre.append(contentsOf: wide.pixels[row..<(row + 64 * 3)])
      }
      let mad = ImageMetrics.meanAbsoluteDifference(RGBImage(width: 64, height: 64, pixels: centre), square)
      #expect(mad < 16, "\(mood): \(mad)")
    }
  }
}
