import LeamojiCore

/// Film-like finishing done on the developed 8-bit image, as an editor or a camera would:
/// letterbox bars and motion blur. Grain is part of the grade; credits text is painted.
///
/// Everything is a fraction of the frame, so a scene keeps its look at any size, and integer
/// arithmetic only, so the pixels are the same on every machine.
struct FilmFinish: Sendable {
  /// Height of each black bar (top and bottom) as a fraction of the frame height (0 = none).
  var letterbox: Float = 0
  /// Length of a horizontal camera smear as a fraction of the frame width (0 = none).
  var motionBlur: Float = 0

  /// Whether it leaves images as they are.
  var isEmpty: Bool { letterbox <= 0 && motionBlur <= 0 }

  /// The finished image.
  func apply(to image: RGBImage) -> RGBImage {
    let w = image.width
    let h = image.height
    var pixels = image.pixels
    let radius = Int((motionBlur * Float(w) / 2).rounded())
    if radius > 0 && w > 1 {
      // A box blur along each row, edges clamped: the smear of a fast pan.
      let window = 2 * radius + 1
      var row = [Int](repeating: 0, count: w * 3)
      for y in 0..<h {
        let base = y * w * 3
        for x in 0..<w {
          for c in 0..<3 {
            var sum = 0
            for k in -radius...radius {
              sum += Int(image.pixels[base + min(max(x + k, 0), w - 1) * 3 + c])
            }
            row[x * 3 + c] = (sum + window / 2) / window
          }
        }
        for i in 0..<(w * 3) { pixels[base + i] = UInt8(row[i]) }
      }
    }
    let bar = Int((letterbox * Float(h)).rounded())
    if bar > 0 {
      let rows = min(bar, h / 2)
      for y in Array(0..<rows) + Array((h - rows)..<h) {
        for i in (y * w * 3)..<((y + 1) * w * 3) { pixels[i] = 0 }
      }
    }
    return RGBImage(width: w, height: h, pixels: pixels)
  }
}
