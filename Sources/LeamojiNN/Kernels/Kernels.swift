/// The hot loops of the network. This file holds the vectorised ones (matrix multiply,
/// element-wise loops, reductions) with the vector load/store helpers they use: debug builds
/// compile each file on its own and would not inline helpers from another file, which made the
/// kernels 2.5 times slower. im2col / col2im are in ConvolutionKernels.swift, max pooling in
/// PoolingKernels.swift.
///
/// Everything works on raw pointers to row-major float32 buffers, so speed work (tiling,
/// vector width) stays in this folder. Every routine sums in a fixed order that depends only
/// on the sizes, never on threads, so results are bit-reproducible.
///
/// Vectors are written with `SIMD4`/`SIMD8`: the default x86-64 target is SSE2, where a
/// 4-wide float vector is one register. (Measured on the default model: about 20-30 GFLOPS per
/// core in release builds.)
enum Kernels {
  typealias Vec = SIMD8<Float>
  typealias V4 = SIMD4<Float>

  @inline(__always)
  static func load(_ p: UnsafePointer<Float>) -> Vec {
    UnsafeRawPointer(p).loadUnaligned(as: Vec.self)
  }

  @inline(__always)
  static func store(_ v: Vec, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: Vec.self)
  }

  @inline(__always)
  static func load4(_ p: UnsafePointer<Float>) -> V4 {
    UnsafeRawPointer(p).loadUnaligned(as: V4.self)
  }

  @inline(__always)
  static func store4(_ v: V4, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: V4.self)
  }

  // MARK: Matrix multiply

  /// `C[m×n] += A[m×k] · B[k×n]`.
  ///
  /// `B` and `C` are row-major and contiguous. `A`'s element `(i, p)` is at
  /// `a[i * aRowStride + p * aColStride]`, so a transposed `A` (e.g. `Wᵀ` in the convolution's
  /// input gradient) is used in place. `B` is processed in column panels small enough to stay
  /// in L1 while every row tile of `A` passes over them. Each `C` element is its old value plus
  /// the products in increasing `p`, whatever the tiling, so every path gives the same bits.
  static func gemm(
    m: Int, n: Int, k: Int,
    a: UnsafePointer<Float>, aRowStride: Int, aColStride: Int,
    b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>
  ) {
    // A's 4-row tiles, each element pre-broadcast to 4 lanes (a small scratch buffer): the
    // inner loop then needs only plain vector loads (SSE2 has no broadcast load).
    let tiles = m / 4
    let packed = UnsafeMutablePointer<V4>.allocate(capacity: max(1, tiles * k * 4))
    defer { packed.deallocate() }
    for t in 0..<tiles {
      for p in 0..<k {
        for r in 0..<4 {
          packed[(t * k + p) * 4 + r] = V4(repeating: a[(4 * t + r) * aRowStride + p * aColStride])
        }
      }
    }
    let panel = max(8, min(n, (4096 / max(k, 1)) & ~7))
    var j0 = 0
    while j0 < n {
      let cols = min(panel, n - j0)
      for t in 0..<tiles {
        gemm4Rows(
          cols: cols, ld: n, k: k, packed: packed + t * k * 4, b: b + j0, c: c + (4 * t * n + j0))
      }
      for i in (4 * tiles)..<m {
        gemm1Row(
          cols: cols, ld: n, k: k, a: a + i &* aRowStride, aColStride: aColStride,
          b: b + j0, c: c + (i &* n &+ j0))
      }
      j0 += cols
    }
  }

  /// Four rows of `C` over `cols` columns (row pitch `ld`): a 4x8 register tile per step, with
  /// `A` pre-broadcast (`packed[p * 4 + r]` holds `a(r, p)` in every lane).
  @inline(__always)
  private static func gemm4Rows(
    cols: Int, ld: Int, k: Int, packed: UnsafePointer<V4>, b: UnsafePointer<Float>,
    c: UnsafeMutablePointer<Float>
  ) {
    let c0 = c
    let c1 = c + ld
    let c2 = c1 + ld
    let c3 = c2 + ld
    var j = 0
    while j + 8 <= cols {
      var s0a = load4(c0 + j)
      var s0b = load4(c0 + j + 4)
      var s1a = load4(c1 + j)
      var s1b = load4(c1 + j + 4)
      var s2a = load4(c2 + j)
      var s2b = load4(c2 + j + 4)
      var s3a = load4(c3 + j)
      var s3b = load4(c3 + j + 4)
      var bp = b + j
      var ap = packed
      for _ in 0..<k {
        let ba = load4(bp)
        let bb = load4(bp + 4)
        let x0 = ap[0]
        let x1 = ap[1]
        let x2 = ap[2]
        let x3 = ap[3]
        s0a += ba * x0
        s0b += bb * x0
        s1a += ba * x1
        s1b += bb * x1
        s2a += ba * x2
        s2b += bb * x2
        s3a += ba * x3
        s3b += bb * x3
        bp += ld
        ap += 4
      }
      store4(s0a, c0 + j)
      store4(s0b, c0 + j + 4)
      store4(s1a, c1 + j)
      store4(s1b, c1 + j + 4)
      store4(s2a, c2 + j)
      store4(s2b, c2 + j + 4)
      store4(s3a, c3 + j)
      store4(s3b, c3 + j + 4)
      j += 8
    }
    while j < cols {
      var s0 = c0[j]
      var s1 = c1[j]
      var s2 = c2[j]
      var s3 = c3[j]
      var bp = b + j
      var ap = packed
      for _ in 0..<k {
        let bv = bp.pointee
        s0 += bv * ap[0][0]
        s1 += bv * ap[1][0]
        s2 += bv * ap[2][0]
        s3 += bv * ap[3][0]
        bp += ld
        ap += 4
      }
      c0[j] = s0
      c1[j] = s1
      c2[j] = s2
      c3[j] = s3
      j += 1
    }
  }

  /// One row of `C` (the rows left over after the 4-row tiles).
  @inline(__always)
  private static func gemm1Row(
    cols: Int, ld: Int, k: Int, a: UnsafePointer<Float>, aColStride: Int,
    b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>
  ) {
    var j = 0
    while j + 8 <= cols {
      var s = load(c + j)
      var bp = b + j
      var ap = 0
      for _ in 0..<k {
        s += load(bp) * a[ap]
        bp += ld
        ap &+= aColStride
      }
      store(s, c + j)
      j += 8
    }
    while j < cols {
      var s = c[j]
      var bp = b + j
      var ap = 0
      for _ in 0..<k {
        s += bp.pointee * a[ap]
        bp += ld
        ap &+= aColStride
      }
      c[j] = s
      j += 1
    }
  }

  /// `C[m×n] += A[m×k] · B[n×k]ᵀ`: dot products of rows, both contiguous along `k`.
  ///
  /// Used for the convolution weight gradient `dW = dY · colᵀ`, where `k` (output positions)
  /// is long. Every element is summed the same way on every path: four lanes over `k` in
  /// steps of 4, lanes combined as `(l0 + l1) + (l2 + l3)`, then the leftover `k % 4` terms.
  static func gemmNT(
    m: Int, n: Int, k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>,
    c: UnsafeMutablePointer<Float>
  ) {
    @inline(__always) func finish(
      _ v: V4, _ ra: UnsafePointer<Float>, _ rb: UnsafePointer<Float>, _ k4: Int
    ) -> Float {
      var s = (v[0] + v[1]) + (v[2] + v[3])
      for p in k4..<k { s += ra[p] * rb[p] }
      return s
    }
    let k4 = k & ~3
    var i = 0
    while i < m {
      let rows = m - i >= 4 ? 4 : 1
      var j = 0
      while j < n {
        if rows == 4 && j + 2 <= n {
          let a0 = a + i * k
          let a1 = a0 + k
          let a2 = a1 + k
          let a3 = a2 + k
          let b0 = b + j * k
          let b1 = b0 + k
          var s00 = V4()
          var s01 = V4()
          var s10 = V4()
          var s11 = V4()
          var s20 = V4()
          var s21 = V4()
          var s30 = V4()
          var s31 = V4()
          var p = 0
          while p < k4 {
            let x0 = load4(b0 + p)
            let x1 = load4(b1 + p)
            let y0 = load4(a0 + p)
            let y1 = load4(a1 + p)
            let y2 = load4(a2 + p)
            let y3 = load4(a3 + p)
            s00 += y0 * x0
            s01 += y0 * x1
            s10 += y1 * x0
            s11 += y1 * x1
            s20 += y2 * x0
            s21 += y2 * x1
            s30 += y3 * x0
            s31 += y3 * x1
            p += 4
          }
          c[i * n + j] += finish(s00, a0, b0, k4)
          c[i * n + j + 1] += finish(s01, a0, b1, k4)
          c[(i + 1) * n + j] += finish(s10, a1, b0, k4)
          c[(i + 1) * n + j + 1] += finish(s11, a1, b1, k4)
          c[(i + 2) * n + j] += finish(s20, a2, b0, k4)
          c[(i + 2) * n + j + 1] += finish(s21, a2, b1, k4)
          c[(i + 3) * n + j] += finish(s30, a3, b0, k4)
          c[(i + 3) * n + j + 1] += finish(s31, a3, b1, k4)
          j += 2
        } else {
          for r in i..<(i + rows) {
            let ra = a + r * k
            let rb = b + j * k
            var acc = V4()
            var p = 0
            while p < k4 {
              acc += load4(ra + p) * load4(rb + p)
              p += 4
            }
            c[r * n + j] += finish(acc, ra, rb, k4)
          }
          j += 1
        }
      }
      i += rows
    }
  }

  // MARK: Element-wise

  /// `y[i] = x[i] > 0 ? x[i] : 0` (NaN becomes 0).
  static func relu(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ count: Int) {
    var i = 0
    while i + 8 <= count {
      let v = load(x + i)
      store(v.replacing(with: 0, where: .!(v .> 0)), y + i)
      i += 8
    }
    while i < count {
      let v = x[i]
      y[i] = v > 0 ? v : 0
      i += 1
    }
  }

  /// `dx[i] = y[i] > 0 ? dy[i] : 0`: the ReLU gradient given its output `y`.
  static func reluBackward(
    _ y: UnsafePointer<Float>, _ dy: UnsafePointer<Float>, _ dx: UnsafeMutablePointer<Float>,
    _ count: Int
  ) {
    var i = 0
    while i + 8 <= count {
      store(load(dy + i).replacing(with: 0, where: .!(load(y + i) .> 0)), dx + i)
      i += 8
    }
    while i < count {
      let g = dy[i]
      dx[i] = y[i] > 0 ? g : 0
      i += 1
    }
  }

  // MARK: Reductions

  /// Sum of `count` floats in index order (a fixed order, so it is reproducible).
  @inline(__always)
  static func sum(_ p: UnsafePointer<Float>, _ count: Int) -> Float {
    var s: Float = 0
    for i in 0..<count { s += p[i] }
    return s
  }

  /// `y[0..<count] += x[0..<count]`.
  @inline(__always)
  static func add(_ x: UnsafePointer<Float>, into y: UnsafeMutablePointer<Float>, _ count: Int) {
    var i = 0
    while i + 8 <= count {
      store(load(y + i) + load(x + i), y + i)
      i += 8
    }
    while i < count {
      y[i] += x[i]
      i += 1
    }
  }
}
