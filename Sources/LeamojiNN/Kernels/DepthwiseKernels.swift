/// The sweep of a convolution whose padding may differ on each side (TensorFlow's "same").
extension Kernels {
  /// Geometry of a square-kernel sweep over one `height` x `width` plane with `top`/`bottom`/
  /// `left`/`right` zeros around it.
  struct PaddedWindow: Equatable {
    var height: Int
    var width: Int
    var kernel: Int
    var stride: Int
    var top: Int
    var bottom: Int
    var left: Int
    var right: Int
    var outHeight: Int { (height + top + bottom - kernel) / stride + 1 }
    var outWidth: Int { (width + left + right - kernel) / stride + 1 }
    var outArea: Int { outHeight * outWidth }
    var area: Int { height * width }

    /// Calls `body(ky, kx, oy, xs, x0)` for every tap and every output row whose input row
    /// `oy·stride − top + ky` lies inside the plane; `xs` are the output columns whose input
    /// column `x0 + ox·stride` (with `x0 = kx − left`) lies inside it.
    @inline(__always)
    func forEachTap(_ body: (Int, Int, Int, Range<Int>, Int) -> Void) {
      for ky in 0..<kernel {
        let (yLo, yHi) = Kernels.validRange(
          size: height, outSize: outHeight, stride: stride, padding: top, tap: ky)
        for kx in 0..<kernel {
          let (xLo, xHi) = Kernels.validRange(
            size: width, outSize: outWidth, stride: stride, padding: left, tap: kx)
          for oy in yLo..<yHi { body(ky, kx, oy, xLo..<xHi, kx - left) }
        }
      }
    }
  }
}

/// The depthwise convolution of MobileNet-style networks: each channel convolved with its own
/// `k x k` kernel. It does little arithmetic per byte (k² multiply-adds per output), so it is
/// written for memory: one channel at a time, its plane copied once into a zero-bordered
/// scratch plane that stays in L2 (for stride 2 split into even and odd columns, so every tap
/// reads 8 consecutive outputs' inputs with one vector load), and the bias and activation
/// applied as each output vector is stored, so the output is written once.
///
/// Determinism: every output is its bias plus the taps in (ky, kx) order, one fused
/// multiply-add each, whatever the channel split or thread count.
extension Kernels {
  /// Floats between the end of a scratch row's data and the next row: room for the vector
  /// loads of the last output vector.
  private static let rowSlack = 24

  /// Floats of scratch `depthwise` needs for one channel plane.
  static func depthwiseScratchCount(_ g: PaddedWindow) -> Int {
    let rows = g.height + g.top + g.bottom
    let columns = g.width + g.left + g.right
    return rows * (columns / g.stride + 1 + rowSlack) * g.stride + 8
  }

