/// `gemmPacked`'s register tiles (4x16, 6x16, 8x8): FMAs into accumulators, then the fused
/// output pass.
extension Kernels {
  /// The register tile: `C[4×16] = start + Σ_p a[p][0..<4] ⊗ b[p][0..<16]`, optional ReLU.
  /// `start` is the old `C` (`load`), the bias per row, or zero.
  @inline(__always)
  static func kernel4x16(
    k: Int, a: UnsafePointer<Float>, aRowStep: Int = 1, aKStep: Int = tileRows,
    b: UnsafePointer<Float>, c: UnsafeMutablePointer<Float>,
    ldc: Int, load: Bool, bias: UnsafePointer<Float>?, activation: Activation
  ) {
    let c0 = c
    let c1 = c0 + ldc
    let c2 = c1 + ldc
    let c3 = c2 + ldc
    var s00: V8
    var s01: V8
    var s10: V8
    var s11: V8
    var s20: V8
    var s21: V8
    var s30: V8
    var s31: V8
    if load {
      s00 = loadV8(c0)
      s01 = loadV8(c0 + 8)
      s10 = loadV8(c1)
      s11 = loadV8(c1 + 8)
      s20 = loadV8(c2)
      s21 = loadV8(c2 + 8)
      s30 = loadV8(c3)
      s31 = loadV8(c3 + 8)
    } else if let bias {
      s00 = V8(repeating: bias[0])
      s01 = s00
      s10 = V8(repeating: bias[1])
      s11 = s10
      s20 = V8(repeating: bias[2])
      s21 = s20
      s30 = V8(repeating: bias[3])
      s31 = s30
    } else {
      s00 = V8()
      s01 = V8()
      s10 = V8()
      s11 = V8()
      s20 = V8()
      s21 = V8()
      s30 = V8()
      s31 = V8()
    }
    var pa = a
    var pb = b
    let (r1, r2, r3) = (aRowStep, 2 * aRowStep, 3 * aRowStep)
    for _ in 0..<k {
      let b0 = loadV8(pb)
      let b1 = loadV8(pb + 8)
      let a0 = V8(repeating: pa[0])
      s00 = fmadd(s00, a0, b0)
      s01 = fmadd(s01, a0, b1)
      let a1 = V8(repeating: pa[r1])
      s10 = fmadd(s10, a1, b0)
      s11 = fmadd(s11, a1, b1)
      let a2 = V8(repeating: pa[r2])
      s20 = fmadd(s20, a2, b0)
      s21 = fmadd(s21, a2, b1)
      let a3 = V8(repeating: pa[r3])
      s30 = fmadd(s30, a3, b0)
      s31 = fmadd(s31, a3, b1)
      pa += aKStep
      pb += 16
    }
    if activation != .none {
      let cap = activationCap(activation)
      (s00, s01, s10, s11) = (act(s00, cap), act(s01, cap), act(s10, cap), act(s11, cap))
      (s20, s21, s30, s31) = (act(s20, cap), act(s21, cap), act(s30, cap), act(s31, cap))
    }
    storeV8(s00, c0)
    storeV8(s01, c0 + 8)
    storeV8(s10, c1)
    storeV8(s11, c1 + 8)
    storeV8(s20, c2)
    storeV8(s21, c2 + 8)
    storeV8(s30, c3)
    storeV8(s31, c3 + 8)
  }

