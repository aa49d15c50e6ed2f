import LeamojiCore
import LeamojiNN

/// One image's way from RGB bytes to network input in a single pass: `pixel / 255`,
/// `Augmentation.applied`'s changes, `InputNormalisation.normalise`, written straight into the
/// image's slot of a batch. No intermediate image is made: crop and flip become index tables,
/// exposure, noise and normalisation run over each output row in 4-lane SIMD.
///
/// The result is bit for bit what the step-by-step path of the tests (`unitPlanes`, `applied`,
/// `normalise`) gives, with the same random draws in the same order (tested): the same
/// `Float` operations on the same values, only fused and reordered between independent
/// pixels. It exists because that path, with an array per step and `Double` coordinates per
/// pixel and channel, was about a quarter of `make model`'s training time.
struct ImageRender {
  let width: Int
  let height: Int
  let mean: SIMD4<Float>
  let std: SIMD4<Float>
  /// `noiseScale` in every lane.
  let noiseScale = SIMD4<Float>(repeating: ImageRender.noiseScale)

  init(size: PixelSize, normalisation: InputNormalisation) {
    width = size.width
    height = size.height
    let (m, s) = (normalisation.mean, normalisation.std)
    mean = SIMD4(m[0], m[1], m[2], 0)
    std = SIMD4(s[0], s[1], s[2], 1)
  }

  /// Floats of scratch `render` needs (index tables, one row, one channel's horizontally
  /// interpolated rows), allocated once per thread and batch.
  var scratchCount: Int { 6 * width + 4 * height + 8 + width * height }

  /// `Float(byte) / 255` for every byte: looked up instead of divided, the same bits.
  static let unitValues: [Float] = (0..<256).map { Float($0) / 255 }

  /// Writes the network input of the image whose tightly packed RGB bytes start at `rgb` to
  /// `out` (`3 · width · height` floats, CHW), augmented by `augment` with draws from `rng`.
  func render(
    rgb: UnsafePointer<UInt8>, augment: Augmentation, rng: inout SplitMix64,
    into out: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
  ) {
    let (w, h) = (width, height)
    // Scratch layout: x tables (byte offsets of the two taps as Int32, their weights), y
    // tables (the same for rows), one output row, then the interpolated rows.
    let raw = UnsafeMutableRawPointer(scratch)
    let x0Offset = raw.bindMemory(to: Int32.self, capacity: w)
    let x1Offset = (raw + 4 * w).bindMemory(to: Int32.self, capacity: w)
    let xWeight = scratch + 2 * w
    let xKeep = scratch + 3 * w
    let y0Row = (raw + 16 * w).bindMemory(to: Int32.self, capacity: h)
    let y1Row = (raw + 16 * w + 4 * h).bindMemory(to: Int32.self, capacity: h)
    let yWeight = scratch + 4 * w + 2 * h
    let yKeep = scratch + 4 * w + 3 * h
    let row = scratch + 4 * w + 4 * h
    let across = scratch + 6 * w + 4 * h + 8

    // The draws, in `applied`'s order: crop (3), flip (1), exposure (1), then noise per value.
    var cropped = false
    if augment.contains(.crop) {
      cropped = true
      let scale = 0.8 + 0.2 * rng.nextUnitDouble()
      let cw = Double(w) * scale
      let ch = Double(h) * scale
      let x0 = (Double(w) - cw) * rng.nextUnitDouble()
      let y0 = (Double(h) - ch) * rng.nextUnitDouble()
      for y in 0..<h {
        let sy = min(Double(h - 1), max(0, y0 + (Double(y) + 0.5) * ch / Double(h) - 0.5))
        let iy = Int(sy)
        let fy = Float(sy - Double(iy))
        y0Row[y] = Int32(iy)
        y1Row[y] = Int32(min(iy + 1, h - 1))
        yWeight[y] = fy
        yKeep[y] = 1 - fy
      }
      for x in 0..<w {
        let sx = min(Double(w - 1), max(0, x0 + (Double(x) + 0.5) * cw / Double(w) - 0.5))
        let ix = Int(sx)
        let fx = Float(sx - Double(ix))
        x0Offset[x] = Int32(ix * 3)
        x1Offset[x] = Int32(min(ix + 1, w - 1) * 3)
        xWeight[x] = fx
        xKeep[x] = 1 - fx
      }
    }
    let flipped = augment.contains(.flip) && rng.nextUnitDouble() < 0.5
    if flipped && cropped {
      // Output column x is the cropped image's column w - 1 - x: mirror the x tables.
      var (l, r) = (0, w - 1)
      while l < r {
        swap(&x0Offset[l], &x0Offset[r])
        swap(&x1Offset[l], &x1Offset[r])
        swap(&xWeight[l], &xWeight[r])
        swap(&xKeep[l], &xKeep[r])
        l += 1
        r -= 1
      }
    }
    let gain: Float? =
      augment.contains(.exposure) ? Float(0.85 + 0.3 * rng.nextUnitDouble()) : nil
    let noisy = augment.contains(.noise)

    ImageRender.unitValues.withUnsafeBufferPointer { units in
      let unit = units.baseAddress!
      for c in 0..<3 {
        let (m, s) = (SIMD4(repeating: mean[c]), SIMD4(repeating: std[c]))
        if cropped {
          // Bilinear crop, split in two passes with the same arithmetic per value:
          // `across[r][x]` = source row r between its two taps (`applied`'s `top` and
          // `bottom`), made once per source row the crop touches; each output row then
          // mixes two of them, 4 values at a time.
          let (first, last) = (Int(y0Row[0]), Int(y1Row[h - 1]))
          for r in first...last {
            let line = rgb + r * w * 3 + c
            let dst = across + r * w
            for x in 0..<w {
              dst[x] =
                unit[Int(line[Int(x0Offset[x])])] * xKeep[x]
                + unit[Int(line[Int(x1Offset[x])])] * xWeight[x]
            }
          }
        }
        for y in 0..<h {
          if cropped {
            let upper = across + Int(y0Row[y]) * w
            let lower = across + Int(y1Row[y]) * w
            let (fy, gy) = (yWeight[y], yKeep[y])
            let (fy4, gy4) = (SIMD4(repeating: fy), SIMD4(repeating: gy))
            var x = 0
            while x + 4 <= w {
              let a = UnsafeRawPointer(upper + x).loadUnaligned(as: SIMD4<Float>.self)
              let b = UnsafeRawPointer(lower + x).loadUnaligned(as: SIMD4<Float>.self)
              UnsafeMutableRawPointer(row + x).storeBytes(
                of: a * gy4 + b * fy4, as: SIMD4<Float>.self)
              x += 4
            }
            while x < w {
              row[x] = upper[x] * gy + lower[x] * fy
              x += 1
            }
          } else {
            let line = rgb + y * w * 3 + c
            if flipped {
              for x in 0..<w { row[x] = unit[Int(line[3 * (w - 1 - x)])] }
            } else {
              for x in 0..<w { row[x] = unit[Int(line[3 * x])] }
            }
          }
          finish(
            row: row, count: w, gain: gain, noisy: noisy, rng: &rng, mean: m, std: s,
            into: out + c * w * h + y * w)
        }
      }
    }
  }

