import LeamojiCore

/// Maps pixels to world coordinates for one output size and camera.
struct Viewport: Sendable {
  let width: Int
  let height: Int
  /// World position of the centre of pixel (0, 0).
  let originX: Float
  let originY: Float
  /// World size of one pixel.
  let step: Float

  init(size: PixelSize, camera: SceneCamera) {
    width = size.width
    height = size.height
    let s = 1 / (Double(size.height) * camera.zoom)
    step = Float(s)
    originX = Float(camera.centerX - (Double(size.width) / 2 - 0.5) * s)
    originY = Float(camera.centerY - (Double(size.height) / 2 - 0.5) * s)
  }

  /// Pixel columns whose centres lie in world x range [`a`, `b`], clipped to the frame.
  func columns(_ a: Float, _ b: Float) -> Range<Int> {
    clippedRange((a - originX) / step, (b - originX) / step, width)
  }

  /// Pixel rows whose centres lie in world y range [`a`, `b`], clipped to the frame.
  func rows(_ a: Float, _ b: Float) -> Range<Int> {
    clippedRange((a - originY) / step, (b - originY) / step, height)
  }

  private func clippedRange(_ lo: Float, _ hi: Float, _ count: Int) -> Range<Int> {
    let l = max(lo.rounded(.up), 0)
    let h = min(hi.rounded(.down), Float(count - 1))
    if !(l <= h) { return 0..<0 }
    return Int(l)..<(Int(h) + 1)
  }
}

/// The floating-point picture being painted: surface colour and emission per pixel, plus
/// additive glow, before lighting and grading.
struct Canvas {
  let viewport: Viewport
  /// r, g, b, emission for each pixel.
  var surface: [Float]
  /// r, g, b of additive, self-lit glow per pixel; empty until a glow layer is drawn.
  var glow: [Float] = []

  init(viewport: Viewport) {
    self.viewport = viewport
    surface = [Float](repeating: 0, count: viewport.width * viewport.height * 4)
  }

  /// Paints one layer displaced by (`dx`, `dy`), its colour multiplied by `gain`.
  mutating func draw(_ layer: Layer, dx: Float, dy: Float, gain: Float) {
    let vp = viewport
    let aa = max(vp.step, layer.softness)
    let b = layer.shape.bounds
    let cols = vp.columns(b.0 + dx - aa, b.2 + dx + aa)
    let rows = vp.rows(b.1 + dy - aa, b.3 + dy + aa)
    if cols.isEmpty || rows.isEmpty { return }
    if layer.blend == .add && glow.isEmpty {
      glow = [Float](repeating: 0, count: vp.width * vp.height * 3)
    }
    let job = DrawJob(
      layer: layer, viewport: vp, dx: dx, dy: dy, gain: gain, invAA: 1 / aa, cols: cols, rows: rows)
    // One specialised pixel loop per shape kind keeps the distance function inlined.
    switch layer.shape {
    case .plane:
      job.run(&surface, &glow) { _, _, _ in -Float.greatestFiniteMagnitude }
    case .circle(let cx, let cy, let r):
      job.run(&surface, &glow) { x, y, _ in
        let ex = x - cx
        let ey = y - cy
        return (ex * ex + ey * ey).squareRoot() - r
      }
    case .ridge(let ridge):
      let heights = cols.map { ridge.height(at: vp.originX + Float($0) * vp.step - dx) }
      let first = cols.lowerBound
      heights.withUnsafeBufferPointer { h in
        job.run(&surface, &glow) { _, y, column in h[column - first] - y }
      }
    default:
      let shape = layer.shape
      job.run(&surface, &glow) { x, y, _ in shape.distance(x, y) }
    }
  }
}

/// The fixed inputs of one layer's pixel loop.
private struct DrawJob {
  let layer: Layer
  let viewport: Viewport
  let dx: Float
  let dy: Float
  let gain: Float
  let invAA: Float
  let cols: Range<Int>
  let rows: Range<Int>

