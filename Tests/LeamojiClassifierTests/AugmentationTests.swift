import LeamojiCore
import Testing

@testable import LeamojiClassifier

@Suite("Augmentation")
struct AugmentationTests {
  @Test("parses lists, rejects unknown names")
  func parsing() {
    #expect(Augmentation(parsing: "flip,crop") == [.flip, .crop])
    #expect(Augmentation(parsing: "none") == [])
    #expect(Augmentation(parsing: "") == [])
    #expect(Augmentation(parsing: "flip, noise ,EXPOSURE") == [.flip, .noise, .exposure])
    #expect(Augmentation(parsing: "flip,rotate") == nil)
    #expect(Augmentation(parsing: "crop,flip")?.description == "flip,crop")
    #expect(Augmentation().description == "none")
  }

  /// CHW planes of a 4x2 image whose values are all different.
  let planes: [Float] = (0..<24).map { Float($0) / 32 }

  func apply(_ augment: Augmentation, seed: UInt64, to image: [Float]? = nil) -> [Float] {
    var rng = SplitMix64(seed: seed)
    return augment.applied(to: image ?? planes, width: 4, height: 2, rng: &rng)
  }

  @Test("the same seed gives the same changes; values stay in 0...1")
  func deterministicAndInRange() {
    let all: Augmentation = [.flip, .crop, .exposure, .noise]
    for seed: UInt64 in 0..<20 {
      let a = apply(all, seed: seed)
      #expect(a == apply(all, seed: seed))
      #expect(a.count == planes.count && a.allSatisfy { (0...1).contains($0) })
    }
    #expect(apply([], seed: 3) == planes)
  }

  @Test("flip mirrors every row of every channel, or leaves the image alone")
  func flip() {
    let mirrored = (0..<6).flatMap { row in planes[(row * 4)..<(row * 4 + 4)].reversed() }
    let results = Set((0..<16).map { apply(.flip, seed: $0) })
    #expect(results == [planes, mirrored])
  }

  @Test("exposure scales every value by one gain of 0.85 to 1.15, capped at 1")
  func exposure() {
    for seed: UInt64 in 0..<10 {
      let out = apply(.exposure, seed: seed)
      let gain = out[8] / planes[8]
      #expect(gain >= 0.85 && gain <= 1.15)
      for i in planes.indices { #expect(abs(out[i] - min(1, planes[i] * gain)) < 1e-6) }
    }
  }

  @Test("crop and noise keep a flat image flat or nearly so")
  func flatImage() {
    let flat = [Float](repeating: 0.5, count: 24)
    for seed: UInt64 in 0..<10 {
      #expect(apply(.crop, seed: seed, to: flat).allSatisfy { abs($0 - 0.5) < 1e-6 })
      #expect(apply(.noise, seed: seed, to: flat).allSatisfy { abs($0 - 0.5) < 0.2 })
      #expect(apply(.noise, seed: seed, to: flat) != flat)
    }
  }
}
