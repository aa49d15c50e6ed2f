import LeamojiCore
import LeamojiNN

@testable import LeamojiClassifier

// The step-by-step definition of an image's way into the network, one array per step, that
// `ImageRender` (the one path in the library) must match bit for bit: `unitPlanes`, then
// `applied`, then `normalise`.

extension InputNormalisation {
  /// The first half of the path: one image's tightly packed RGB bytes (row-major, top row
  /// first, as `RGBImage.pixels`) as three planes of `pixel / 255` (CHW order). Augmentation
  /// works on these values.
  static func unitPlanes(_ rgb: ArraySlice<UInt8>, pixels: Int) -> [Float] {
    precondition(rgb.count == 3 * pixels, "\(rgb.count) bytes for \(pixels) RGB pixels")
    var planes = [Float](repeating: 0, count: 3 * pixels)
    rgb.withUnsafeBufferPointer { src in
      planes.withUnsafeMutableBufferPointer { dst in
        for i in 0..<pixels {
          dst[i] = Float(src[3 * i]) / 255
          dst[pixels + i] = Float(src[3 * i + 1]) / 255
          dst[2 * pixels + i] = Float(src[3 * i + 2]) / 255
        }
      }
    }
    return planes
  }

  /// The second half: `(value − mean[c]) / std[c]` of each of the three planes, written to
  /// `out` (which holds `planes.count` values).
  func normalise(_ planes: [Float], into out: UnsafeMutableBufferPointer<Float>) {
    precondition(planes.count % 3 == 0 && out.count == planes.count)
    let plane = planes.count / 3
    planes.withUnsafeBufferPointer { src in
      for c in 0..<3 {
        let (m, s) = (mean[c], std[c])
        for i in (c * plane)..<((c + 1) * plane) { out[i] = (src[i] - m) / s }
      }
    }
  }
}

extension Augmentation {
  /// The changes applied to one image given as CHW planes of values in 0...1 (see
  /// `InputNormalisation.unitPlanes`), drawing its random choices from `rng` in a fixed order.
  func applied(
    to image: [Float], width w: Int, height h: Int, rng: inout SplitMix64
  ) -> [Float] {
    let augment = self
    var img = image
    let plane = w * h
    if augment.contains(.crop) {
      let scale = 0.8 + 0.2 * rng.nextUnitDouble()
      let cw = Double(w) * scale
      let ch = Double(h) * scale
      let x0 = (Double(w) - cw) * rng.nextUnitDouble()
      let y0 = (Double(h) - ch) * rng.nextUnitDouble()
      var out = [Float](repeating: 0, count: img.count)
      for y in 0..<h {
        let sy = min(Double(h - 1), max(0, y0 + (Double(y) + 0.5) * ch / Double(h) - 0.5))
        let iy = Int(sy)
        let fy = Float(sy - Double(iy))
        let iy1 = min(iy + 1, h - 1)
        for x in 0..<w {
          let sx = min(Double(w - 1), max(0, x0 + (Double(x) + 0.5) * cw / Double(w) - 0.5))
          let ix = Int(sx)
          let fx = Float(sx - Double(ix))
          let ix1 = min(ix + 1, w - 1)
          for c in 0..<3 {
            let b = c * plane
            let top = img[b + iy * w + ix] * (1 - fx) + img[b + iy * w + ix1] * fx
            let bottom = img[b + iy1 * w + ix] * (1 - fx) + img[b + iy1 * w + ix1] * fx
            out[b + y * w + x] = top * (1 - fy) + bottom * fy
          }
        }
      }
      img = out
    }
    if augment.contains(.flip), rng.nextUnitDouble() < 0.5 {
      for c in 0..<3 {
        for y in 0..<h {
          let row = c * plane + y * w
          var (l, r) = (row, row + w - 1)
          while l < r {
            img.swapAt(l, r)
            l += 1
            r -= 1
          }
        }
      }
    }
    if augment.contains(.exposure) {
      let gain = Float(0.85 + 0.3 * rng.nextUnitDouble())
      for i in img.indices { img[i] = min(1, img[i] * gain) }
    }
    if augment.contains(.noise) {
      // Approximately normal (SplitMix64.nextFastNormal): Box–Muller's log and cos per pixel
      // were a quarter of the training time.
      img.withUnsafeMutableBufferPointer { px in
        for i in px.indices { px[i] = min(1, max(0, px[i] + rng.nextFastNormal() * 0.03)) }
      }
    }
    return img
  }
}
