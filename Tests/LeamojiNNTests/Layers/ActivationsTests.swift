import LeamojiNN
import Testing

/// ReLU and flatten, forward and backward.
@Suite("Activations")
struct ActivationsTests {
  @Test func reluForward() {
    #expect(ReLU().forward(Tensor(shape: [3], data: [-1, 0, 2])).data == [0, 0, 2])
    #expect(ReLU().forward(Tensor(shape: [2], data: [.nan, -.infinity])).data == [0, 0])
    #expect(Flatten().forward(Tensor(shape: [2, 1, 2], data: [1, 2, 3, 4])).shape == [4])
  }

  @Test func reluGradients() {
    // Keep inputs away from the kink at 0 so the finite difference does not cross it.
    var x = TestSupport.random([2, 3, 4], seed: 11)
    x.data = x.data.map { $0 >= 0 ? $0 + 0.1 : $0 - 0.1 }
    TestSupport.checkGradients(ReLU(), input: x, eps: 1e-3, seed: 12)
  }

  @Test func flattenGradients() {
    TestSupport.checkGradients(
      Flatten(), input: TestSupport.random([2, 3, 2], seed: 18), eps: 1e-2, seed: 19)
  }
}
