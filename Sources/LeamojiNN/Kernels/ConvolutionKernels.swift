/// Window geometry and the im2col / col2im unfolding of the convolution layer.
extension Kernels {
  /// Geometry of one 2-D convolution or pooling window sweep over a CHW sample.
  struct Window {
    var channels: Int
    var height: Int
    var width: Int
    var kernel: Int
    var stride: Int
    var padding: Int
    var outHeight: Int { (height + 2 * padding - kernel) / stride + 1 }
    var outWidth: Int { (width + 2 * padding - kernel) / stride + 1 }
    /// Rows of the im2col matrix: `channels * kernel * kernel`.
    var patchSize: Int { channels * kernel * kernel }
    /// Columns of the im2col matrix: output positions.
    var positions: Int { outHeight * outWidth }
    /// Floats of the im2col matrix in the packed layout of `im2colPanels` (positions rounded
    /// up to whole 16-column panels).
    var panelledCount: Int { (positions + 15) / 16 * 16 * patchSize }
    /// Floats of the zero-padded input `im2colPanels` works from.
    var paddedCount: Int { channels * (height + 2 * padding) * (width + 2 * padding) }
  }

  /// The output columns `lo..<hi` whose input column `ox*stride - padding + kx` lies inside
  /// `0..<width` (the rest read padding zeros). The same formula serves rows.
  @inline(__always)
  static func validRange(
    size: Int, outSize: Int, stride: Int, padding: Int, tap: Int
  ) -> (Int, Int) {
    let first = padding - tap  // ox*stride >= first
    let lo = first > 0 ? (first + stride - 1) / stride : 0
    let limit = size + padding - tap  // ox*stride < limit
    let hi = limit > 0 ? min(outSize, (limit + stride - 1) / stride) : 0
    return (min(lo, hi), hi)
  }

  /// Unfolds input patches into `col[patchSize × positions]`: row `(c, ky, kx)`, column
  /// `(oy, ox)` holds `input[c, oy*stride - padding + ky, ox*stride - padding + kx]` (0 outside).
  static func im2col(_ g: Window, input: UnsafePointer<Float>, col: UnsafeMutablePointer<Float>) {
    let oh = g.outHeight
    let ow = g.outWidth
    let positions = g.positions
    var row = 0
    for ch in 0..<g.channels {
      let plane = input + ch * g.height * g.width
      for ky in 0..<g.kernel {
        let (yLo, yHi) = validRange(
          size: g.height, outSize: oh, stride: g.stride, padding: g.padding, tap: ky)
        for kx in 0..<g.kernel {
          let (xLo, xHi) = validRange(
            size: g.width, outSize: ow, stride: g.stride, padding: g.padding, tap: kx)
          let dst = col + row * positions
          dst.update(repeating: 0, count: yLo * ow)
          for oy in yLo..<yHi {
            let src = plane + (oy * g.stride - g.padding + ky) * g.width - g.padding + kx
            let line = dst + oy * ow
            line.update(repeating: 0, count: xLo)
            if g.stride == 1 {
              (line + xLo).update(from: src + xLo, count: xHi - xLo)
            } else {
              for ox in xLo..<xHi { line[ox] = src[ox * g.stride] }
            }
            (line + xHi).update(repeating: 0, count: ow - xHi)
          }
          (dst + yHi * ow).update(repeating: 0, count: (oh - yHi) * ow)
          row += 1
        }
      }
    }
  }

