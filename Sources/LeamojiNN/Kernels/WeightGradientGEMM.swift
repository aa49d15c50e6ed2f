/// The weight gradient's product, `dW = dY·colᵀ` (`gemmNT`): a dot-product register tile over
/// the long reduction axis, no packing. Everything it calls lives in this file (debug builds
/// compile each file on its own and would not inline helpers from another file).
extension Kernels {
  /// `k` block of `gemmNT`: 4 rows of `A` and 3 of `B`, 1 KB each, stay in L1 across tiles.
  static let dotBlock = 256

  /// `C[m×n] (+)= A[m×k]·B[n×k]ᵀ` for row-major operands that are both contiguous along the long
  /// reduction axis `k`: the weight gradient `dW = dY·colᵀ`, reduced over output positions.
  ///
  /// Packing either operand into the GEMM's panels would transpose it and, for the first layer
  /// (16 x 27 outputs over 4096 positions), cost as much as the arithmetic. Here the register
  /// tile is 4 rows x 3 columns of `C`, each an 8-lane accumulator over `k` (12 independent
  /// FMA chains, 7 vector loads per 12 FMAs, no packing). Per block of `dotBlock` positions the
  /// lanes are added in a fixed tree and the block sums added to `C` in block order, so the
  /// result depends only on the sizes.
  ///
  /// `B`'s element `(j, p)` is at `b[j * bRowStride + (p / 16) * bPanelStride + p % 16]`:
  /// row-major is `bRowStride = k, bPanelStride = 16`; the packed layout of `im2colPanels` is
  /// `bRowStride = 16, bPanelStride = n * 16`.
  static func gemmNT(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>,
    bRowStride: Int, bPanelStride: Int, c: UnsafeMutablePointer<Float>, ldc: Int,
    start: GEMMStart
  ) {
    if start == .overwrite {
      for i in 0..<m { (c + i * ldc).update(repeating: 0, count: n) }
    }
    var p0 = 0
    while p0 < k {
      let kc = min(dotBlock, k - p0)
      var i = 0
      while i < m {
        let rows = min(4, m - i)
        var j = 0
        while j < n {
          let cols = min(3, n - j)
          if rows == 4 && cols == 3 {
            dot4x3(
              p0: p0, k: p0 + kc, a: a + i * k, lda: k, b: b + j * bRowStride, ldb: bRowStride,
              panel: bPanelStride, c: c + i * ldc + j, ldc: ldc)
          } else {
            for r in 0..<rows {
              for q in 0..<cols {
                c[(i + r) * ldc + j + q] += dot(
                  p0: p0, k: p0 + kc, a: a + (i + r) * k, b: b + (j + q) * bRowStride,
                  panel: bPanelStride)
              }
            }
          }
          j += cols
        }
        i += rows
      }
      p0 += kc
    }
  }

  /// The 8 lanes of `v` added in a fixed tree.
  @inline(__always)
  private static func lanes(_ v: V8) -> Float {
    let h = v.lowHalf + v.highHalf
    return (h[0] + h[2]) + (h[1] + h[3])
  }

  /// Offset of position `p` in a panel-addressed row (see `gemmNT`).
  @inline(__always)
  private static func at(_ p: Int, _ panel: Int) -> Int { (p >> 4) &* panel &+ (p & 15) }

  /// One dot product over positions `p0..<k`, summed the same way as one accumulator of
  /// `dot4x3`.
  @inline(__always)
  private static func dot(
    p0: Int, k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, panel: Int
  ) -> Float {
    var acc = V8()
    var p = p0
    while p + 8 <= k {
      acc = ntFMA(acc, ntLoad(a + p), ntLoad(b + at(p, panel)))
      p += 8
    }
    var s = lanes(acc)
    while p < k {
      s = ntFMAScalar(s, a[p], b[at(p, panel)])
      p += 1
    }
    return s
  }

