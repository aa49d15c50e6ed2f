import Foundation
import LeamojiCore
import LeamojiNN

/// Measures a pretrained backbone model file (EfficientNet-Lite0): inference at batch 1 and
/// 32 at the chosen input size, each kind of step's GFLOP/s and share of the FMA peak; with a
/// Python that has torch and onnxruntime, the same weights in PyTorch and ONNX Runtime in the
/// same run (scripts/bench-backbone-peers.py, each peer in its default configuration), and the
/// ratios.
struct BackboneBenchmark {
  let model: String
  let size: Int
  let threads: Int
  let seconds: Double
  var python: String? = nil
  /// The original .pth the peers load.
  var pth = ".build/weights/efficientnet-lite0-57934424.pth"
  var script = "scripts/bench-backbone-peers.py"
  /// Also print every step's mean and shortest time (`--steps`).
  var eachStep = false

  func run() throws {
    let file: ModelFile
    let network: Network
    do {
      file = try ModelFile.open(path: model)
      network = try file.network(specs: file.layers(), inputShape: [3, size, size])
    } catch {
      throw BenchmarkFailure("\(error)")
    }
    let macs = KernelBenchmark.inferenceSteps(of: network, threads: threads, seconds: 0)
      .reduce(0) { $0 + $1.multiplyAdds }
    let gflop = 2 * Double(macs) / 1e9
    print(
      "Backbone \(model), input 3x\(size)x\(size), \(network.parameterCount) parameters, "
        + "\(threads) thread(s)")
    if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
      print(
        "  load average at start: \(load.split(separator: " ").prefix(3).joined(separator: " "))")
    }
    print(String(format: "  forward: %.3f GFLOP per image (multiply-adds x 2)", gflop))
    let peak = KernelBenchmark.fmaPeak(threads: threads, seconds: min(seconds, 1))
    print(String(format: "  FMA peak (SIMD8<Float>) on %d thread(s): %.1f GFLOP/s", threads, peak))

    let one = gaussianTensor([1, 3, size, size], seed: 2)
    let rate1 = try runsPerSecond(for: seconds) { _ = try network.logits(one, threads: threads) }
    let batch = gaussianTensor([32, 3, size, size], seed: 3)
    let rate32 =
      try runsPerSecond(for: seconds) { _ = try network.logits(batch, threads: threads) } * 32
    for (name, rate) in [("batch 1", rate1), ("batch 32", rate32)] {
      print(
        String(
          format: "  inference, %-8@ %7.1f images/s  (%.1f GFLOP/s, %.0f %% of peak)", name, rate,
          rate * gflop, 100 * rate * gflop / peak))
    }
    print("  batch 1, time per image by kind of step:")
    for row in KernelBenchmark.inferenceSteps(of: network, threads: threads, seconds: seconds) {
      let rate = row.seconds > 0 ? 2 * Double(row.multiplyAdds) / row.seconds / 1e9 : 0
      print(
        String(
          format: "    %@ %6.2f ms  %6.1f GFLOP/s  %3.0f %% of peak",
          row.kind.padding(toLength: 30, withPad: " ", startingAt: 0),
          row.seconds * 1e3, rate, 100 * rate / peak))
    }
    if eachStep { printSteps(network, peak: peak) }
    if let python { try compare(batch1: rate1, batch32: rate32, python: python) }
  }

  /// Every step timed alone at batch 1: mean and shortest time, GFLOP/s at the shortest.
  private func printSteps(_ network: Network, peak: Double) {
    let rows = KernelBenchmark.inferenceStepTimes(of: network, threads: threads, seconds: seconds)
    print("  batch 1, each step (mean, shortest, GFLOP/s and share of peak at the shortest):")
    for (s, row) in rows.enumerated() {
      let rate =
        row.minimumSeconds > 0 ? 2 * Double(row.multiplyAdds) / row.minimumSeconds / 1e9 : 0
      print(
        String(
          format: "    %2d %@ %@ %7.1f µs %7.1f µs %6.1f GFLOP/s %3.0f %%", s,
          row.kind.padding(toLength: 20, withPad: " ", startingAt: 0),
          row.shape.padding(toLength: 28, withPad: " ", startingAt: 0), row.seconds * 1e6,
          row.minimumSeconds * 1e6, rate, 100 * rate / peak))
    }
    let shortest = rows.reduce(0) { $0 + $1.minimumSeconds }
    print(String(format: "    sum of the shortest times: %.2f ms", shortest * 1e3))
  }

  /// Runs the peers' script and prints the side-by-side table with ratios.
  private func compare(batch1: Double, batch32: Double, python: String) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      python, script, "--pth", pth, "--threads", "\(threads)", "--seconds", "\(seconds)",
      "--size", "\(size)",
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
      let json = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    else {
      throw BenchmarkFailure("\(script) failed (status \(process.terminationStatus))")
    }
    print("")
    print("| \(size)x\(size), \(threads) threads | leamoji | peer | leamoji / peer |")
    print("| --- | --- | --- | --- |")
    for (key, name) in [("torch", "PyTorch"), ("onnxruntime", "ONNX Runtime")] {
      guard let peer = json[key] as? [String: Any], let b1 = peer["batch1"] as? Double,
        let b32 = peer["batch32"] as? Double
      else { continue }
      let version = json["\(key)_version"] as? String ?? "?"
      for (label, ours, theirs) in [("batch 1", batch1, b1), ("batch 32", batch32, b32)] {
        print(
          String(
            format: "| %@ %@, %@ | %.1f images/s | %.1f | %.2f |", name, version, label, ours,
            theirs, ours / theirs))
      }
    }
  }
}