  /// Folds `col[patchSize × positions]` back onto the input grid, adding each entry to the input
  /// element it came from (the adjoint of `im2col`); padding entries are dropped.
  static func col2imAdd(
    _ g: Window, col: UnsafePointer<Float>, input: UnsafeMutablePointer<Float>
  ) {
    let oh = g.outHeight
    let ow = g.outWidth
    let positions = g.positions
    var row = 0
    for ch in 0..<g.channels {
      let plane = input + ch * g.height * g.width
      for ky in 0..<g.kernel {
        let (yLo, yHi) = validRange(
          size: g.height, outSize: oh, stride: g.stride, padding: g.padding, tap: ky)
        for kx in 0..<g.kernel {
          let (xLo, xHi) = validRange(
            size: g.width, outSize: ow, stride: g.stride, padding: g.padding, tap: kx)
          let srcRow = col + row * positions
          for oy in yLo..<yHi {
            let dst = plane + (oy * g.stride - g.padding + ky) * g.width - g.padding + kx
            let line = srcRow + oy * ow
            if g.stride == 1 {
              add(line + xLo, into: dst + xLo, xHi - xLo)
            } else {
              for ox in xLo..<xHi { dst[ox * g.stride] += line[ox] }
            }
          }
          row += 1
        }
      }
    }
  }
}

/// im2col straight into the GEMM's packed `B` layout.
extension Kernels {
  /// Unfolds input patches into the layout `gemmPacked(bIsPanels:)` reads without copying:
  /// 16-position panels, panel `q` at `col + q * patchSize * 16`, patch row `r` of it at
  /// `+ r * 16`; positions past the end of the last panel are zero. The input is first copied
  /// into `padded` (`paddedCount` floats) with its zero border, so every patch row is a plain
  /// copy; with stride 1 and output rows of a multiple of 16 it is two vector moves per
  /// 16 positions.
  static func im2colPanels(
    _ g: Window, input: UnsafePointer<Float>, padded: UnsafeMutablePointer<Float>,
    col: UnsafeMutablePointer<Float>
  ) {
    let hp = g.height + 2 * g.padding
    let wp = g.width + 2 * g.padding
    // Only the border is zeroed; rows are copied 8 floats at a time (no library call per row).
    let pad = g.padding
    for ch in 0..<g.channels {
      let plane = padded + ch * hp * wp
      plane.update(repeating: 0, count: pad * wp)
      (plane + (pad + g.height) * wp).update(repeating: 0, count: pad * wp)
      for y in 0..<g.height {
        let dst = plane + (y + pad) * wp
        let src = input + (ch * g.height + y) * g.width
        for i in 0..<pad {
          dst[i] = 0
          dst[pad + g.width + i] = 0
        }
        var x = 0
        while x + 8 <= g.width {
          store(load(src + x), dst + pad + x)
          x += 8
        }
        while x < g.width {
          dst[pad + x] = src[x]
          x += 1
        }
      }
    }
    let oh = g.outHeight
    let ow = g.outWidth
    let positions = g.positions
    let panelStride = g.patchSize * 16
    let panels = (positions + 15) / 16
    if g.stride == 1 && ow % 16 == 0 {
      // Panel by panel, so `col` is written front to back (16 positions of one output row
      // per patch row): sequential stores, where the row-by-row order below jumps a whole
      // panel (up to 18 KB) every 64 bytes.
      var d = col
      for q in 0..<panels {
        let oy = q * 16 / ow
        let x = q * 16 % ow
        for ch in 0..<g.channels {
          for ky in 0..<g.kernel {
            let src = padded + (ch * hp + oy + ky) * wp + x
            for kx in 0..<g.kernel {
              store(load(src + kx), d)
              store(load(src + kx + 8), d + 8)
              d += 16
            }
          }
        }
      }
      return
    }
    var r = 0
    for ch in 0..<g.channels {
      for ky in 0..<g.kernel {
        for kx in 0..<g.kernel {
          let dst = col + r * 16
          for oy in 0..<oh {
            let src = padded + (ch * hp + oy * g.stride + ky) * wp + kx
            for ox in 0..<ow {
              let p = oy * ow + ox
              dst[(p >> 4) * panelStride + (p & 15)] = src[ox * g.stride]
            }
          }
          for p in positions..<(panels * 16) { dst[(p >> 4) * panelStride + (p & 15)] = 0 }
          r += 1
        }
      }
    }
  }
}
