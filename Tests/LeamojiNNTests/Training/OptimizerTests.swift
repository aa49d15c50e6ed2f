import LeamojiNN
import Testing

@Suite("Optimizers")
struct OptimizerTests {
  @Test func optimizersFollowTheirFormulas() {
    let g = [Tensor(shape: [1, 2], data: [0.5, -2]), Tensor(shape: [1], data: [1])]
    var p = [Tensor(shape: [1, 2], data: [1, 1]), Tensor(shape: [1], data: [3])]
    var sgd = SGD(learningRate: 0.1, momentum: 0.9, weightDecay: 0.5)
    sgd.update(&p, gradients: g)
    // v = g + 0.5·p (weights only), p -= 0.1·v
    let lr: Float = 0.1
    let weights: [Float] = [1 - lr * (0.5 + 0.5), 1 - lr * (-2 + 0.5)]
    let biases: [Float] = [3 - lr * 1]
    #expect(p[0].data == weights)
    #expect(p[1].data == biases)

    var q = [Tensor(shape: [1, 2], data: [1, 1]), Tensor(shape: [1], data: [3])]
    var adam = AdamW(learningRate: 0.1, weightDecay: 0.5)
    adam.update(&q, gradients: g)
    // First step: m̂ = g, v̂ = g², so the step is lr·sign(g) (up to ε); decay first.
    #expect(abs(q[0].data[0] - (1 * (1 - 0.05) - 0.1)) < 1e-6)
    #expect(abs(q[0].data[1] - (1 * (1 - 0.05) + 0.1)) < 1e-6)
    #expect(abs(q[1].data[0] - (3 - 0.1)) < 1e-6)
    #expect(adam.step == 1)
  }
}