  /// `1 / √((65536² − 1) / 3)`, `SplitMix64.nextFastNormal`'s scale.
  static let noiseScale = Float(1 / ((65536.0 * 65536.0 - 1) / 3).squareRoot())

  /// Four `SplitMix64.nextFastNormal` draws in lanes 0…3 (the same bits, tested): the sum of
  /// each draw's four 16-bit parts, centred and scaled, in 4-lane integer and float maths.
  @inline(__always)
  static func fastNormals(_ rng: inout SplitMix64, scale: SIMD4<Float>) -> SIMD4<Float> {
    let x = SIMD4<UInt64>(rng.next(), rng.next(), rng.next(), rng.next())
    let mask = SIMD4<UInt64>(repeating: 0xFFFF)
    let sum = (x & mask) &+ ((x &>> 16) & mask) &+ ((x &>> 32) & mask) &+ (x &>> 48)
    let centred = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: sum)) - 131_070
    return centred * scale
  }

  /// Exposure, noise (draws in value order) and normalisation of one row, 4 values at a time.
  @inline(__always)
  private func finish(
    row: UnsafeMutablePointer<Float>, count: Int, gain: Float?, noisy: Bool,
    rng: inout SplitMix64, mean m: SIMD4<Float>, std s: SIMD4<Float>,
    into out: UnsafeMutablePointer<Float>
  ) {
    let one = SIMD4<Float>(repeating: 1)
    let zero = SIMD4<Float>(repeating: 0)
    let sigma = SIMD4<Float>(repeating: 0.03)
    var x = 0
    while x + 4 <= count {
      var v = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD4<Float>.self)
      if let gain {
        let t = v * gain
        v = t.replacing(with: one, where: .!(t .< one))  // min(1, t)
      }
      if noisy {
        var t = v + ImageRender.fastNormals(&rng, scale: noiseScale) * sigma
        t = t.replacing(with: zero, where: .!(t .>= zero))  // max(0, t)
        v = t.replacing(with: one, where: .!(t .< one))  // min(1, t)
      }
      UnsafeMutableRawPointer(out + x).storeBytes(of: (v - m) / s, as: SIMD4<Float>.self)
      x += 4
    }
    while x < count {
      var v = row[x]
      if let gain { v = min(1, v * gain) }
      if noisy { v = min(1, max(0, v + rng.nextFastNormal() * 0.03)) }
      out[x] = (v - m[0]) / s[0]
      x += 1
    }
  }
}
