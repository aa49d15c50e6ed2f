import LeamojiCore
import LeamojiNN
import Testing

/// Convolution: forward passes against hand-computed values and a naive loop, and the
/// backward pass against finite differences.
@Suite("Conv2D")
struct Conv2DTests {
  /// 1 input channel 3x3, two output channels, 3x3 kernels, padding 1, worked by hand.
  @Test func conv2dHandComputed() {
    let x = Tensor(shape: [1, 3, 3], data: [1, 2, 3, 4, 5, 6, 7, 8, 9])
    // Channel 0: all ones (sums of the in-bounds 3x3 neighbourhood).
    // Channel 1: only the centre tap 2, i.e. 2·x, plus the right neighbour tap -1.
    let w = Tensor(
      shape: [2, 1, 3, 3],
      data: [
        1, 1, 1, 1, 1, 1, 1, 1, 1,
        0, 0, 0, 0, 2, -1, 0, 0, 0,
      ])
    let conv = Conv2D(
      name: "c", stride: 1, padding: 1, weight: w, bias: Tensor(shape: [2], data: [0.5, -1]))
    let y = conv.forward(x)
    #expect(y.shape == [2, 3, 3])
    let sums: [Float] = [12, 21, 16, 27, 45, 33, 24, 39, 28]
    let ones = sums.map { $0 + 0.5 }
    // 2·x[i][j] - x[i][j+1] (0 past the right edge), then bias -1.
    let differences: [Float] = [0, 1, 6, 3, 4, 12, 6, 7, 18]
    let centre = differences.map { $0 - 1 }
    #expect(y.data == ones + centre)
  }

  /// Stride 2, no padding, 2 input channels: each output is one dot product.
  @Test func conv2dStride2HandComputed() {
    let x = Tensor(shape: [2, 3, 3], data: (1...18).map(Float.init))
    let w = Tensor(shape: [1, 2, 1, 1], data: [1, 10])
    let conv = Conv2D(name: "c", stride: 2, padding: 0, weight: w, bias: Tensor(shape: [1]))
    let y = conv.forward(x)
    #expect(y.shape == [1, 2, 2])
    // Positions (0,0), (0,2), (2,0), (2,2): x0 + 10·x1.
    let expected: [Float] = [101, 123, 167, 189]
    #expect(y.data == expected)
  }

  /// Odd sizes exercise every tile and tail of the matrix multiply against a direct loop.
  @Test func conv2dMatchesNaiveLoop() {
    // (in, out, height, width, kernel, stride, padding)
    let cases = [
      (5, 7, 9, 11, 3, 1, 1), (3, 13, 6, 5, 3, 2, 1), (6, 4, 8, 8, 1, 1, 0), (2, 9, 10, 3, 5, 1, 2),
    ]
    for (inC, outC, h, w, k, s, p) in cases {
      checkAgainstNaiveLoop(inC: inC, outC: outC, h: h, w: w, k: k, s: s, p: p)
    }
  }

  func checkAgainstNaiveLoop(inC: Int, outC: Int, h: Int, w: Int, k: Int, s: Int, p: Int) {
    let weight = TestSupport.random([outC, inC, k, k], seed: 1)
    let bias = TestSupport.random([outC], seed: 2)
    let x = TestSupport.random([inC, h, w], seed: 3)
    let y = Conv2D(name: "c", stride: s, padding: p, weight: weight, bias: bias).forward(x)
    let oh = (h + 2 * p - k) / s + 1
    let ow = (w + 2 * p - k) / s + 1
    #expect(y.shape == [outC, oh, ow])
    var worst: Double = 0
    for o in 0..<outC {
      for oy in 0..<oh {
        for ox in 0..<ow {
          var sum = Double(bias.data[o])
          for c in 0..<inC {
            for ky in 0..<k {
              for kx in 0..<k {
                let iy = oy * s - p + ky
                let ix = ox * s - p + kx
                guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                sum +=
                  Double(weight.data[((o * inC + c) * k + ky) * k + kx])
                  * Double(x.data[(c * h + iy) * w + ix])
              }
            }
          }
          worst = max(worst, abs(sum - Double(y.data[(o * oh + oy) * ow + ox])))
        }
      }
    }
    #expect(worst < 1e-5, "conv \(inC)->\(outC) \(h)x\(w) k\(k) s\(s) p\(p)")
  }

  @Test func conv2d3x3Padding1() {
    var rng = SplitMix64(seed: 1)
    var conv = Conv2D(
      name: "c", inChannels: 2, outChannels: 3, kernel: 3, stride: 1, padding: 1, rng: &rng)
    conv.bias = TestSupport.random([3], seed: 2)
    TestSupport.checkGradients(
      conv, input: TestSupport.random([2, 5, 6], seed: 3), eps: 1e-2, seed: 4)
  }

  @Test func conv2dStride2NoPadding() {
    var rng = SplitMix64(seed: 5)
    let conv = Conv2D(
      name: "c", inChannels: 3, outChannels: 5, kernel: 3, stride: 2, padding: 0, rng: &rng)
    TestSupport.checkGradients(
      conv, input: TestSupport.random([3, 7, 7], seed: 6), eps: 1e-2, seed: 7)
  }

  @Test func conv2dKernel5Padding2() {
    var rng = SplitMix64(seed: 8)
    let conv = Conv2D(
      name: "c", inChannels: 1, outChannels: 2, kernel: 5, stride: 1, padding: 2, rng: &rng)
    TestSupport.checkGradients(
      conv, input: TestSupport.random([1, 4, 5], seed: 9), eps: 1e-2, seed: 10)
  }
}
