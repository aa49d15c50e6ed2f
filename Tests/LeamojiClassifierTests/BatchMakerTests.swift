import LeamojiCore
import LeamojiNN
import Testing

@testable import LeamojiClassifier

@Suite("Batch maker")
struct BatchMakerTests {
  @Test("batches normalise per channel; augmentation depends on the seed only")
  func batches() throws {
    var set = ImageSet(size: PixelSize(width: 4, height: 4), labelNames: ["a", "b"])
    set.append(RGBImage(width: 4, height: 4, fill: RGB(255, 0, 51)), label: 0, path: "x")
    let normalisation = try InputNormalisation(mean: [0.5, 0.5, 0.5], std: [0.5, 0.25, 0.1])
    let maker = BatchMaker(size: set.size, normalisation: normalisation)
    let plain = maker.batch(from: set, indices: [0])
    #expect(plain.shape == [1, 3, 4, 4])
    #expect(plain.data[0] == 1)  // (1 - 0.5) / 0.5
    #expect(plain.data[16] == -2)  // (0 - 0.5) / 0.25
    #expect(plain.data[32] == (Float(51) / 255 - 0.5) / 0.1)
    let all: Augmentation = [.flip, .crop, .exposure, .noise]
    let a = maker.batch(from: set, indices: [0], augment: all, seed: 9)
    let b = maker.batch(from: set, indices: [0], augment: all, seed: 9)
    let c = maker.batch(from: set, indices: [0], augment: all, seed: 10)
    #expect(a == b)
    #expect(a != c)
  }

  @Test("an image gives the same input bits from a set, from a list, alone or in a batch")
  func onePath() {
    let images = (0..<3).map { patternImage(kind: $0, size: 8, seed: UInt64($0)) }
    var set = ImageSet(size: PixelSize(width: 8, height: 8), labelNames: ["x"])
    for image in images { set.append(image, label: 0, path: "") }
    let maker = BatchMaker(size: set.size, normalisation: .imageNet)
    let fromSet = maker.batch(from: set, indices: [2, 0, 1])
    let fromList = maker.batch([images[2], images[0], images[1]])
    #expect(fromSet.data.map(\.bitPattern) == fromList.data.map(\.bitPattern))
    #expect(fromSet.shape == [3, 3, 8, 8])
    let alone = maker.batch([images[0]])
    #expect(fromSet.slice(1).data.map(\.bitPattern) == alone.slice(0).data.map(\.bitPattern))
    // Channel planes: red first, top-left pixel first.
    let first = (Float(images[0][0, 0].r) / 255 - 0.485) / 0.229
    #expect(alone.data[0].bitPattern == first.bitPattern)
    let blue = (Float(images[0][7, 7].b) / 255 - 0.406) / 0.225
    #expect(alone.data[2 * 64 + 63].bitPattern == blue.bitPattern)
  }

  @Test("an image's augmentation does not depend on the other images of its batch")
  func augmentationPerImage() {
    let set = toySet(count: 6, size: 8)
    let maker = BatchMaker(size: set.size, normalisation: .imageNet)
    let all: Augmentation = [.flip, .crop, .exposure, .noise]
    let together = maker.batch(from: set, indices: [4, 1, 3], augment: all, seed: 5)
    let alone = maker.batch(from: set, indices: [1], augment: all, seed: 5)
    #expect(together.slice(1) == alone.slice(0))
  }
}

@Suite("Image render")
struct ImageRenderTests {
  /// The step-by-step definition: `unitPlanes`, `applied`, `normalise`, one array each.
  func reference(
    _ image: RGBImage, augment: Augmentation, seed: UInt64, normalisation: InputNormalisation
  ) -> [Float] {
    let (w, h) = (image.width, image.height)
    var planes = InputNormalisation.unitPlanes(image.pixels[...], pixels: w * h)
    var rng = SplitMix64(seed: seed)
    if !augment.isEmpty { planes = augment.applied(to: planes, width: w, height: h, rng: &rng) }
    var out = [Float](repeating: 0, count: planes.count)
    out.withUnsafeMutableBufferPointer { normalisation.normalise(planes, into: $0) }
    return out
  }

  @Test("the fused pass gives the step-by-step path's bits for every augmentation and size")
  func sameBitsAsSteps() throws {
    let normalisation = try InputNormalisation(mean: [0.41, 0.5, 0.3], std: [0.2, 0.27, 0.31])
    let sets: [Augmentation] = (0..<16).map { Augmentation(rawValue: $0) }
    for (w, h) in [(1, 1), (5, 3), (7, 9), (16, 16), (64, 64), (96, 80)] {
      var rng = SplitMix64(seed: UInt64(w * 100 + h))
      let image = RGBImage(
        width: w, height: h, pixels: (0..<(w * h * 3)).map { _ in UInt8(rng.next() % 256) })
      var set = ImageSet(size: image.size, labelNames: ["x"])
      set.append(image, label: 0, path: "")
      let maker = BatchMaker(size: image.size, normalisation: normalisation)
      for augment in sets {
        for seed: UInt64 in 0..<6 {
          // BatchMaker seeds image 0 with the batch seed itself.
          let fused = maker.batch(from: set, indices: [0], augment: augment, seed: seed)
          let steps = reference(image, augment: augment, seed: seed, normalisation: normalisation)
          #expect(
            fused.data.map(\.bitPattern) == steps.map(\.bitPattern),
            "\(w)x\(h) \(augment) seed \(seed)")
        }
      }
    }
  }

  @Test("four-lane noise draws are SplitMix64.nextFastNormal's, lane by lane")
  func fastNormals() {
    var a = SplitMix64(seed: 77)
    var b = SplitMix64(seed: 77)
    let scale = SIMD4<Float>(repeating: ImageRender.noiseScale)
    var lanes: [UInt32] = []
    var single: [UInt32] = []
    for _ in 0..<10_000 {
      let four = ImageRender.fastNormals(&a, scale: scale)
      for lane in 0..<4 {
        lanes.append(four[lane].bitPattern)
        single.append(b.nextFastNormal().bitPattern)
      }
    }
    #expect(lanes == single)
  }

  @Test("a reused batch tensor gets the same bits as a fresh one, for any thread count")
  func reuse() {
    let set = toySet(count: 10, size: 12)
    let maker = BatchMaker(size: set.size, normalisation: .imageNet)
    let all: Augmentation = [.flip, .crop, .exposure, .noise]
    let fresh = maker.batch(from: set, indices: [3, 1, 4, 1, 5], augment: all, seed: 2)
    var reused = maker.batch(from: set, indices: [9, 8, 7, 6, 5], augment: all, seed: 7)
    maker.fill(&reused, from: set, indices: [3, 1, 4, 1, 5], augment: all, seed: 2, threads: 2)
    #expect(reused.data.map(\.bitPattern) == fresh.data.map(\.bitPattern))
    maker.fill(&reused, from: set, indices: [3, 1], augment: all, seed: 2, threads: 3)
    #expect(reused.shape == [2, 3, 12, 12])
    #expect(reused.data.map(\.bitPattern) == Array(fresh.data[0..<(2 * 432)]).map(\.bitPattern))
  }
}