  /// The wide register tile, weights in place: `C[6×16] = start + Σ_p a[0..<6][p] ⊗ b[p][0..<16]`
  /// (rows of `a` `aRowStep` apart), then the activation; twelve accumulators, 2 vector loads
  /// and 6 broadcasts per 12 FMAs (the 4x16 tile needs 6 per 8).
  @inline(__always)
  static func kernel6x16(
    k: Int, a: UnsafePointer<Float>, aRowStep: Int, b: UnsafePointer<Float>,
    c: UnsafeMutablePointer<Float>, ldc: Int, load: Bool, bias: UnsafePointer<Float>?,
    activation: Activation
  ) {
    let c0 = c
    let c1 = c0 + ldc
    let c2 = c1 + ldc
    let c3 = c2 + ldc
    let c4 = c3 + ldc
    let c5 = c4 + ldc
    var s00: V8
    var s01: V8
    var s10: V8
    var s11: V8
    var s20: V8
    var s21: V8
    var s30: V8
    var s31: V8
    var s40: V8
    var s41: V8
    var s50: V8
    var s51: V8
    if load {
      (s00, s01) = (loadV8(c0), loadV8(c0 + 8))
      (s10, s11) = (loadV8(c1), loadV8(c1 + 8))
      (s20, s21) = (loadV8(c2), loadV8(c2 + 8))
      (s30, s31) = (loadV8(c3), loadV8(c3 + 8))
      (s40, s41) = (loadV8(c4), loadV8(c4 + 8))
      (s50, s51) = (loadV8(c5), loadV8(c5 + 8))
    } else if let bias {
      s00 = V8(repeating: bias[0])
      s01 = s00
      s10 = V8(repeating: bias[1])
      s11 = s10
      s20 = V8(repeating: bias[2])
      s21 = s20
      s30 = V8(repeating: bias[3])
      s31 = s30
      s40 = V8(repeating: bias[4])
      s41 = s40
      s50 = V8(repeating: bias[5])
      s51 = s50
    } else {
      (s00, s01, s10, s11, s20, s21) = (V8(), V8(), V8(), V8(), V8(), V8())
      (s30, s31, s40, s41, s50, s51) = (V8(), V8(), V8(), V8(), V8(), V8())
    }
    let a0 = a
    let a3 = a + 3 * aRowStep
    let (r1, r2) = (aRowStep, 2 * aRowStep)
    var pb = b
    for p in 0..<k {
      let b0 = loadV8(pb)
      let b1 = loadV8(pb + 8)
      var x = V8(repeating: a0[p])
      s00 = fmadd(s00, x, b0)
      s01 = fmadd(s01, x, b1)
      x = V8(repeating: a0[r1 + p])
      s10 = fmadd(s10, x, b0)
      s11 = fmadd(s11, x, b1)
      x = V8(repeating: a0[r2 + p])
      s20 = fmadd(s20, x, b0)
      s21 = fmadd(s21, x, b1)
      x = V8(repeating: a3[p])
      s30 = fmadd(s30, x, b0)
      s31 = fmadd(s31, x, b1)
      x = V8(repeating: a3[r1 + p])
      s40 = fmadd(s40, x, b0)
      s41 = fmadd(s41, x, b1)
      x = V8(repeating: a3[r2 + p])
      s50 = fmadd(s50, x, b0)
      s51 = fmadd(s51, x, b1)
      pb += tileColumns
    }
    if activation != .none {
      let cap = activationCap(activation)
      (s00, s01, s10, s11) = (act(s00, cap), act(s01, cap), act(s10, cap), act(s11, cap))
      (s20, s21, s30, s31) = (act(s20, cap), act(s21, cap), act(s30, cap), act(s31, cap))
      (s40, s41, s50, s51) = (act(s40, cap), act(s41, cap), act(s50, cap), act(s51, cap))
    }
    storeV8(s00, c0)
    storeV8(s01, c0 + 8)
    storeV8(s10, c1)
    storeV8(s11, c1 + 8)
    storeV8(s20, c2)
    storeV8(s21, c2 + 8)
    storeV8(s30, c3)
    storeV8(s31, c3 + 8)
    storeV8(s40, c4)
    storeV8(s41, c4 + 8)
    storeV8(s50, c5)
    storeV8(s51, c5 + 8)
  }

  /// The narrow register tile: `C[8×8] += Σ_p a[0..<8][p] ⊗ b[p][0..<8]` (`C` a dense 8x8
  /// block, `b` a packed panel whose first 8 columns are used), then the activation. Eight
  /// accumulators keep both FMA units busy where a 4x8 tile would wait out the FMA latency.
  @inline(__always)
  static func kernel8x8(
    k: Int, a: UnsafePointer<Float>, aRowStep: Int, b: UnsafePointer<Float>,
    c: UnsafeMutablePointer<Float>, activation: Activation
  ) {
    var s0 = loadV8(c)
    var s1 = loadV8(c + 8)
    var s2 = loadV8(c + 16)
    var s3 = loadV8(c + 24)
    var s4 = loadV8(c + 32)
    var s5 = loadV8(c + 40)
    var s6 = loadV8(c + 48)
    var s7 = loadV8(c + 56)
    let a0 = a
    let a4 = a + 4 * aRowStep
    let (r1, r2, r3) = (aRowStep, 2 * aRowStep, 3 * aRowStep)
    var pb = b
    for p in 0..<k {
      let x = loadV8(pb)
      s0 = fmadd(s0, V8(repeating: a0[p]), x)
      s1 = fmadd(s1, V8(repeating: a0[r1 + p]), x)
      s2 = fmadd(s2, V8(repeating: a0[r2 + p]), x)
      s3 = fmadd(s3, V8(repeating: a0[r3 + p]), x)
      s4 = fmadd(s4, V8(repeating: a4[p]), x)
      s5 = fmadd(s5, V8(repeating: a4[r1 + p]), x)
      s6 = fmadd(s6, V8(repeating: a4[r2 + p]), x)
      s7 = fmadd(s7, V8(repeating: a4[r3 + p]), x)
      pb += tileColumns
    }
    if activation != .none {
      let cap = activationCap(activation)
      (s0, s1, s2, s3) = (act(s0, cap), act(s1, cap), act(s2, cap), act(s3, cap))
      (s4, s5, s6, s7) = (act(s4, cap), act(s5, cap), act(s6, cap), act(s7, cap))
    }
    storeV8(s0, c)
    storeV8(s1, c + 8)
    storeV8(s2, c + 16)
    storeV8(s3, c + 24)
    storeV8(s4, c + 32)
    storeV8(s5, c + 40)
    storeV8(s6, c + 48)
    storeV8(s7, c + 56)
  }
}
