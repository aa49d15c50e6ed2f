import Foundation
import LeamojiClassifier
import LeamojiCore

/// A small learnable set: bright warm images are "happy", dark cold ones "scary", with noise.
func toySet(count: Int, size: Int = 16, seed: UInt64 = 7) -> ImageSet {
  var rng = SplitMix64(seed: seed)
  var set = ImageSet(size: PixelSize(width: size, height: size), labelNames: ["happy", "scary"])
  for i in 0..<count {
    let label = i % 2
    var image = RGBImage(width: size, height: size)
    for y in 0..<size {
      for x in 0..<size {
        let n = Int(rng.next() % 60)
        image[x, y] =
          label == 0
          ? RGB(UInt8(180 + n), UInt8(150 + n), UInt8(60 + n / 2))
          : RGB(UInt8(10 + n / 2), UInt8(20 + n / 2), UInt8(50 + n))
      }
    }
    set.append(image, label: label, path: "toy-\(i).png")
  }
  return set
}

/// A patterned image, different for each `kind` (0, 1, 2) and `seed`.
func patternImage(kind: Int, size: Int = 64, seed: UInt64) -> RGBImage {
  var image = RGBImage(width: size, height: size)
  var rng = SplitMix64(seed: seed)
  for y in 0..<size {
    for x in 0..<size {
      let n = UInt8(rng.next() % 40)
      let (x8, y8) = (UInt8(truncatingIfNeeded: x), UInt8(truncatingIfNeeded: y))
      image[x, y] =
        [
          RGB(150 &+ x8, 120 &+ y8, n), RGB(n, 2 &* y8, 3 &* x8), RGB(x8 &* 4, n, y8 &* 4),
        ][kind]
    }
  }
  return image
}