  /// `C[4×3] += A[4×(p0..<k)]·B[3×(p0..<k)]ᵀ` with 12 vector accumulators (`p0` a multiple
  /// of 16, so 8 positions from a multiple of 8 are contiguous in either layout).
  @inline(__always)
  private static func dot4x3(
    p0: Int, k: Int, a: UnsafePointer<Float>, lda: Int, b: UnsafePointer<Float>, ldb: Int,
    panel: Int, c: UnsafeMutablePointer<Float>, ldc: Int
  ) {
    let a0 = a
    let a1 = a0 + lda
    let a2 = a1 + lda
    let a3 = a2 + lda
    let b0 = b
    let b1 = b0 + ldb
    let b2 = b1 + ldb
    var s00 = V8()
    var s01 = V8()
    var s02 = V8()
    var s10 = V8()
    var s11 = V8()
    var s12 = V8()
    var s20 = V8()
    var s21 = V8()
    var s22 = V8()
    var s30 = V8()
    var s31 = V8()
    var s32 = V8()
    var p = p0
    while p + 8 <= k {
      let o = at(p, panel)
      let x0 = ntLoad(b0 + o)
      let x1 = ntLoad(b1 + o)
      let x2 = ntLoad(b2 + o)
      let y0 = ntLoad(a0 + p)
      s00 = ntFMA(s00, y0, x0)
      s01 = ntFMA(s01, y0, x1)
      s02 = ntFMA(s02, y0, x2)
      let y1 = ntLoad(a1 + p)
      s10 = ntFMA(s10, y1, x0)
      s11 = ntFMA(s11, y1, x1)
      s12 = ntFMA(s12, y1, x2)
      let y2 = ntLoad(a2 + p)
      s20 = ntFMA(s20, y2, x0)
      s21 = ntFMA(s21, y2, x1)
      s22 = ntFMA(s22, y2, x2)
      let y3 = ntLoad(a3 + p)
      s30 = ntFMA(s30, y3, x0)
      s31 = ntFMA(s31, y3, x1)
      s32 = ntFMA(s32, y3, x2)
      p += 8
    }
    @inline(__always) func finish(_ v: V8, _ ra: UnsafePointer<Float>, _ rb: UnsafePointer<Float>)
      -> Float
    {
      var s = lanes(v)
      for q in p..<k { s = ntFMAScalar(s, ra[q], rb[at(q, panel)]) }
      return s
    }
    c[0] += finish(s00, a0, b0)
    c[1] += finish(s01, a0, b1)
    c[2] += finish(s02, a0, b2)
    c[ldc] += finish(s10, a1, b0)
    c[ldc + 1] += finish(s11, a1, b1)
    c[ldc + 2] += finish(s12, a1, b2)
    c[2 * ldc] += finish(s20, a2, b0)
    c[2 * ldc + 1] += finish(s21, a2, b1)
    c[2 * ldc + 2] += finish(s22, a2, b2)
    c[3 * ldc] += finish(s30, a3, b0)
    c[3 * ldc + 1] += finish(s31, a3, b1)
    c[3 * ldc + 2] += finish(s32, a3, b2)
  }

  /// `acc + a·b`, fused under the same condition as `Kernels.fmadd`.
  @inline(__always)
  private static func ntFMA(_ acc: V8, _ a: V8, _ b: V8) -> V8 {
    #if LEAMOJI_FMA
      return acc.addingProduct(a, b)
    #else
      return acc + a * b
    #endif
  }

  @inline(__always)
  private static func ntFMAScalar(_ acc: Float, _ a: Float, _ b: Float) -> Float {
    #if LEAMOJI_FMA
      return acc.addingProduct(a, b)
    #else
      return acc + a * b
    #endif
  }

  @inline(__always)
  private static func ntLoad(_ p: UnsafePointer<Float>) -> V8 {
    UnsafeRawPointer(p).loadUnaligned(as: V8.self)
  }
}
