import LeamojiCore
import LeamojiNN
import Testing

/// The convolution's matrix kernels at sizes past their blocking (more than 256 patch rows,
/// more than 256 output positions) and with edge tiles, against direct loops in Double.
@Suite("Convolution kernels")
struct KernelTests {
  /// Forward, weight gradient and input gradient of a convolution whose im2col matrix is
  /// 270 x 323: every block, panel and tile edge of both kernels.
  @Test func largeConvolutionMatchesDirectLoops() {
    let (inC, outC, h, w, k, p) = (30, 6, 17, 19, 3, 1)
    let weight = TestSupport.random([outC, inC, k, k], seed: 1)
    let bias = TestSupport.random([outC], seed: 2)
    let x = TestSupport.random([inC, h, w], seed: 3)
    let conv = Conv2D(name: "c", stride: 1, padding: p, weight: weight, bias: bias)
    let y = conv.forward(x)
    let dy = TestSupport.random(y.shape, seed: 4)
    var grads = conv.parameters.map { Tensor(shape: $0.shape) }
    let dx = conv.backward(
      input: x, output: y, outputGradient: dy, parameterGradients: &grads,
      needsInputGradient: true)!

    var yRef = [Double](repeating: 0, count: y.count)
    var dwRef = [Double](repeating: 0, count: weight.count)
    var dxRef = [Double](repeating: 0, count: x.count)
    for o in 0..<outC {
      for oy in 0..<h {
        for ox in 0..<w {
          let out = (o * h + oy) * w + ox
          var sum = Double(bias.data[o])
          for c in 0..<inC {
            for ky in 0..<k {
              for kx in 0..<k {
                let iy = oy - p + ky
                let ix = ox - p + kx
                guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                let wi = ((o * inC + c) * k + ky) * k + kx
                let xi = (c * h + iy) * w + ix
                sum += Double(weight.data[wi]) * Double(x.data[xi])
                dwRef[wi] += Double(dy.data[out]) * Double(x.data[xi])
                dxRef[xi] += Double(dy.data[out]) * Double(weight.data[wi])
              }
            }
          }
          yRef[out] = sum
        }
      }
    }
    func worst(_ a: [Float], _ b: [Double]) -> Double {
      zip(a, b).map { abs(Double($0) - $1) / max(1, abs($1)) }.max() ?? 0
    }
    #expect(worst(y.data, yRef) < 1e-5)
    #expect(worst(grads[0].data, dwRef) < 1e-5)
    #expect(worst(dx.data, dxRef) < 1e-5)
  }

  @Test func cpuRequirementReadsCpuinfoFlags() {
    let good = "processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma bmi2\n"
    let old = "processor\t: 0\nflags\t\t: fpu sse2 sse4_2 avx\n"
    #expect(CPURequirement.missing(cpuinfo: good).isEmpty)
    #expect(CPURequirement.missing(cpuinfo: nil).isEmpty)
    if CPURequirement.required.isEmpty {
      #expect(CPURequirement.missing(cpuinfo: old).isEmpty)
    } else {
      #expect(CPURequirement.missing(cpuinfo: old) == ["avx2", "fma"])
      #expect(CPURequirement.problem(missing: ["fma"])?.contains("AVX2 and FMA") == true)
      // The machine running the tests runs the kernels, so it has what they need.
      #expect(CPURequirement.problem() == nil)
    }
  }
}
