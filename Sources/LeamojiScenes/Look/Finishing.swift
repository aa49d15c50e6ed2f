import LeamojiCore

/// Lighting and "lab" work applied after painting: lights and ambient, lens vignette,
/// exposure, saturation, colour cast, tone curve, film grain and 8-bit quantisation.
///
/// This is where a scene becomes high-key or low-key: the same painted picture graded with a
/// lifted, flat curve looks soft and happy; with a steep curve, crushed blacks, cold tint,
/// vignette and grain it looks threatening.
enum Finishing {
  /// Mean brightness of the lit (unexposed, ungraded) canvas, each pixel clipped at white:
  /// what a light meter sees.
  static func meter(_ canvas: Canvas, plan: ScenePlan) -> Float {
    let lighting = Lighting(plan: plan, viewport: canvas.viewport, flicker: 0)
    var sum: Double = 0
    lighting.forEachPixel(canvas) { _, _, _, r, g, b in
      let l = 0.299 * r + 0.587 * g + 0.114 * b
      sum += Double(l < 1 ? l : 1)
    }
    return Float(sum / Double(canvas.viewport.width * canvas.viewport.height))
  }

  /// Lights, exposes, grades, tone-maps, grains and quantises the canvas into an image.
  static func develop(
    _ canvas: Canvas, plan: ScenePlan, flicker: Float, exposure: Float, grainSeed: UInt32
  ) -> RGBImage {
    let vp = canvas.viewport
    let grade = plan.grade
    let lighting = Lighting(plan: plan, viewport: vp, flicker: flicker)
    let curve = ToneCurve(grade: grade)
    let sat = grade.saturation
    let tr = grade.tint.r * exposure
    let tg = grade.tint.g * exposure
    let tb = grade.tint.b * exposure
    let shadow = grade.shadowTint
    let darkScale = exposure * 2.5
    let grain = grade.grain
    let offsetX = Int(grainSeed & 0xFF)
    let offsetY = Int((grainSeed >> 8) & 0xFF)
    let count = vp.width * vp.height * 3
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
      curve.table.withUnsafeBufferPointer { lut in
        grainTile.withUnsafeBufferPointer { tile in
          lighting.forEachPixel(canvas) { i, x, y, lr, lg, lb in
            let l = 0.299 * lr + 0.587 * lg + 0.114 * lb
            var r = (l + (lr - l) * sat) * tr
            var g = (l + (lg - l) * sat) * tg
            var b = (l + (lb - l) * sat) * tb
            var dark = 1 - l * darkScale
            dark = dark > 0 ? dark : 0
            let w = dark * dark
            r += shadow.r * w
            g += shadow.g * w
            b += shadow.b * w
            let n = tile[((y + offsetY) & 255) << 8 | ((x + offsetX) & 255)] * grain
            let k = i * 3
            out[k] = ToneCurve.level(lut, r, n)
            out[k + 1] = ToneCurve.level(lut, g, n)
            out[k + 2] = ToneCurve.level(lut, b, n)
          }
        }
      }
      initialized = count
    }
    return RGBImage(width: vp.width, height: vp.height, pixels: bytes)
  }
}

/// A fixed 256 x 256 tile of triangular-distributed film grain in -1...1, built once from the
/// integer hash; frames pick different offsets into it, so grain "dances" in clips.
private let grainTile: [Float] = (0..<(256 * 256)).map { i in
  let h = hash32(UInt32(i), 0x6A41_17E5, 0x5EED)
  return Float(Int32(h & 0xFFFF) + Int32(h >> 16) - 65_535) * (1.0 / 65_536.0)
}

/// The tone curve as a lookup table from scene brightness (0...2) to 8-bit level (0...255):
/// a highlight shoulder so lamps roll off to white, an S-curve with a chosen slope at the pivot
/// (rational "bias" curves, no transcendental functions), and a black lift.
struct ToneCurve {
  static let entries = 1024
  static let domain: Float = 2
  static let scale = Float(entries - 1) / domain
  let table: [Float]

  init(grade: Grade) {
    let p = min(max(grade.pivot, 0.05), 0.95)
    let c = max(grade.contrast, 0.05)
    let lift = grade.lift
    let knee: Float = 0.8
    table = (0..<ToneCurve.entries).map { i in
      var v = Float(i) / ToneCurve.scale
      if v > knee {
        let u = v - knee
        v = knee + (1 - knee) * u / (u + (1 - knee))
      }
      if v < p {
        let t = v / p
        v = p * t / (t + (1 - t) * c)
      } else {
        let t = (1 - v) / (1 - p)
        v = 1 - (1 - p) * t / (t + (1 - t) * c)
      }
      return (lift + (1 - lift) * v) * 255
    }
  }

  /// The 8-bit level for brightness `v` plus grain `noise` (in levels), rounded and clamped.
  @inline(__always)
  static func level(_ lut: UnsafeBufferPointer<Float>, _ v: Float, _ noise: Float) -> UInt8 {
    let x = v * scale
    var index = roundToInt32(x < 1e6 ? x : 1e6)
    index = index > 0 ? index : 0
    index = index < Int32(entries - 1) ? index : Int32(entries - 1)
    var o = roundToInt32(lut[Int(index)] + noise)
    o = o > 0 ? o : 0
    o = o < 255 ? o : 255
    return UInt8(truncatingIfNeeded: o)
  }
}
