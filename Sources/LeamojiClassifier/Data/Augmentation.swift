import LeamojiCore
import LeamojiNN

/// Random changes applied to training images so the network learns the mood of a picture,
/// not its exact pixels. Each is mild enough to keep the lighting mood intact.
public struct Augmentation: OptionSet, Sendable, CustomStringConvertible {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Mirror left-right (half of the time).
  public static let flip = Augmentation(rawValue: 1)
  /// Take a random 80–100 % window and scale it back to full size.
  public static let crop = Augmentation(rawValue: 2)
  /// Brighten or darken by up to ±15 %.
  public static let exposure = Augmentation(rawValue: 4)
  /// Add a little per-pixel, approximately Gaussian noise (σ = 0.03 of full scale; sum of four
  /// uniforms, `SplitMix64.nextFastNormal`).
  public static let noise = Augmentation(rawValue: 8)

  static let names: [(String, Augmentation)] = [
    ("flip", .flip), ("crop", .crop), ("exposure", .exposure), ("noise", .noise),
  ]

  /// Parses a comma-separated list such as `flip,crop`; `none` or an empty string is no augmentation.
  public init?(parsing text: String) {
    var result: Augmentation = []
    for part in text.split(separator: ",").map({
      $0.trimmingWhitespace.lowercased()
    }) {
      if part == "none" || part.isEmpty { continue }
      guard let match = Augmentation.names.first(where: { $0.0 == part }) else { return nil }
      result.insert(match.1)
    }
    self = result
  }

  public var description: String {
    list.isEmpty ? "none" : list.joined(separator: ",")
  }

  /// The names of the augmentations in the set, in the fixed order flip, crop, exposure, noise.
  public var list: [String] { Augmentation.names.filter { contains($0.1) }.map(\.0) }
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
