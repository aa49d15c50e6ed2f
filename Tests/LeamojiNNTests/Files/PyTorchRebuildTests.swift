import Foundation
import LeamojiNN
import LeamojiTestSupport
import Testing

/// Every model file is rebuildable in PyTorch from its own metadata: `scripts/pytorch-rebuild.py`
/// builds the network from `layers`, loads the tensors with `strict=True` and its eval-mode
/// logits match leamoji's within 1e-4. Runs only where `$LEAMOJI_TORCH_PYTHON` (default
/// `python3`) imports torch; PyTorch is never a test dependency.
@Suite("PyTorch rebuild")
struct PyTorchRebuildTests {
  static let python = ProcessInfo.processInfo.environment["LEAMOJI_TORCH_PYTHON"] ?? "python3"
  static let script = Repository.path("scripts/pytorch-rebuild.py")

  /// Runs `python args`; stdout and the exit status.
  static func run(_ args: [String]) -> (status: Int32, output: Data) {
    guard let result = try? ProcessRunner.run(python, args) else { return (-1, Data()) }
    return (result.status, result.stdoutData)
  }

  static let hasTorch = run(["-c", "import torch"]).status == 0

  @Test(
    "batch norm, dropout and the default network rebuild in PyTorch with the same logits",
    .enabled(if: hasTorch, "no python with torch ($LEAMOJI_TORCH_PYTHON)"),
    arguments: [true, false])
  func rebuild(batchNorm: Bool) throws {
    var network: Network
    if batchNorm {
      network = try BatchNormDropoutTests.network(seed: 31)
    } else {
      network = try Network(
        specs: LayerSpec.defaultArchitecture(classes: 3), inputShape: [3, 16, 16], seed: 5)
    }
    let side = network.inputShape[1]
    let x = TestSupport.random([2, 3, side, side], seed: 8)
    let dir = try ScratchFolder.url("nn-tests")
    defer { try? FileManager.default.removeItem(at: dir) }
    let model = dir.appendingPathComponent("m.safetensors")
    let input = dir.appendingPathComponent("x.f32")
    try Data(ModelFile.contents(of: network, metadata: [:]).encoded()).write(to: model)
    try x.data.withUnsafeBytes { try Data($0).write(to: input) }
    let (status, output) = Self.run([Self.script, model.path, input.path, "2"])
    #expect(status == 0)
    struct Answer: Decodable { var logits: [[Double]] }
    let answer = try JSONDecoder().decode(Answer.self, from: output)
    let ours = try network.logits(x, threads: 1)
    #expect(answer.logits.count == 2)
    for b in 0..<2 {
      for k in 0..<network.classCount {
        #expect(abs(answer.logits[b][k] - Double(ours.data[b * network.classCount + k])) < 1e-4)
      }
    }
  }
}
