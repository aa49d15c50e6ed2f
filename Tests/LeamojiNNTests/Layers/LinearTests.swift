import LeamojiCore
import LeamojiNN
import Testing

/// The fully connected layer, forward and backward.
@Suite("Linear")
struct LinearTests {
  @Test func linearForward() {
    let fc = Linear(
      name: "fc", weight: Tensor(shape: [2, 3], data: [1, 2, 3, -1, 0, 1]),
      bias: Tensor(shape: [2], data: [0.5, 0]))
    #expect(fc.forward(Tensor(shape: [3], data: [1, 1, 2])).data == [9.5, 1])
  }

  @Test func linearGradients() {
    var rng = SplitMix64(seed: 20)
    var fc = Linear(name: "fc", inFeatures: 7, outFeatures: 4, rng: &rng)
    fc.bias = TestSupport.random([4], seed: 21)
    TestSupport.checkGradients(fc, input: TestSupport.random([7], seed: 22), eps: 1e-2, seed: 23)
  }
}
