/// Packing of `gemmPacked`'s operands into the panels its register tiles read.
extension Kernels {
  /// Packs `A` into `tiles` panels of `[k][4]`, rows past `m` as zeros.
  @inline(__always)
  static func packA(
    m: Int, k: Int, a: UnsafePointer<Float>, aRowStride: Int, aColStride: Int, tiles: Int,
    into packed: UnsafeMutablePointer<Float>
  ) {
    for t in 0..<tiles {
      let panel = packed + t * tileRows * k
      if aRowStride == 1 && (t + 1) * tileRows <= m {
        // `Wᵀ` of the input gradient: a panel's 4 rows are 4 adjacent floats of each column.
        var src = a + t * tileRows
        var dst = panel
        for _ in 0..<k {
          UnsafeMutableRawPointer(dst).storeBytes(
            of: UnsafeRawPointer(src).loadUnaligned(as: SIMD4<Float>.self), as: SIMD4<Float>.self)
          src += aColStride
          dst += tileRows
        }
        continue
      }
      for r in 0..<tileRows {
        let i = t * tileRows + r
        if i < m {
          let row = a + i * aRowStride
          if aColStride == 1 {
            for p in 0..<k { panel[p * tileRows + r] = row[p] }
          } else {
            for p in 0..<k { panel[p * tileRows + r] = row[p * aColStride] }
          }
        } else {
          for p in 0..<k { panel[p * tileRows + r] = 0 }
        }
      }
    }
  }

  /// Packs `kc` rows of a `cols`-wide (≤ 16) panel of `B` into `[kc][16]`, zero-padded.
  @inline(__always)
  static func packB(
    kc: Int, cols: Int, b: UnsafePointer<Float>, bRowStride: Int, bColStride: Int,
    into packed: UnsafeMutablePointer<Float>
  ) {
    if bColStride == 1 && cols == tileColumns {
      var src = b
      var dst = packed
      for _ in 0..<kc {
        storeV8(loadV8(src), dst)
        storeV8(loadV8(src + 8), dst + 8)
        src += bRowStride
        dst += tileColumns
      }
      return
    }
    if cols < tileColumns {
      packed.update(repeating: 0, count: kc * tileColumns)
    }
    if bColStride == 1 {
      for p in 0..<kc {
        let src = b + p * bRowStride
        let dst = packed + p * tileColumns
        for j in 0..<cols { dst[j] = src[j] }
      }
    } else {
      // A transposed source: walk each column (contiguous when bRowStride == 1).
      for j in 0..<cols {
        let src = b + j * bColStride
        var dst = packed + j
        for p in 0..<kc {
          dst.pointee = src[p * bRowStride]
          dst += tileColumns
        }
      }
    }
  }
}