  /// Visits every pixel of the layer's box, computes coverage from `distance(x, y, column)`
  /// (world coordinates in the layer's frame) and blends the paint in.
  @inline(__always)
  func run(
    _ surface: inout [Float], _ glow: inout [Float], _ distance: (Float, Float, Int) -> Float
  ) {
    let vp = viewport
    let opacity = layer.opacity
    let emission = layer.emission
    let paint = layer.paint
    let blend = layer.blend
    let width = vp.width
    let gain = gain
    let occludesGlow = blend == .normal && !glow.isEmpty
    if blend == .normal, !occludesGlow, let rowColor = paint.rowColor {
      // Fast path: a colour that is constant along each row (flat fills, skies and other
      // vertical gradients) painted over; fully covered pixels are simply overwritten.
      surface.withUnsafeMutableBufferPointer { px in
        for y in rows {
          let wy = vp.originY + Float(y) * vp.step - dy
          let c = rowColor(wy)
          let r = c.r * gain
          let g = c.g * gain
          let b = c.b * gain
          var j = (y * width + cols.lowerBound) * 4
          for x in cols {
            defer { j += 4 }
            let wx = vp.originX + Float(x) * vp.step - dx
            var a = 0.5 - distance(wx, wy, x) * invAA
            if a <= 0 { continue }
            if a >= 1 && opacity >= 1 {
              px[j] = r
              px[j + 1] = g
              px[j + 2] = b
              px[j + 3] = emission
              continue
            }
            a = (a < 1 ? a : 1) * opacity
            px[j] += (r - px[j]) * a
            px[j + 1] += (g - px[j + 1]) * a
            px[j + 2] += (b - px[j + 2]) * a
            px[j + 3] += (emission - px[j + 3]) * a
          }
        }
      }
      return
    }
    surface.withUnsafeMutableBufferPointer { px in
      glow.withUnsafeMutableBufferPointer { gl in
        for y in rows {
          let wy = vp.originY + Float(y) * vp.step - dy
          for x in cols {
            let wx = vp.originX + Float(x) * vp.step - dx
            var a = 0.5 - distance(wx, wy, x) * invAA
            if a <= 0 { continue }
            a = (a < 1 ? a : 1) * opacity
            let c = paint.color(wx, wy, pixel: vp.step)
            let i = y * width + x
            switch blend {
            case .normal:
              let j = i * 4
              px[j] += (c.r * gain - px[j]) * a
              px[j + 1] += (c.g * gain - px[j + 1]) * a
              px[j + 2] += (c.b * gain - px[j + 2]) * a
              px[j + 3] += (emission - px[j + 3]) * a
              if occludesGlow {
                // Whatever is painted over hides the glow drawn behind it.
                let k = i * 3
                gl[k] *= 1 - a
                gl[k + 1] *= 1 - a
                gl[k + 2] *= 1 - a
              }
            case .multiply:
              let j = i * 4
              px[j] *= 1 + (c.r - 1) * a
              px[j + 1] *= 1 + (c.g - 1) * a
              px[j + 2] *= 1 + (c.b - 1) * a
            case .add:
              let j = i * 3
              gl[j] += c.r * gain * a
              gl[j + 1] += c.g * gain * a
              gl[j + 2] += c.b * gain * a
            }
          }
        }
      }
    }
  }
}

/// `x` rounded to the nearest integer (ties to even), for |x| < 2^22, by the classic
/// "add 1.5 * 2^23" trick: no libm call and no trapping conversion, so loops stay vectorisable.
@inline(__always)
func roundToInt32(_ x: Float) -> Int32 {
  Int32(bitPattern: (x + 12_582_912).bitPattern) &- 0x4B40_0000
}

/// `floor(x)` for |x| < 2^22 without a libm call.
@inline(__always)
func fastFloor(_ x: Float) -> Float {
  let t = (x + 12_582_912) - 12_582_912
  return t > x ? t - 1 : t
}
