import LeamojiCore
import LeamojiNN
import Testing

/// Max pooling and global average pooling, forward and backward.
@Suite("Pooling")
struct PoolingTests {
  let sample = Tensor(
    shape: [1, 4, 4],
    data: [
      1, 5, 2, 0,
      3, 4, 8, 7,
      -1, -2, -3, -4,
      -5, -6, -7, -0.5,
    ])

  @Test func maxPoolForward() {
    #expect(MaxPool2D().forward(sample).data == [5, 8, -1, -0.5])
    #expect(MaxPool2D().forward(Tensor(shape: [1, 5, 5])).shape == [1, 2, 2])
  }

  @Test func globalAvgPoolForward() {
    let sum: Float = 1 + 5 + 2 + 0 + 3 + 4 + 8 + 7 - 1 - 2 - 3 - 4 - 5 - 6 - 7 - 0.5
    #expect(GlobalAvgPool().forward(sample).data == [sum / 16])
  }

  @Test func maxPoolGradients() {
    // Distinct, well separated values: a small step never changes which element is the maximum.
    var rng = SplitMix64(seed: 13)
    var values = (0..<(2 * 6 * 5)).map { Float($0) * 0.1 }
    values.shuffle(using: &rng)
    TestSupport.checkGradients(
      MaxPool2D(kernel: 2, stride: 2), input: Tensor(shape: [2, 6, 5], data: values), eps: 1e-3,
      seed: 14)
    TestSupport.checkGradients(
      MaxPool2D(kernel: 3, stride: 1), input: Tensor(shape: [2, 6, 5], data: values), eps: 1e-3,
      seed: 15)
  }

  /// 2x2 stride-2 pooling takes eight windows at a time (rows of 16 or more inputs): with
  /// many ties, NaNs and an odd tail it routes each gradient exactly as a direct loop does
  /// (the first tap in row-major order that no later tap beats with `>`).
  @Test func maxPoolEightWindowsAtATimeMatchesADirectLoop() {
    let (c, h, w) = (3, 6, 42)  // 21 windows per row: 8 + 8 + 5 in the scalar tail
    var rng = SplitMix64(seed: 21)
    let values: [Float] = (0..<(c * h * w)).map { _ in
      let r = rng.next() % 8
      return r == 7 ? .nan : r == 6 ? -0.0 : Float(r % 3)
    }
    let x = Tensor(shape: [c, h, w], data: values)
    let (oh, ow) = (h / 2, w / 2)
    let dy = TestSupport.random([c, oh, ow], seed: 22)
    var y = [Float](repeating: 0, count: c * oh * ow)
    var dx = [Float](repeating: 0, count: c * h * w)
    for ch in 0..<c {
      for oy in 0..<oh {
        for ox in 0..<ow {
          var best = (ch * h + 2 * oy) * w + 2 * ox
          for (ky, kx) in [(0, 1), (1, 0), (1, 1)] {
            let i = (ch * h + 2 * oy + ky) * w + 2 * ox + kx
            if values[i] > values[best] { best = i }
          }
          let o = (ch * oh + oy) * ow + ox
          y[o] = values[best]
          dx[best] += dy.data[o]
        }
      }
    }
    let pool = MaxPool2D()
    let out = pool.forward(x)
    var none: [Tensor] = []
    let grad = pool.backward(
      input: x, output: out, outputGradient: dy, parameterGradients: &none,
      needsInputGradient: true)!
    #expect(out.data.map(\.bitPattern) == y.map(\.bitPattern))
    #expect(grad.data.map(\.bitPattern) == dx.map(\.bitPattern))
  }

  @Test func globalAvgPoolGradients() {
    TestSupport.checkGradients(
      GlobalAvgPool(), input: TestSupport.random([4, 3, 5], seed: 16), eps: 1e-2, seed: 17)
  }
}
