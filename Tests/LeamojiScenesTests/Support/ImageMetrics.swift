import LeamojiCore

/// Small image statistics shared by the tests (kept out of the module: only tests need them).
enum ImageMetrics {
  /// Mean Rec. 601 luma in 0...1.
  static func meanLuminance(_ image: RGBImage) -> Double {
    var sum = 0.0
    for i in stride(from: 0, to: image.pixels.count, by: 3) {
      sum += luma(image.pixels, i)
    }
    return sum / Double(image.width * image.height)
  }

  /// Mean HSV saturation in 0...1.
  static func meanSaturation(_ image: RGBImage) -> Double {
    var sum = 0.0
    for i in stride(from: 0, to: image.pixels.count, by: 3) {
      let r = image.pixels[i]
      let g = image.pixels[i + 1]
      let b = image.pixels[i + 2]
      let hi = max(r, g, b)
      let lo = min(r, g, b)
      if hi > 0 { sum += Double(hi - lo) / Double(hi) }
    }
    return sum / Double(image.width * image.height)
  }

  /// Fraction of pixels whose luma is below `threshold` (0...1).
  static func darkFraction(_ image: RGBImage, below threshold: Double = 0.1) -> Double {
    var count = 0
    for i in stride(from: 0, to: image.pixels.count, by: 3)
    where luma(image.pixels, i) < threshold {
      count += 1
    }
    return Double(count) / Double(image.width * image.height)
  }

  /// Mean absolute difference per channel value (0...255) of two same-sized images.
  static func meanAbsoluteDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var sum = 0
    for i in a.pixels.indices {
      sum += abs(Int(a.pixels[i]) - Int(b.pixels[i]))
    }
    return Double(sum) / Double(a.pixels.count)
  }

  /// Box-filter downscale by an integer `factor`.
  static func downscale(_ image: RGBImage, by factor: Int) -> RGBImage {
    let w = image.width / factor
    let h = image.height / factor
    var out = [UInt8](repeating: 0, count: w * h * 3)
    for y in 0..<h {
      for x in 0..<w {
        for c in 0..<3 {
          var sum = 0
          for dy in 0..<factor {
            for dx in 0..<factor {
              sum += Int(image.pixels[((y * factor + dy) * image.width + x * factor + dx) * 3 + c])
            }
          }
          out[(y * w + x) * 3 + c] = UInt8((sum + factor * factor / 2) / (factor * factor))
        }
      }
    }
    return RGBImage(width: w, height: h, pixels: out)
  }

  private static func luma(_ p: [UInt8], _ i: Int) -> Double {
    (0.299 * Double(p[i]) + 0.587 * Double(p[i + 1]) + 0.114 * Double(p[i + 2])) / 255
  }
}
