import Foundation
import LeamojiCore
import LeamojiNN

/// Measures the default network: inference at batch 1 and 32, training throughput, and the
/// convolutions' achieved GFLOP/s, with the FLOP count per image.
struct CNNBenchmark {
  let threads: Int
  let seconds: Double

  func run() throws {
    // The shipped model's shape: the standard labels, 64x64 RGB input.
    let classes = Label.standard.count
    var network = try Network(
      specs: LayerSpec.defaultArchitecture(classes: classes), inputShape: [3, 64, 64], seed: 1)
    let perLayer = flops(of: network)
    let total = perLayer.reduce(0) { $0 + $1.flops }
    let convolutions = perLayer.filter { $0.isConvolution }.reduce(0) { $0 + $1.flops }
    print(
      "Default network, input 3x64x64, \(network.parameterCount) parameters, \(threads) thread(s)")
    print(
      String(
        format: "  forward FLOPs per image: %.2f M (convolutions %.2f M)", Double(total) / 1e6,
        Double(convolutions) / 1e6))
    for layer in perLayer where layer.flops > 0 {
      print(String(format: "    %-8@ %8.2f M", layer.name, Double(layer.flops) / 1e6))
    }

    let one = random([1, 3, 64, 64], seed: 2)
    let rate1 = try measure { _ = try network.logits(one, threads: threads) } * 1
    print(String(format: "  inference, batch 1:   %8.1f images/s", rate1))
    let batch = random([32, 3, 64, 64], seed: 3)
    let rate32 = try measure { _ = try network.logits(batch, threads: threads) } * 32
    print(
      String(
        format: "  inference, batch 32:  %8.1f images/s  (%.2f GFLOP/s overall)", rate32,
        rate32 * Double(total) / 1e9))

    var optimizer = AdamW(learningRate: 1e-3, weightDecay: 1e-4)
    let labelsBatch = (0..<32).map { $0 % classes }
    let trainRate =
      try measure {
        try network.trainStep(batch, labels: labelsBatch, optimizer: &optimizer, threads: threads)
      } * 32
    print(
      String(
        format:
          "  training, batch 32:   %8.1f images/s  (forward + backward ≈ 3x forward FLOPs: %.2f GFLOP/s)",
        trainRate, trainRate * 3 * Double(total) / 1e9))

    // The convolutions alone, as one inference batch runs them: every sample on the threads.
    var convSeconds = 0.0
    var convFlops = 0.0
    for (index, layer) in network.layers.enumerated() where layer is Conv2D {
      let input = random(network.shapes[index], seed: UInt64(10 + index))
      let inputs = Array(repeating: input, count: 32)
      let rate = measure {
        DispatchQueue.concurrentPerform(iterations: threads) { worker in
          var i = worker
          while i < inputs.count {
            _ = layer.forward(inputs[i])
            i += threads
          }
        }
      }
      let flopsPerImage = Double(perLayer[index].flops)
      convSeconds += 1 / rate
      convFlops += flopsPerImage * 32
      print(
        String(
          format: "  %@ forward, 32 images: %7.2f GFLOP/s", perLayer[index].name,
          rate * 32 * flopsPerImage / 1e9))
    }
    print(
      String(
        format: "  convolutions together: %.2f GFLOP/s (%.1f ms per batch of 32)",
        convFlops / convSeconds / 1e9, convSeconds * 1000))
  }

  /// Repeats `body` for about `seconds` (after one warm-up) and returns runs per second.
  private func measure(_ body: () throws -> Void) rethrows -> Double {
    try body()
    var runs = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    repeat {
      try body()
      runs += 1
      elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < seconds
    return Double(runs) / elapsed
  }

  private func random(_ shape: [Int], seed: UInt64) -> Tensor {
    var rng = SplitMix64(seed: seed)
    let count = shape.reduce(1, *)
    return Tensor(shape: shape, data: (0..<count).map { _ in Float(rng.nextGaussian()) })
  }

  /// Multiply-adds count as two FLOPs; ReLU, pooling and softmax are counted as zero.
  private func flops(of network: Network) -> [(name: String, flops: Int, isConvolution: Bool)] {
    network.specs.enumerated().map { index, spec in
      let output = network.shapes[index + 1]
      switch spec {
      case .conv2d(let name, let inChannels, _, let kernel, _, _):
        return (name, 2 * inChannels * kernel * kernel * output.reduce(1, *), true)
      case .linear(let name, let inFeatures, let outFeatures):
        return (name, 2 * inFeatures * outFeatures, false)
      default:
        return ("\(spec)".split(separator: "(").first.map(String.init) ?? "layer", 0, false)
      }
    }
  }
}