  /// `output[c] = bias[c] + depthwise(input[c], weight[c])`, then `activation`, for the
  /// channels `channels`; `weight` is `[C, 1, k, k]`, planes CHW. Stride 1 or 2.
  static func depthwise(
    _ g: PaddedWindow, channels: Range<Int>, input: UnsafePointer<Float>,
    weight: UnsafePointer<Float>, bias: UnsafePointer<Float>,
    output: UnsafeMutablePointer<Float>, activation: Activation,
    scratch: UnsafeMutablePointer<Float>
  ) {
    precondition(g.stride == 1 || g.stride == 2, "depthwise stride \(g.stride)")
    let rows = g.height + g.top + g.bottom
    let columns = g.width + g.left + g.right
    // Stride 1: one plane, pitch `columns + slack`. Stride 2: even columns then odd columns,
    // each `ceil(columns / 2) + slack` wide, the odd plane after the even one.
    let pitch = columns / g.stride + 1 + rowSlack
    let planeFloats = rows * pitch
    let k = g.kernel
    let (oh, ow) = (g.outHeight, g.outWidth)
    let cap = V8(repeating: activation == .relu6 ? 6 : .infinity)
    // The padding around the plane is zero once for all channels: each channel overwrites
    // exactly the same inside positions.
    scratch.update(repeating: 0, count: planeFloats * g.stride)
    for c in channels {
      let src = input + c * g.area
      for y in 0..<g.height {
        let row = src + y * g.width
        let r = y + g.top
        if g.stride == 1 {
          // Rows are short (7 to 112 floats): vector moves, not a `memmove` call per row.
          let dst = scratch + r * pitch + g.left
          var x = 0
          while x + 8 <= g.width {
            dwStore(dwLoad(row + x), dst + x)
            x += 8
          }
          if x + 4 <= g.width {
            dw4Store(UnsafeRawPointer(row + x).loadUnaligned(as: SIMD4<Float>.self), dst + x)
            x += 4
          }
          while x < g.width {
            dst[x] = row[x]
            x += 1
          }
        } else {
          // Even and odd input columns of 16 at a time: the even lanes of a 16-float load go
          // to the plane of the parity of `x + left`, the odd lanes to the other.
          let dst = scratch + r * pitch
          let (evenPlane, oddPlane) = (g.left & 1 == 0 ? (0, 1) : (1, 0))
          let evenDst = dst + evenPlane * planeFloats
          let oddDst = dst + oddPlane * planeFloats
          var x = 0
          while x + 16 <= g.width {
            let v = UnsafeRawPointer(row + x).loadUnaligned(as: SIMD16<Float>.self)
            dwStore(v.evenHalf, evenDst + ((x + g.left) >> 1))
            dwStore(v.oddHalf, oddDst + ((x + g.left + 1) >> 1))
            x += 16
          }
          if x + 8 <= g.width {
            let v = dwLoad(row + x)
            dw4Store(v.evenHalf, evenDst + ((x + g.left) >> 1))
            dw4Store(v.oddHalf, oddDst + ((x + g.left + 1) >> 1))
            x += 8
          }
          while x < g.width {
            let column = x + g.left
            scratch[(column & 1) * planeFloats + r * pitch + (column >> 1)] = row[x]
            x += 1
          }
        }
      }
      let w = weight + c * k * k
      let b = V8(repeating: bias[c])
      let out = output + c * oh * ow
      // Output vectors (8 consecutive outputs of a row) four at a time: four independent
      // accumulators keep both FMA units busy (one alone waits out the FMA latency per tap).
      // Slots run row by row, `(qy, qx)` the next one's row and vector; a last group of fewer
      // than four repeats its last slot (computed, not stored).
      let perRow = (ow + 7) / 8
      var (qy, qx) = (0, 0)
      while qy < oh {
        var ys = (qy, qy, qy, qy)
        var xs = (qx, qx, qx, qx)
        var group = 1
        @inline(__always) func next(_ y: inout Int, _ x: inout Int) {
          x += 1
          if x == perRow { (x, y) = (0, y + 1) }
        }
        next(&qy, &qx)
        if qy < oh {
          (ys.1, xs.1, group) = (qy, qx, 2)
          next(&qy, &qx)
        }
        if qy < oh {
          (ys.2, xs.2, group) = (qy, qx, 3)
          next(&qy, &qx)
        }
        if qy < oh {
          (ys.3, xs.3, group) = (qy, qx, 4)
          next(&qy, &qx)
        }
        if group < 2 { (ys.1, xs.1) = (ys.0, xs.0) }
        if group < 3 { (ys.2, xs.2) = (ys.1, xs.1) }
        if group < 4 { (ys.3, xs.3) = (ys.2, xs.2) }
        let rowStep = g.stride * pitch
        let base = (
          ys.0 * rowStep + xs.0 * 8, ys.1 * rowStep + xs.1 * 8, ys.2 * rowStep + xs.2 * 8,
          ys.3 * rowStep + xs.3 * 8
        )
        var a0 = b
        var a1 = b
        var a2 = b
        var a3 = b
        // The taps in (ky, kx) order; called with constant sizes for the network's kernels so
        // the loops unroll and every tap's offset is a constant plus a row.
        @inline(__always) func taps(_ k: Int, _ stride: Int) {
          let p0 = scratch + base.0
          let p1 = scratch + base.1
          let p2 = scratch + base.2
          let p3 = scratch + base.3
          for ky in 0..<k {
            let row = ky &* pitch
            for kx in 0..<k {
              let weightV = V8(repeating: w[ky &* k &+ kx])
              let o = row &+ (stride == 1 ? kx : (kx & 1) &* planeFloats &+ (kx >> 1))
              a0 = dwFMA(a0, weightV, dwLoad(p0 + o))
              a1 = dwFMA(a1, weightV, dwLoad(p1 + o))
              a2 = dwFMA(a2, weightV, dwLoad(p2 + o))
              a3 = dwFMA(a3, weightV, dwLoad(p3 + o))
            }
          }
        }
        switch (k, g.stride) {
        case (3, 1): taps(3, 1)
        case (3, 2): taps(3, 2)
        case (5, 1): taps(5, 1)
        case (5, 2): taps(5, 2)
        default: taps(k, g.stride)
        }
        @inline(__always) func finish(_ acc: V8, _ oy: Int, _ vx: Int) {
          var v = acc
          if activation != .none {
            v = v.replacing(with: 0, where: .!(v .> 0))
            v = v.replacing(with: cap, where: v .> cap)
          }
          let ox = vx * 8
          let dst = out + oy * ow + ox
          // A row's last, partial vector is stored whole when its 8 floats stay inside this
          // channel's plane (the lanes past the row are written again, later, by the next
          // rows); never past the plane, which belongs to the next channel or buffer.
          if ox + 8 <= ow || oy * ow + ox + 8 <= oh * ow {
            dwStore(v, dst)
          } else {
            for lane in 0..<(ow - ox) { dst[lane] = v[lane] }
          }
        }
        finish(a0, ys.0, xs.0)
        if group > 1 { finish(a1, ys.1, xs.1) }
        if group > 2 { finish(a2, ys.2, xs.2) }
        if group > 3 { finish(a3, ys.3, xs.3) }
      }
    }
  }

