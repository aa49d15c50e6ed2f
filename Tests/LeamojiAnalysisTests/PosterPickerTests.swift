import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import Testing

@Suite("PosterPicker: the poster frame of a video")
struct PosterPickerTests {
  /// A 16x16 image: a checkerboard of two greys (`flat` makes both the same).
  static func image(grey: UInt8, flat: Bool = false) -> RGBImage {
    var pixels: [UInt8] = []
    for y in 0..<16 {
      for x in 0..<16 {
        let value = flat || (x + y) % 2 == 0 ? grey : grey / 2
        pixels += [value, value, value]
      }
    }
    return RGBImage(width: 16, height: 16, pixels: pixels)
  }

  @Test("the most confident lit, textured sample wins; ties keep the earlier")
  func mostConfident() throws {
    var picker = PosterPicker()
    picker.consider(time: 0, image: Self.image(grey: 200), confidence: 0.6)
    picker.consider(time: 1, image: Self.image(grey: 200), confidence: 0.9)
    picker.consider(time: 2, image: Self.image(grey: 200), confidence: 0.9)
    picker.consider(time: 3, image: Self.image(grey: 10), confidence: 0.99)  // nearly black
    picker.consider(time: 4, image: Self.image(grey: 200, flat: true), confidence: 0.99)  // flat
    #expect(try #require(picker.choice).time == 1)
  }

  @Test("a calm sample beats a more confident scary one; among scary ones only, the most confident")
  func calmFirst() throws {
    var picker = PosterPicker()
    picker.consider(time: 0, image: Self.image(grey: 200), confidence: 0.95, calm: false)
    picker.consider(time: 1, image: Self.image(grey: 200), confidence: 0.5, calm: true)
    picker.consider(time: 2, image: Self.image(grey: 200), confidence: 0.99, calm: false)
    picker.consider(time: 3, image: Self.image(grey: 200), confidence: 0.6, calm: true)
    picker.consider(time: 4, image: Self.image(grey: 10), confidence: 0.9, calm: true)  // dark
    #expect(try #require(picker.choice).time == 3)
    var frightening = PosterPicker()
    frightening.consider(time: 0, image: Self.image(grey: 200), confidence: 0.7, calm: false)
    frightening.consider(time: 1, image: Self.image(grey: 200), confidence: 0.9, calm: false)
    frightening.consider(time: 2, image: Self.image(grey: 200), confidence: 0.8, calm: false)
    #expect(try #require(frightening.choice).time == 1)
  }

  @Test("with no sample lit and textured, the brightest is the poster")
  func brightestFallback() throws {
    var picker = PosterPicker()
    picker.consider(time: 0, image: Self.image(grey: 10), confidence: 0.9)
    picker.consider(time: 1, image: Self.image(grey: 200, flat: true), confidence: 0.2)
    picker.consider(time: 2, image: Self.image(grey: 20), confidence: 0.99)
    #expect(try #require(picker.choice).time == 1)
  }

  @Test("leaving out the samples couldChoose turns down chooses the same poster")
  func couldChooseIsExact() {
    var random = SplitMix64(seed: 15)
    for _ in 0..<500 {
      var all = PosterPicker()
      var asked = PosterPicker()
      var made = 0
      let count = Int(random.next() % 40) + 1
      for i in 0..<count {
        // Few distinct confidences, so that ties happen; some dark or flat samples.
        let confidence = Double(random.next() % 6) / 5
        let kind = random.next() % 4
        let image = Self.image(
          grey: kind == 0 ? 15 : 60 + UInt8(random.next() % 190), flat: kind == 1)
        let calm = random.next() % 3 != 0
        all.consider(time: Double(i), image: image, confidence: confidence, calm: calm)
        if asked.couldChoose(confidence: confidence, calm: calm) {
          made += 1
          asked.consider(time: Double(i), image: image, confidence: confidence, calm: calm)
        }
      }
      #expect(asked.choice?.time == all.choice?.time)
      #expect(asked.choice?.image == all.choice?.image)
      #expect(made <= count)
    }
  }
}
