/// The packed matrix multiply every convolution pass runs on: forward (`Y = W·col`), weight
/// gradient (`dW = dY·colᵀ`) and input gradient (`dCol = Wᵀ·dY`).
///
/// Layout (the classic GotoBLAS/BLIS scheme, sized for 16 AVX2 registers):
/// - `A` is packed once per call into 4-row panels, `[k][4]` per panel, so the micro-kernel
///   broadcasts each `A` element straight from memory;
/// - `B` is packed one 16-column panel at a time, `[k][16]`, so it streams from L1 while every
///   4-row panel of `A` passes over it;
/// - `k` is cut into blocks of `kBlock` so a packed `B` panel (kBlock x 16 floats, 16 KB) stays
///   in L1 whatever the layer size;
/// - the micro-kernel keeps a 4x16 tile of `C` in eight `SIMD8<Float>` accumulators (eight
///   independent FMA chains hide the FMA latency on two FMA units) and needs 2 vector loads and
///   4 broadcasts per 8 FMAs.
///
/// The output pass is fused: the accumulators start from the bias (or the old `C`, or zero)
/// and ReLU is applied as they are stored, so no separate pass touches `C`.
///
/// Determinism: every element of `C` is its start value followed by one FMA per `k` in
/// increasing order, whatever the tiling, blocking, edge handling or thread count.
///
/// The packing is in GEMMPacking.swift, the register tiles in GEMMTiles.swift. LeamojiNN is
/// compiled whole-module even in debug builds (Package.swift), so they inline into this
/// driver as if they were in this file (without it, a debug build's kernels were 2.5x slower).
extension Kernels {
  typealias V8 = SIMD8<Float>

  /// Rows of the register tile.
  static let tileRows = 4
  /// Columns of the register tile (two 8-lane vectors).
  static let tileColumns = 16
  /// `k` block: a packed `B` panel is `kBlock x 16` floats.
  static let kBlock = 256
  /// Rows of the wide register tile (weights in place, full panels).
  static let wideRows = 6
  /// Products of at most this many columns (the 7x7 layers: 49) keep the 4-row tile: their
  /// weights stream from L3 once per panel, and six weight rows at a time were slower there
  /// (192 x 1152 x 49: 217 → 240 µs on one thread), faster everywhere else.
  static let wideTilesMinColumns = 64
  /// The narrow tile of a last panel of at most 8 columns: 8 rows x one vector.
  static let narrowRows = 8
  static let narrowColumns = 8

  /// `acc + a·b`: one fused multiply-add when LeamojiNN is built for FMA hardware (the
  /// package's default on x86-64, see Package.swift), a separate multiply and add otherwise.
  /// (`addingProduct` without FMA hardware calls the C library's `fmaf` per lane, which is
  /// 20 times slower, so it is used only when the compiler may emit the instruction.)
  @inline(__always)
  static func fmadd(_ acc: V8, _ a: V8, _ b: V8) -> V8 {
    #if LEAMOJI_FMA
      return acc.addingProduct(a, b)
    #else
      return acc + a * b
    #endif
  }

  /// The scalar `acc + a·b`, fused under the same condition as `fmadd`.
  @inline(__always)
  static func fmaddScalar(_ acc: Float, _ a: Float, _ b: Float) -> Float {
    #if LEAMOJI_FMA
      return acc.addingProduct(a, b)
    #else
      return acc + a * b
    #endif
  }

  @inline(__always)
  static func loadV8(_ p: UnsafePointer<Float>) -> V8 {
    UnsafeRawPointer(p).loadUnaligned(as: V8.self)
  }

