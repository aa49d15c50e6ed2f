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
  static func maxPool(
    _ g: Window, input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>
  ) {
    let oh = g.outHeight
    let ow = g.outWidth
    for ch in 0..<g.channels {
      let plane = input + ch * g.height * g.width
      let out = output + ch * oh * ow
      for oy in 0..<oh {
        for ox in 0..<ow {
          out[oy * ow + ox] = plane[argmaxInWindow(g, plane: plane, oy: oy, ox: ox)]
        }
      }
    }
  }

  /// Routes each output gradient to the (first) maximum of its window, adding into `gradInput`.
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
