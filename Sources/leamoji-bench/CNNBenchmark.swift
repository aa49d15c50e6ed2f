import Foundation
import LeamojiCore
import LeamojiNN

/// Measures the default network: the machine's FMA peak, inference at batch 1 and 32,
/// training throughput, and every convolution pass's GFLOP/s and share of the peak; with a
/// PyTorch interpreter, the same network in PyTorch in the same run, and the ratios.
struct CNNBenchmark {
  let threads: Int
  let seconds: Double
  /// A Python with torch, to run scripts/bench-cnn-pytorch.py (nil: leamoji only).
  var python: String? = nil
  var script = "scripts/bench-cnn-pytorch.py"
  /// The default network with a batch norm after each convolution, and dropout before the
  /// classifier when above 0 (`LayerSpec.architecture`); PyTorch is then not compared.
  var batchNorm = false
  var dropout = 0.0

  /// The three headline figures, images per second.
  struct Rates {
    var batch1: Double
    var batch32: Double
    var training: Double
  }

  func run() throws {
    // The shipped model's shape: the standard labels, 64x64 RGB input.
    let classes = Label.standard.count
    let specs = LayerSpec.architecture(
      classes: classes, widths: [16, 32, 64], batchNorm: batchNorm, dropout: dropout)
    let network = try Network(specs: specs, inputShape: [3, 64, 64], seed: 1)
    let perLayer = flops(of: network)
    let total = perLayer.reduce(0) { $0 + $1.flops }
    let convolutions = perLayer.filter { $0.isConvolution }.reduce(0) { $0 + $1.flops }
    print(
      "Default network\(batchNorm ? " with batch norm" : "")\(dropout > 0 ? ", dropout \(dropout)" : ""), "
        + "input 3x64x64, \(network.parameterCount) parameters, \(threads) thread(s)")
    // Other processes on the cores skew every figure; say how busy the machine was.
    if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
      print(
        "  load average at start: \(load.split(separator: " ").prefix(3).joined(separator: " "))")
    }
    print(
      String(
        format: "  forward FLOPs per image: %.2f M (convolutions %.2f M)", Double(total) / 1e6,
        Double(convolutions) / 1e6))
    for layer in perLayer where layer.flops > 0 {
      print(String(format: "    %-8@ %8.2f M", layer.name, Double(layer.flops) / 1e6))
    }

    let peak1 = KernelBenchmark.fmaPeak(threads: 1, seconds: seconds)
    let peak = threads == 1 ? peak1 : KernelBenchmark.fmaPeak(threads: threads, seconds: seconds)
    print(
      String(
        format:
          "  FMA peak (SIMD8<Float>, 12 independent FMA chains): %.1f GFLOP/s on 1 thread, %.1f on %d",
        peak1, peak, threads))

    let one = gaussianTensor([1, 3, 64, 64], seed: 2)
    let rate1 =
      try runsPerSecond(for: seconds) { _ = try network.logits(one, threads: threads) } * 1
    print(String(format: "  inference, batch 1:   %8.1f images/s", rate1))
    let batch = gaussianTensor([32, 3, 64, 64], seed: 3)
    let rate32 =
      try runsPerSecond(for: seconds) { _ = try network.logits(batch, threads: threads) } * 32
    print(
      String(
        format: "  inference, batch 32:  %8.1f images/s  (%.2f GFLOP/s overall, %.0f %% of peak)",
        rate32, rate32 * Double(total) / 1e9, 100 * rate32 * Double(total) / 1e9 / peak))

    // The step `leamoji train` runs: a TrainingSession (flat buffers, no allocation).
    let session = TrainingSession(
      network: network, optimizer: AdamW(learningRate: 1e-3, weightDecay: 1e-4))
    let labelsBatch = (0..<32).map { $0 % classes }
    let trainRate =
      try runsPerSecond(for: seconds) {
        try session.step(batch, labels: labelsBatch, threads: threads)
      } * 32
    let trainGflops = trainRate * 3 * Double(total) / 1e9
    print(
      String(
        format:
          "  training, batch 32:   %8.1f images/s  (≈ 3x forward FLOPs: %.2f GFLOP/s, %.0f %% of peak)",
        trainRate, trainGflops, 100 * trainGflops / peak))

    // Each convolution pass alone, as a batch of 32 runs it: samples spread over the threads.
    let passes = KernelBenchmark.convolutionPasses(
      of: network, batch: 32, threads: threads, seconds: seconds / 3)
    print("  convolution passes, batch 32 (GFLOP/s, share of the \(threads)-thread FMA peak):")
    var passTime = (forward: 0.0, all: 0.0)
    var work = (forward: 0.0, all: 0.0)
    for pass in passes {
      let layerFlops = Double(perLayer.first { $0.name == pass.layer }?.flops ?? 0) * 32
      let time = layerFlops / (pass.gflops * 1e9)
      passTime.all += time
      work.all += layerFlops
      if pass.pass == "forward" {
        passTime.forward += time
        work.forward += layerFlops
      }
      print(
        String(
          format: "    %-6@ %-16@ %7.1f GFLOP/s  %3.0f %%", pass.layer, pass.pass, pass.gflops,
          100 * pass.gflops / peak))
    }
    if passTime.all > 0 {
      let forward = work.forward / passTime.forward / 1e9
      let all = work.all / passTime.all / 1e9
      print(
        String(
          format: "  convolutions, forward passes together: %.1f GFLOP/s, %.0f %% of peak", forward,
          100 * forward / peak))
      print(
        String(
          format: "  convolutions, all passes of a training step: %.1f GFLOP/s, %.0f %% of peak",
          all, 100 * all / peak))
    }

    if let python, !batchNorm, dropout == 0 {
      let ours = Rates(batch1: rate1, batch32: rate32, training: trainRate)
      try compare(ours, python: python)
    }
  }

  /// Runs the PyTorch script and prints the side-by-side table with ratios.
  private func compare(_ ours: Rates, python: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, script, "--threads", "\(threads)", "--seconds", "\(seconds)"]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
      let b1 = json["inference_batch1"] as? Double, let b32 = json["inference_batch32"] as? Double,
      let train = json["training_batch32"] as? Double
    else {
      throw BenchmarkFailure("\(script) failed (status \(process.terminationStatus))")
    }
    let version = json["torch"] as? String ?? "?"
    print("")
    print("| figure (\(threads) threads) | leamoji | PyTorch \(version) CPU | ratio |")
    print("| --- | --- | --- | --- |")
    for (name, a, b) in [
      ("inference, batch 1", ours.batch1, b1), ("inference, batch 32", ours.batch32, b32),
      ("training, batch 32", ours.training, train),
    ] {
      print(String(format: "| %@ | %.0f images/s | %.0f | %.2f |", name, a, b, a / b))
    }
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

/// A benchmark that could not run, with the reason.
struct BenchmarkFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
