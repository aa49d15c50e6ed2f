import Testing

@testable import LeamojiNN

/// The GEMM reading its weights in place (`weightsInPlace`), as the MobileNet-style steps run
/// it: the same bits as the GEMM packing its weights first, and right against direct loops in
/// Double.
@Suite("GEMM with weights in place")
struct InPlaceGEMMTests {
  /// (m, n, k): partial row tiles, edge columns, several k blocks.
  @Test(arguments: [
    (10, 49, 300), (8, 256, 40), (5, 257, 513), (64, 17, 1), (3, 1, 7), (12, 300, 257),
  ])
  func inPlaceMatchesPackedAndDirectLoops(shape: (Int, Int, Int)) {
    let (m, n, k) = shape
    let a = TestSupport.random([m, k], seed: 11).data
    let b = TestSupport.random([k, n], seed: 12).data
    let bias = TestSupport.random([m], seed: 13).data
    let scratchCount = max(
      Kernels.gemmScratchCount(m: m, k: k), Kernels.gemmInPlaceScratchCount(m: m))

    func product(inPlace: Bool) -> [Float] {
      var c = [Float](repeating: .nan, count: m * n)
      var scratch = [Float](repeating: .nan, count: scratchCount)
      scratch.withUnsafeMutableBufferPointer { s in
        c.withUnsafeMutableBufferPointer { out in
          Kernels.gemmPacked(
            m: m, n: n, k: k, a: a, aRowStride: k, aColStride: 1, b: b, bRowStride: n,
            bColStride: 1, c: out.baseAddress!, ldc: n, start: .overwrite, bias: bias,
            relu: false, scratch: s.baseAddress!, activation: .relu6, weightsInPlace: inPlace)
        }
      }
      return c
    }
    let inPlace = product(inPlace: true)
    #expect(inPlace == product(inPlace: false))
    var worst = 0.0
    for i in 0..<m {
      for j in 0..<n {
        var sum = Double(bias[i])
        for p in 0..<k { sum += Double(a[i * k + p]) * Double(b[p * n + j]) }
        let expected = min(max(sum, 0), 6)
        worst = max(worst, abs(Double(inPlace[i * n + j]) - expected) / max(1, abs(expected)))
      }
    }
    #expect(worst < 1e-5)
  }
}
