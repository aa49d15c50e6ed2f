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
  /// 2x2 windows with stride 2 (the default network's) take eight outputs at a time: the
  /// even and odd lanes of two 16-float rows are the four window taps, compared in the same
  /// order and with the same `>` as `argmaxInWindow`, so the value (NaN included) is the
  /// scalar path's.
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
            let r0 = UnsafeRawPointer(top + 2 * ox).loadUnaligned(as: SIMD16<Float>.self)
            let r1 = UnsafeRawPointer(bottom + 2 * ox).loadUnaligned(as: SIMD16<Float>.self)
            var best = r0.evenHalf
            let b = r0.oddHalf
            best.replace(with: b, where: b .> best)
            let c = r1.evenHalf
            best.replace(with: c, where: c .> best)
            let d = r1.oddHalf
            best.replace(with: d, where: d .> best)
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
  /// (Scalar: an 8-lane version needs the taps interleaved back into rows, which the Swift
  /// SIMD types' `evenHalf` setters compile to a lane-by-lane loop, 6 times slower.)
  static func maxPoolBackwardAdd(
    _ g: Window, input: UnsafePointer<Float>, gradOutput: UnsafePointer<Float>,
    gradInput: UnsafeMutablePointer<Float>
  ) {
    let oh = g.outHeight
    let ow = g.outWidth
    let hw = g.height * g.width
    for ch in 0..<g.channels {
      let plane = input + ch * hw
      let gIn = gradInput + ch * hw
      let gOut = gradOutput + ch * oh * ow
      for oy in 0..<oh {
        for ox in 0..<ow {
          gIn[argmaxInWindow(g, plane: plane, oy: oy, ox: ox)] += gOut[oy * ow + ox]
        }
      }
    }
  }
}