  /// `y = min(max(x, 0), 6)` element-wise, NaN → 0.
  static func relu6(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ count: Int) {
    let cap = V8(repeating: 6)
    var i = 0
    while i + 8 <= count {
      let v = dwLoad(x + i)
      dwStore(v.replacing(with: 0, where: .!(v .> 0)).replacing(with: cap, where: v .> cap), y + i)
      i += 8
    }
    while i < count {
      let v = x[i]
      y[i] = v > 0 ? min(v, 6) : 0
      i += 1
    }
  }

  /// `y = a + b` element-wise.
  static func add(
    _ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>,
    _ count: Int
  ) {
    var i = 0
    while i + 8 <= count {
      dwStore(dwLoad(a + i) + dwLoad(b + i), y + i)
      i += 8
    }
    while i < count {
      y[i] = a[i] + b[i]
      i += 1
    }
  }

  /// `Σ a[i]·b[i]` with four 8-lane accumulators added in a fixed order.
  static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ count: Int) -> Float {
    var s0 = V8()
    var s1 = V8()
    var s2 = V8()
    var s3 = V8()
    var i = 0
    while i + 32 <= count {
      s0 = dwFMA(s0, dwLoad(a + i), dwLoad(b + i))
      s1 = dwFMA(s1, dwLoad(a + i + 8), dwLoad(b + i + 8))
      s2 = dwFMA(s2, dwLoad(a + i + 16), dwLoad(b + i + 16))
      s3 = dwFMA(s3, dwLoad(a + i + 24), dwLoad(b + i + 24))
      i += 32
    }
    while i + 8 <= count {
      s0 = dwFMA(s0, dwLoad(a + i), dwLoad(b + i))
      i += 8
    }
    let v = (s0 + s1) + (s2 + s3)
    var total = ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))
    while i < count {
      total = dwFMAScalar(total, a[i], b[i])
      i += 1
    }
    return total
  }

  @inline(__always)
  private static func dwLoad(_ p: UnsafePointer<Float>) -> V8 {
    UnsafeRawPointer(p).loadUnaligned(as: V8.self)
  }

  @inline(__always)
  private static func dw4Store(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: SIMD4<Float>.self)
  }

  @inline(__always)
  private static func dwStore(_ v: V8, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: V8.self)
  }

  /// The fused multiply-add of this file (see `Kernels.fmadd`; each kernel file keeps its own so
  /// debug builds inline it).
  @inline(__always)
  private static func dwFMA(_ acc: V8, _ a: V8, _ b: V8) -> V8 {
    #if LEAMOJI_FMA
      return acc.addingProduct(a, b)
    #else
      return acc + a * b
    #endif
  }

  @inline(__always)
  private static func dwFMAScalar(_ acc: Float, _ a: Float, _ b: Float) -> Float {
    #if LEAMOJI_FMA
      return acc.addingProduct(a, b)
    #else
      return acc + a * b
    #endif
  }
}

extension Kernels {
  /// Unfolds the patches of a sweep with any padding into a row-major `col[patch × positions]`,
  /// rows `rows` only (so lanes can share the work): row `(c, ky, kx)`, column `(oy, ox)` holds
  /// `input[c, oy·s − top + ky, ox·s − left + kx]` (0 outside). Only the zeros of the padding
  /// are written as zeros; stride 2 takes the even lanes of 16-float loads.
  static func im2col(
    _ g: PaddedWindow, rows: Range<Int>, input: UnsafePointer<Float>,
    col: UnsafeMutablePointer<Float>
  ) {
    let positions = g.outArea
    let taps = g.kernel * g.kernel
    let (oh, ow) = (g.outHeight, g.outWidth)
    for r in rows {
      let (c, tap) = (r / taps, r % taps)
      let (ky, kx) = (tap / g.kernel, tap % g.kernel)
      let (yLo, yHi) = validRange(
        size: g.height, outSize: oh, stride: g.stride, padding: g.top, tap: ky)
      let (xLo, xHi) = validRange(
        size: g.width, outSize: ow, stride: g.stride, padding: g.left, tap: kx)
      let row = col + r * positions
      row.update(repeating: 0, count: yLo * ow)
      (row + yHi * ow).update(repeating: 0, count: (oh - yHi) * ow)
      for oy in yLo..<yHi {
        let dst = row + oy * ow
        let src = input + (c * g.height + oy * g.stride - g.top + ky) * g.width + kx - g.left
        dst.update(repeating: 0, count: xLo)
        (dst + xHi).update(repeating: 0, count: ow - xHi)
        var ox = xLo
        if g.stride == 2 {
          // 16 inputs for 8 outputs while the load stays inside the input row.
          while ox + 8 <= xHi && 2 * ox + kx - g.left + 16 <= g.width {
            let v = UnsafeRawPointer(src + 2 * ox).loadUnaligned(as: SIMD16<Float>.self)
            dwStore(v.evenHalf, dst + ox)
            ox += 8
          }
        } else if g.stride == 1 {
          (dst + ox).update(from: src + ox, count: xHi - ox)
          ox = xHi
        }
        while ox < xHi {
          dst[ox] = src[ox * g.stride]
          ox += 1
        }
      }
    }
  }
}
