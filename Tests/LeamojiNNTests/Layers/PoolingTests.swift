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

  @Test func globalAvgPoolGradients() {
    TestSupport.checkGradients(
      GlobalAvgPool(), input: TestSupport.random([4, 3, 5], seed: 16), eps: 1e-2, seed: 17)
  }
}
