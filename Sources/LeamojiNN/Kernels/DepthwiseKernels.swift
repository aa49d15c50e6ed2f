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
