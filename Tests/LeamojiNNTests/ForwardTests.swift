import LeamojiNN
import Testing

/// Forward passes against hand-computed values and a naive reference.
@Suite("Forward passes")
struct ForwardTests {
  /// 1 input channel 3x3, two output channels, 3x3 kernels, padding 1, worked by hand.
  @Test func conv2dHandComputed() {
    let x = Tensor(shape: [1, 3, 3], data: [1, 2, 3, 4, 5, 6, 7, 8, 9])
    // Channel 0: all ones (sums of the in-bounds 3x3 neighbourhood).
    // Channel 1: only the centre tap 2, i.e. 2·x, plus the right neighbour tap -1.
    let w = Tensor(shape: [2, 1, 3, 3], data: [
      1, 1, 1, 1, 1, 1, 1, 1, 1,
      0, 0, 0, 0, 2, -1, 0, 0, 0,
    ])
    let conv = Conv2D(name: "c", stride: 1, padding: 1, weight: w, bias: Tensor(shape: [2], data: [0.5, -1]))
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
    let cases = [(5, 7, 9, 11, 3, 1, 1), (3, 13, 6, 5, 3, 2, 1), (6, 4, 8, 8, 1, 1, 0), (2, 9, 10, 3, 5, 1, 2)]
    for (inC, outC, h, w, k, s, p) in cases { checkAgainstNaiveLoop(inC: inC, outC: outC, h: h, w: w, k: k, s: s, p: p) }
  }

  func checkAgainstNaiveLoop(inC: Int, outC: Int, h: Int, w: Int, k: Int, s: Int, p: Int) {
    let weight = TestSupport.random([outC, inC, k, k], seed: 1)
    let bias = TestSupport.random([outC], seed: 2)
    let x = TestSupport.random([inC, h, w], seed: 3)
    let y = Conv2D(name: "c", stride: s, padding: p, weight: weight, bias: bias).forward(x)
    let oh = (h + 2 * p - k) / s + 1, ow = (w + 2 * p - k) / s + 1
    #expect(y.shape == [outC, oh, ow])
    var worst: Double = 0
    for o in 0..<outC {
      for oy in 0..<oh {
        for ox in 0..<ow {
          var sum = Double(bias.data[o])
          for c in 0..<inC {
            for ky in 0..<k {
              for kx in 0..<k {
                let iy = oy * s - p + ky, ix = ox * s - p + kx
                guard iy >= 0, iy < h, ix >= 0, ix < w else { continue }
                sum += Double(weight.data[((o * inC + c) * k + ky) * k + kx]) * Double(x.data[(c * h + iy) * w + ix])
              }
            }
          }
          worst = max(worst, abs(sum - Double(y.data[(o * oh + oy) * ow + ox])))
        }
      }
    }
    #expect(worst < 1e-5, "conv \(inC)->\(outC) \(h)x\(w) k\(k) s\(s) p\(p)")
  }

  @Test func maxPoolGapLinearAndReLU() {
    let x = Tensor(shape: [1, 4, 4], data: [
      1, 5, 2, 0,
      3, 4, 8, 7,
      -1, -2, -3, -4,
      -5, -6, -7, -0.5,
    ])
    #expect(MaxPool2D().forward(x).data == [5, 8, -1, -0.5])
    #expect(MaxPool2D().forward(Tensor(shape: [1, 5, 5])).shape == [1, 2, 2])
    #expect(GlobalAvgPool().forward(x).data == [Float(1 + 5 + 2 + 0 + 3 + 4 + 8 + 7 - 1 - 2 - 3 - 4 - 5 - 6 - 7 - 0.5) / 16])
    #expect(ReLU().forward(Tensor(shape: [3], data: [-1, 0, 2])).data == [0, 0, 2])
    let fc = Linear(name: "fc", weight: Tensor(shape: [2, 3], data: [1, 2, 3, -1, 0, 1]),
                    bias: Tensor(shape: [2], data: [0.5, 0]))
    #expect(fc.forward(Tensor(shape: [3], data: [1, 1, 2])).data == [9.5, 1])
  }

