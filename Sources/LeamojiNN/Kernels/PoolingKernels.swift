/// Max pooling forward and backward.
extension Kernels {
  /// The index (within the input plane) of the first maximum of the window at `(oy, ox)`, in
  /// row-major window order. Pooling windows have no padding and always lie inside the plane.
  @inline(__always)
  static func argmaxInWindow(_ g: Window, plane: UnsafePointer<Float>, oy: Int, ox: Int) -> Int {
    let top = oy * g.stride * g.width + ox * g.stride
    if g.kernel == 2 {
      let w = g.width
      var best = top
      if plane[top + 1] > plane[best] { best = top + 1 }
      if plane[top + w] > plane[best] { best = top + w }
      if plane[top + w + 1] > plane[best] { best = top + w + 1 }
      return best
    }
    var best = top
    for ky in 0..<g.kernel {
      for kx in 0..<g.kernel {
        let idx = top + ky * g.width + kx
        if plane[idx] > plane[best] { best = idx }
      }
    }
    return best
  }

  /// Max pooling of every channel: `output[c, oy, ox]` = the window maximum.
  ///
  /// 2x2 windows with stride 2 (the default network's) take eight outputs at a time
  /// (`eightWindows`), so the value (NaN included) is the scalar path's.
  static func maxPool(
    _ g: Window, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
  ) {
    let oh = g.outHeight
    let ow = g.outWidth
    let pairs = g.kernel == 2 && g.stride == 2
    for ch in 0..<g.channels {
      let plane = input + ch * g.height * g.width
      let out = output + ch * oh * ow
      for oy in 0..<oh {
        var ox = 0
        if pairs {
          let top = plane + 2 * oy * g.width
          let bottom = top + g.width
          while ox + 8 <= ow {
            let best = eightWindows(top + 2 * ox, bottom + 2 * ox).best
            UnsafeMutableRawPointer(out + oy * ow + ox).storeBytes(of: best, as: SIMD8<Float>.self)
            ox += 8
          }
        }
        while ox < ow {
          out[oy * ow + ox] = plane[argmaxInWindow(g, plane: plane, oy: oy, ox: ox)]
          ox += 1
        }
      }
    }
  }

  /// Routes each output gradient to the (first) maximum of its window, adding into `gradInput`.
  ///
  /// 2x2 windows with stride 2 take eight windows at a time: the four taps are compared as in
  /// the forward pass (`eightWindows`: so ties and NaNs pick the same tap), each tap's
  /// gradient is the output gradient where it won and 0 elsewhere, and the taps are
  /// interleaved back into the two input rows (explicit lane lists, which compile to unpack
  /// shuffles) and added. The windows do not overlap, so every input element receives its
  /// window's gradient or 0, as in the scalar path (the callers start from a zeroed
  /// `gradInput`).
  static func maxPoolBackwardAdd(
    _ g: Window, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
    gradInput: UnsafeMutablePointer<Float>
  ) {
    let oh = g.outHeight
    let ow = g.outWidth
    let hw = g.height * g.width
    let pairs = g.kernel == 2 && g.stride == 2
    for ch in 0..<g.channels {
      let plane = input + ch * hw
      let gIn = gradInput + ch * hw
      let gOut = gradOutput + ch * oh * ow
      for oy in 0..<oh {
        var ox = 0
        if pairs {
          let top = plane + 2 * oy * g.width
          let bottom = top + g.width
          let dTop = gIn + 2 * oy * g.width
          let dBottom = dTop + g.width
          while ox + 8 <= ow {
            let gradient = UnsafeRawPointer(gOut + oy * ow + ox).loadUnaligned(
              as: SIMD8<Float>.self)
            let (_, takeB, takeC, takeD) = eightWindows(top + 2 * ox, bottom + 2 * ox)
            // The winner is the last tap that replaced the running best.
            let winD = takeD
            let winC = takeC .& .!takeD
            let winB = takeB .& .!takeC .& .!takeD
            let winA = .!takeB .& .!takeC .& .!takeD
            let zero = SIMD8<Float>()
            addInterleaved(
              gradient.replacing(with: zero, where: .!winA),
              gradient.replacing(with: zero, where: .!winB), into: dTop + 2 * ox)
            addInterleaved(
              gradient.replacing(with: zero, where: .!winC),
              gradient.replacing(with: zero, where: .!winD), into: dBottom + 2 * ox)
            ox += 8
          }
        }
        while ox < ow {
          gIn[argmaxInWindow(g, plane: plane, oy: oy, ox: ox)] += gOut[oy * ow + ox]
          ox += 1
        }
      }
    }
  }

  /// Eight 2x2 windows side by side, their rows starting at `top` and `bottom` (16 floats
  /// each; a window's taps are an even and an odd lane of each row), compared in
  /// `argmaxInWindow`'s order with its `>`: the maximum, and the lanes where tap b, c or d
  /// replaced the running best. Forward and backward share it so that they pick the same tap.
  @inline(__always)
  private static func eightWindows(
    _ top: UnsafePointer<Float>, _ bottom: UnsafePointer<Float>
  ) -> (
    best: SIMD8<Float>, takeB: SIMDMask<SIMD8<Int32>>, takeC: SIMDMask<SIMD8<Int32>>,
    takeD: SIMDMask<SIMD8<Int32>>
  ) {
    let r0 = UnsafeRawPointer(top).loadUnaligned(as: SIMD16<Float>.self)
    let r1 = UnsafeRawPointer(bottom).loadUnaligned(as: SIMD16<Float>.self)
    var best = r0.evenHalf
    let b = r0.oddHalf
    let takeB = b .> best
    best.replace(with: b, where: takeB)
    let c = r1.evenHalf
    let takeC = c .> best
    best.replace(with: c, where: takeC)
    let d = r1.oddHalf
    let takeD = d .> best
    best.replace(with: d, where: takeD)
    return (best, takeB, takeC, takeD)
  }

  /// `p[0..<16] += (e[0], o[0], e[1], o[1], ..., e[7], o[7])`.
  @inline(__always)
  private static func addInterleaved(
    _ e: SIMD8<Float>, _ o: SIMD8<Float>, into p: UnsafeMutablePointer<Float>
  ) {
    let low = SIMD8<Float>(e[0], o[0], e[1], o[1], e[2], o[2], e[3], o[3])
    let high = SIMD8<Float>(e[4], o[4], e[5], o[5], e[6], o[6], e[7], o[7])
    let raw = UnsafeMutableRawPointer(p)
    raw.storeBytes(of: raw.loadUnaligned(as: SIMD8<Float>.self) + low, as: SIMD8<Float>.self)
    raw.storeBytes(
      of: raw.loadUnaligned(fromByteOffset: 32, as: SIMD8<Float>.self) + high,
      toByteOffset: 32, as: SIMD8<Float>.self)
  }
}
