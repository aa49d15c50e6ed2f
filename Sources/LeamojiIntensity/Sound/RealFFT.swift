import LeamojiCore

/// The discrete Fourier transform of real input of a power-of-two size `n`, in pure Swift:
/// the `n` real samples are packed as `n/2` complex ones (even samples real, odd imaginary),
/// transformed by an iterative radix-2 FFT, then unpacked into bins `0…n/2`.
/// `X[k] = Σ x[t]·e^(−2πi·k·t/n)`, unscaled.
struct RealFFT: Sendable {
  /// The transform's size (a power of two, at least 4).
  let size: Int
  /// `cos(2πj/size)` and `sin(2πj/size)` for `j` in `0..<size`.
  let cosines: [Double]
  let sines: [Double]
  /// The bit-reversal permutation of `0..<size/2`.
  private let reversed: [Int]

  init(size: Int) {
    precondition(size >= 4 && size & (size - 1) == 0, "size must be a power of two")
    self.size = size
    cosines = (0..<size).map { PortableMath.cos(PortableMath.twoPi * Double($0) / Double(size)) }
    sines = (0..<size).map { PortableMath.sin(PortableMath.twoPi * Double($0) / Double(size)) }
    let half = size / 2
    let bits = half.trailingZeroBitCount
    reversed = (0..<half).map { i in
      var r = 0
      for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
      return r
    }
  }

  /// The bins `0…size/2` of the transform of `x` (`x.count == size`), as real and imaginary
  /// parts.
  func transform(_ x: [Double]) -> (re: [Double], im: [Double]) {
    precondition(x.count == size, "input must have \(size) samples")
    let m = size / 2
    var zr = [Double](repeating: 0, count: m)
    var zi = [Double](repeating: 0, count: m)
    for i in 0..<m {
      zr[reversed[i]] = x[2 * i]
      zi[reversed[i]] = x[2 * i + 1]
    }
    // Butterflies: spans of 2, 4, … m; the twiddle e^(−2πi·j/span) is entry j·size/span.
    var span = 2
    while span <= m {
      let step = size / span
      for start in stride(from: 0, to: m, by: span) {
        for j in 0..<(span / 2) {
          let (c, s) = (cosines[j * step], sines[j * step])
          let p = start + j
          let q = p + span / 2
          let tr = zr[q] * c + zi[q] * s
          let ti = zi[q] * c - zr[q] * s
          zr[q] = zr[p] - tr
          zi[q] = zi[p] - ti
          zr[p] += tr
          zi[p] += ti
        }
      }
      span *= 2
    }
    // Unpacking: with a = Z[k], b = conj(Z[m−k]), the even samples' transform is (a + b)/2,
    // the odd samples' is (a − b)/(2i), and X[k] = even + e^(−2πik/size)·odd.
    var re = [Double](repeating: 0, count: m + 1)
    var im = [Double](repeating: 0, count: m + 1)
    for k in 0...m {
      let ar = zr[k % m]
      let ai = zi[k % m]
      let br = zr[(m - k) % m]
      let bi = -zi[(m - k) % m]
      let (er, ei) = ((ar + br) / 2, (ai + bi) / 2)
      let (or, oi) = ((ai - bi) / 2, -(ar - br) / 2)
      let (c, s) = k == m ? (-1.0, 0.0) : (cosines[k], sines[k])
      re[k] = er + c * or + s * oi
      im[k] = ei + c * oi - s * or
    }
    return (re, im)
  }
}