  @inline(__always)
  static func storeV8(_ v: V8, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: V8.self)
  }

  /// The upper bound of an activation: 6 for ReLU6, infinity for ReLU.
  @inline(__always)
  static func activationCap(_ activation: Activation) -> V8 {
    V8(repeating: activation == .relu6 ? 6 : .infinity)
  }

  /// max(v, 0) with NaN → 0, as the ReLU layer, then capped at `cap`.
  @inline(__always)
  static func act(_ v: V8, _ cap: V8) -> V8 {
    v.replacing(with: 0, where: .!(v .> 0)).replacing(with: cap, where: v .> cap)
  }

  /// How the accumulators of `C` start.
  enum GEMMStart {
    /// `C = A·B` (plus the bias, when one is given).
    case overwrite
    /// `C += A·B`.
    case accumulate
  }

  /// What the output pass applies as it stores `C`. (A struct over a byte rather than an enum:
  /// an enum's unused byte values would carry `Engine.Op`'s tag, and valgrind's memcheck then
  /// sees the tag test read the uninitialised bytes of the other cases' shorter payloads.)
  struct Activation: Equatable, Sendable {
    let code: UInt8
    static let none = Activation(code: 0)
    /// max(x, 0), NaN → 0.
    static let relu = Activation(code: 1)
    /// min(max(x, 0), 6), NaN → 0.
    static let relu6 = Activation(code: 2)
  }

  /// Floats of scratch `gemmPacked` needs for an `m`-row product that reads its weights in
  /// place (`weightsInPlace`).
  static func gemmInPlaceScratchCount(m: Int) -> Int {
    let paddedRows = (m + tileRows - 1) / tileRows * tileRows
    return paddedRows + kBlock * tileColumns + tileRows * tileColumns + tileRows * kBlock
  }

  /// Floats of scratch `gemmPacked` needs for an `m x k` product.
  static func gemmScratchCount(m: Int, k: Int) -> Int {
    let paddedRows = (m + tileRows - 1) / tileRows * tileRows
    return paddedRows * k + paddedRows + kBlock * tileColumns + tileRows * tileColumns
  }

  /// `C[m×n] = start + A[m×k]·B[k×n]`, then ReLU when `relu` is set.
  ///
  /// - Parameters:
  ///   - a: element `(i, p)` at `a[i * aRowStride + p * aColStride]` (so `Wᵀ` is used in place).
  ///   - b: element `(p, j)` at `b[p * bRowStride + j * bColStride]` (so `colᵀ` is used in place).
  ///   - c: element `(i, j)` at `c[i * ldc + j]`.
  ///   - start: overwrite (with `bias[i]` added when given) or accumulate into `C`.
  ///   - scratch: at least `gemmScratchCount(m:k:)` floats (`gemmInPlaceScratchCount(m:)`
  ///     with `weightsInPlace`), owned by the calling thread.
  ///   - weightsInPlace: read a row-major `A` (`aColStride` 1) where it is instead of packing it:
  ///     the same sums, without a packed copy of every weight.
  ///   - bIsPanels: `B` is already in the packed layout (`im2colPanels`): panel `q` of 16
  ///     columns at `b + q * k * 16`, row `p` of it at `+ p * 16`, zero past `n`; the strides
  ///     are then ignored and nothing is copied.
  static func gemmPacked(
    m: Int, n: Int, k: Int,
    a: UnsafePointer<Float>, aRowStride: Int, aColStride: Int,
    b: UnsafePointer<Float>, bRowStride: Int, bColStride: Int,
    c: UnsafeMutablePointer<Float>, ldc: Int,
    start: GEMMStart, bias: UnsafePointer<Float>?, relu: Bool,
    scratch: UnsafeMutablePointer<Float>, bIsPanels: Bool = false,
    activation: Activation? = nil, weightsInPlace: Bool = false
  ) {
    guard m > 0, n > 0 else { return }
    precondition(!weightsInPlace || aColStride == 1, "weights in place must be row-major")
    let tiles = (m + tileRows - 1) / tileRows
    let paddedRows = tiles * tileRows
    let packedA: UnsafePointer<Float>
    let packedBias: UnsafeMutablePointer<Float>
    if weightsInPlace {
      packedA = a
      packedBias = scratch
    } else {
      packA(
        m: m, k: k, a: a, aRowStride: aRowStride, aColStride: aColStride, tiles: tiles,
        into: scratch)
      packedA = UnsafePointer(scratch)
      packedBias = scratch + paddedRows * k
    }
    let packedB = packedBias + paddedRows
    let edgeTile = packedB + kBlock * tileColumns
    let edgeA = edgeTile + tileRows * tileColumns
    let act = activation ?? (relu ? .relu : Activation.none)
    for i in 0..<paddedRows { packedBias[i] = bias != nil && i < m ? bias![i] : 0 }

    // One register tile: rows from `i0`, columns `j0..<j0 + cols` from `panel`.
    @inline(__always)
    func tile(
      _ i0: Int, _ j0: Int, _ cols: Int, _ panel: UnsafePointer<Float>, _ p0: Int, _ kc: Int,
      mode: GEMMStart, useBias: Bool, act: Activation
    ) {
      let rows = min(tileRows, m - i0)
      let tileBias = UnsafePointer(packedBias + i0)
      let cTile = c + i0 * ldc + j0
      if weightsInPlace && rows == tileRows && cols == tileColumns {
        kernel4x16(
          k: kc, a: a + i0 * aRowStride + p0, aRowStep: aRowStride, aKStep: 1,
          b: panel, c: cTile, ldc: ldc, load: mode == .accumulate,
          bias: useBias ? tileBias : nil, activation: act)
        return
      }
      // Full rows read the weights in place; a partial tile's rows are packed with zeros
      // below (the kernel reads four rows).
      let pa: UnsafePointer<Float>
      var (aRowStep, aKStep) = (1, tileRows)
      if weightsInPlace && rows == tileRows {
        pa = a + i0 * aRowStride + p0
        (aRowStep, aKStep) = (aRowStride, 1)
      } else if weightsInPlace {
        for p in 0..<kc {
          for r in 0..<tileRows {
            edgeA[p * tileRows + r] = r < rows ? a[(i0 + r) * aRowStride + p0 + p] : 0
          }
        }
        pa = UnsafePointer(edgeA)
      } else {
        pa = UnsafePointer(packedA + i0 * k + p0 * tileRows)
      }
      if rows == tileRows && cols == tileColumns {
        kernel4x16(
          k: kc, a: pa, b: panel, c: cTile, ldc: ldc, load: mode == .accumulate,
          bias: useBias ? tileBias : nil, activation: act)
      } else {
        // Edge tile: run the full kernel on a 4x16 copy, then keep the valid part.
        for r in 0..<tileRows {
          for j in 0..<tileColumns {
            let inside = r < rows && j < cols
            edgeTile[r * tileColumns + j] =
              !inside ? 0 : mode == .accumulate ? cTile[r * ldc + j] : useBias ? tileBias[r] : 0
          }
        }
        kernel4x16(
          k: kc, a: pa, aRowStep: aRowStep, aKStep: aKStep, b: panel, c: edgeTile,
          ldc: tileColumns, load: true, bias: nil, activation: act)
        for r in 0..<rows {
          for j in 0..<cols { cTile[r * ldc + j] = edgeTile[r * tileColumns + j] }
        }
      }
    }

    // Rows `i0..<i0 + 8` (all inside `m`), columns `j0..<j0 + cols` (≤ 8), weights in place:
    // the kernel works on an 8x8 copy of the valid part of `C`.
    @inline(__always)
    func narrowTile(
      _ i0: Int, _ j0: Int, _ cols: Int, _ panel: UnsafePointer<Float>, _ p0: Int, _ kc: Int,
      mode: GEMMStart, useBias: Bool, act: Activation
    ) {
      let cTile = c + i0 * ldc + j0
      for r in 0..<narrowRows {
        for j in 0..<narrowColumns {
          edgeTile[r * narrowColumns + j] =
            j >= cols
            ? 0 : mode == .accumulate ? cTile[r * ldc + j] : useBias ? packedBias[i0 + r] : 0
        }
      }
      kernel8x8(
        k: kc, a: a + i0 * aRowStride + p0, aRowStep: aRowStride, b: panel, c: edgeTile,
        activation: act)
      for r in 0..<narrowRows {
        for j in 0..<cols { cTile[r * ldc + j] = edgeTile[r * narrowColumns + j] }
      }
    }

    // With weights in place, full panels run 6-row tiles over rows `0..<wideRowsEnd`, chosen so
    // that the rows left are a multiple of 4 (none, 4 or 8) when `m` is even.
    let wideRowsEnd: Int
    switch m % wideRows {
    case 2: wideRowsEnd = max(0, m - 8)
    case 4: wideRowsEnd = m - 4
    default: wideRowsEnd = m / wideRows * wideRows
    }

    var p0 = 0
    repeat {
      let kc = min(kBlock, k - p0)
      let first = p0 == 0
      let last = p0 + kc >= k
      let mode: GEMMStart = first ? start : .accumulate
      let useBias = first && start == .overwrite && bias != nil
      let blockAct = last ? act : .none
      var j0 = 0
      while j0 < n {
        let cols = min(tileColumns, n - j0)
        let panel: UnsafePointer<Float>
        if bIsPanels {
          panel = b + (j0 / tileColumns) * k * tileColumns + p0 * tileColumns
        } else {
          packB(
            kc: kc, cols: cols, b: b + p0 * bRowStride + j0 * bColStride,
            bRowStride: bRowStride, bColStride: bColStride, into: packedB)
          panel = UnsafePointer(packedB)
        }
        var i0 = 0
        if weightsInPlace && cols <= narrowColumns {
          // A last panel of at most 8 columns: 8 rows at a time on one vector.
          while i0 + narrowRows <= m {
            narrowTile(i0, j0, cols, panel, p0, kc, mode: mode, useBias: useBias, act: blockAct)
            i0 += narrowRows
          }
        } else if weightsInPlace && cols == tileColumns && n > wideTilesMinColumns {
          // Full panels: 6-row tiles, then 4-row ones for the last 4 or 8 rows.
          while i0 < wideRowsEnd {
            kernel6x16(
              k: kc, a: a + i0 * aRowStride + p0, aRowStep: aRowStride, b: panel,
              c: c + i0 * ldc + j0, ldc: ldc, load: mode == .accumulate,
              bias: useBias ? UnsafePointer(packedBias + i0) : nil, activation: blockAct)
            i0 += wideRows
          }
        }
        while i0 < m {
          tile(i0, j0, cols, panel, p0, kc, mode: mode, useBias: useBias, act: blockAct)
          i0 += tileRows
        }
        j0 += cols
      }
      p0 += kc
    } while p0 < k
  }
}