  @Test func preprocessingNormalisesPerChannel() throws {
    // 2x1 image: pixel (255, 0, 51), pixel (0, 255, 102).
    let t = try Preprocessing.tensor(rgb: [255, 0, 51, 0, 255, 102], width: 2, height: 1,
                                     mean: [0.5, 0.5, 0], std: [0.5, 0.25, 0.2])
    #expect(t.shape == [3, 1, 2])
    let expected: [Float] = [(1 - 0.5) / 0.5, (0 - 0.5) / 0.5, (0 - 0.5) / 0.25, (1 - 0.5) / 0.25,
                             (Float(51) / 255) / 0.2, (Float(102) / 255) / 0.2]
    #expect(t.data == expected)
    #expect(throws: NNError.self) {
      try Preprocessing.tensor(rgb: [1, 2, 3], width: 2, height: 1, mean: [0, 0, 0], std: [1, 1, 1])
    }
    #expect(throws: NNError.self) {
      try Preprocessing.tensor(rgb: [1, 2, 3], width: 1, height: 1, mean: [0, 0, 0], std: [1, 0, 1])
    }
    let stats = Preprocessing.channelStatistics([[0, 255, 51, 0, 255, 153]])
    #expect(stats.mean == [0, 1, 0.4])
    #expect(abs(stats.std[2] - 0.2) < 1e-6)
  }

  @Test func defaultArchitectureShapes() throws {
    let model = try Model.makeDefault(labels: ["happy", "neutral", "scary"], seed: 1)
    #expect(model.network.inputShape == [3, 64, 64])
    #expect(model.network.shapes.map(\.description) == [
      [3, 64, 64], [16, 64, 64], [16, 64, 64], [16, 32, 32], [32, 32, 32], [32, 32, 32], [32, 16, 16],
      [64, 16, 16], [64, 16, 16], [64, 8, 8], [64], [3],
    ].map(\.description))
    #expect(model.network.parameterNames == [
      "conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias", "conv3.weight", "conv3.bias", "fc.weight", "fc.bias",
    ])
    #expect(model.network.parameters.map(\.shape) == [[16, 3, 3, 3], [16], [32, 16, 3, 3], [32], [64, 32, 3, 3], [64], [3, 64], [3]])
    #expect(model.emoji(for: "scary") == "😱")
    #expect(model.emoji(for: "sad") == "❔")
  }

  @Test func invalidDescriptionsThrow() {
    #expect(throws: NNError.shapeMismatch(layer: 0, reason: "conv2d conv1 expects [3, H, W] but gets [4, 8, 8]")) {
      try Network(specs: TestSupport.smallSpecs(), inputShape: [4, 8, 8], seed: 1)
    }
    #expect(throws: NNError.self) {
      try Network(specs: [.maxPool2d(kernel: 2, stride: 2)], inputShape: [3, 8, 8], seed: 1)  // no vector output
    }
    #expect(throws: NNError.self) {
      try Network(specs: [.conv2d(name: "a", inChannels: 3, outChannels: 0, kernel: 3, stride: 1, padding: 1)],
                  inputShape: [3, 8, 8], seed: 1)
    }
    #expect(throws: NNError.self) {
      try Network(specs: [.linear(name: "a", inFeatures: 3, outFeatures: 2), .linear(name: "a", inFeatures: 2, outFeatures: 2)],
                  inputShape: [3], seed: 1)
    }
    #expect(throws: NNError.self) {
      let net = try Network(specs: TestSupport.smallSpecs(), inputShape: [3, 8, 8], seed: 1)
      _ = try net.evaluate(Tensor(shape: [2, 3, 8, 8]), labels: [0, 3], threads: 1)
    }
  }
}
