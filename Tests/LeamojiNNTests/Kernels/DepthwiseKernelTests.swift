import LeamojiCore
import LeamojiTestSupport
import Testing

@testable import LeamojiNN

/// The depthwise kernel (`Kernels.depthwise`) of the backbone's engine and of `GroupedConv2D`.
@Suite("Depthwise kernel")
struct DepthwiseKernelTests {
  /// The depthwise kernel writes each channel's plane and nothing past it, however small the
  /// plane (a 2x2 output is shorter than one 8-float vector): a guard after the output stays
  /// as it was, and the outputs are the taps' sums.
  @Test(arguments: [(4, 3, 2), (3, 3, 1), (5, 5, 2), (2, 3, 1)])
  func depthwiseKernelStaysInsideItsOutput(size: Int, kernel: Int, stride: Int) {
    let channels = 3
    let conv = GroupedConv2D(
      name: "dw", stride: stride, padding: .same, groups: channels,
      weight: TestSupport.random([channels, 1, kernel, kernel], seed: 3),
      bias: TestSupport.random([channels], seed: 4))
    let x = TestSupport.random([channels, size, size], seed: 5)
    let g = conv.geometry(x.shape)
    let count = channels * g.outArea
    let guardValue: Float = -12345
    var out = [Float](repeating: guardValue, count: count + 16)
    var scratch = [Float](repeating: 0, count: Kernels.depthwiseScratchCount(g))
    Kernels.depthwise(
      g, channels: 0..<channels, input: x.data, weight: conv.weight.data, bias: conv.bias.data,
      output: &out, activation: .none, scratch: &scratch)
    #expect(out[count...].allSatisfy { $0 == guardValue })
    // The sums, tap by tap, over the zero-padded input.
    for c in 0..<channels {
      for oy in 0..<g.outHeight {
        for ox in 0..<g.outWidth {
          var sum = conv.bias.data[c]
          for ky in 0..<kernel {
            for kx in 0..<kernel {
              let (iy, ix) = (oy * stride - g.top + ky, ox * stride - g.left + kx)
              guard iy >= 0, iy < size, ix >= 0, ix < size else { continue }
              sum +=
                conv.weight.data[(c * kernel + ky) * kernel + kx]
                * x.data[(c * size + iy) * size + ix]
            }
          }
          let got = out[c * g.outArea + oy * g.outWidth + ox]
          #expect(abs(got - sum) <= 1e-4 * max(1, abs(sum)))
        }
      }
    }
  }
}
