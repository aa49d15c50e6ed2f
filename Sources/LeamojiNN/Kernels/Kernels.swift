/// The hot loops of the network. This file holds the vectorised element-wise loops and
/// reductions with the vector load/store helpers they use: debug builds compile each file on
/// its own and would not inline helpers from another file, which made the kernels 2.5 times
/// slower. The packed matrix multiply is in GEMM.swift (with its own helpers), im2col / col2im
/// in ConvolutionKernels.swift, max pooling in PoolingKernels.swift.
///
/// Everything works on raw pointers to row-major float32 buffers, so speed work (tiling,
/// vector width) stays in this folder. Every routine sums in a fixed order that depends only
/// on the sizes, never on threads, so results are bit-reproducible.
///
/// Vectors are written with `SIMD8`: one AVX2 register on the x86-64 target LeamojiNN is
/// built for (see Package.swift).
enum Kernels {
  typealias Vec = SIMD8<Float>

  @inline(__always)
  static func load(_ p: UnsafePointer<Float>) -> Vec {
    UnsafeRawPointer(p).loadUnaligned(as: Vec.self)
  }

  @inline(__always)
  static func store(_ v: Vec, _ p: UnsafeMutablePointer<Float>) {
    UnsafeMutableRawPointer(p).storeBytes(of: v, as: Vec.self)
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

  /// Sum of `count` floats, eight lanes at a time: lane `l` adds elements `l, l + 8, ...` in
  /// order, the lanes are added in a fixed tree, then the tail in order. A fixed order that
  /// depends only on `count` (so it is reproducible), about eight times faster than `sum`.
  @inline(__always)
  static func sumLanes(_ p: UnsafePointer<Float>, _ count: Int) -> Float {
    var acc = Vec()
    var i = 0
    while i + 8 <= count {
      acc += load(p + i)
      i += 8
    }
    let h = acc.lowHalf + acc.highHalf
    var s = (h[0] + h[2]) + (h[1] + h[3])
    while i < count {
      s += p[i]
      i += 1
    }
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
