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

  /// The L2 penalty is part of the gradient Adam normalises (so, unlike the decoupled decay, it
  /// changes the direction of the step), applies to weights only, and at 0 leaves AdamW as it is.
  @Test func theL2PenaltyJoinsTheGradientOfWeightsOnly() {
    let g = [Tensor(shape: [1, 3], data: [0.5, -2, 0.25]), Tensor(shape: [1], data: [1])]
    let start = [Tensor(shape: [1, 3], data: [1, 3, -4]), Tensor(shape: [1], data: [3])]

    // λ = 1: the weights' gradients become g + p = [1.5, 1, -3.75], so the first (sign-like)
    // step turns the second weight's direction around; the bias keeps its own gradient.
    var penalised = start
    var withL2 = AdamW(learningRate: 0.1, weightDecay: 0, l2: 1)
    withL2.update(&penalised, gradients: g)
    #expect(abs(penalised[0].data[0] - (1 - 0.1)) < 1e-6)
    #expect(abs(penalised[0].data[1] - (3 - 0.1)) < 1e-6)
    #expect(abs(penalised[0].data[2] - (-4 + 0.1)) < 1e-6)
    #expect(abs(penalised[1].data[0] - (3 - 0.1)) < 1e-6)

    // λ = 0 gives AdamW's bits exactly, over several steps and with decay.
    var plain = start
    var zero = start
    var adam = AdamW(learningRate: 0.05, weightDecay: 0.3)
    var adamZero = AdamW(learningRate: 0.05, weightDecay: 0.3, l2: 0)
    for _ in 0..<5 {
      adam.update(&plain, gradients: g)
      adamZero.update(&zero, gradients: g)
    }
    #expect(plain.map(\.data) == zero.map(\.data))

    // A penalty with a zero data gradient pulls weights towards 0 and leaves biases.
    var pulled = start
    var pull = AdamW(learningRate: 0.1, weightDecay: 0, l2: 2)
    let none = [Tensor(shape: [1, 3], data: [0, 0, 0]), Tensor(shape: [1], data: [0])]
    for _ in 0..<3 { pull.update(&pulled, gradients: none) }
    #expect(zip(pulled[0].data, start[0].data).allSatisfy { abs($0) < abs($1) })
    #expect(pulled[1].data == start[1].data)
  }
}
