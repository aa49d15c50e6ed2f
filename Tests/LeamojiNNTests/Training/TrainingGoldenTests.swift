import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

@testable import LeamojiNN

/// Training results pinned to the byte: a few seeded steps of each kind of network, the model
/// file's SHA-256 afterwards. Recorded before the engine took over batch norm and dropout
/// training; a change to how training runs (the engine, its kernels, the layers' maths) must
/// leave every figure as it is, on any thread count.
@Suite("Training goldens")
struct TrainingGoldenTests {
  /// The trained network's model file (parameters and buffers) as SHA-256.
  static func fileHash(_ network: Network) -> String {
    SHA256.hex(ModelFile.contents(of: network, metadata: [:]).encoded())
  }

  /// `steps` session steps on seeded batches of `batch` samples; the file hash afterwards.
  static func trained(
    _ network: Network, steps: Int, batch: Int, threads: Int, seed: UInt64 = 0
  ) throws -> String {
    let session = TrainingSession(
      network: network, optimizer: AdamW(learningRate: 3e-3, weightDecay: 1e-4), seed: seed)
    for step in 0..<steps {
      let x = TestSupport.random(
        [batch] + network.inputShape, seed: 1000 + UInt64(step), range: -2...2)
      let labels = (0..<batch).map { ($0 + step) % network.classCount }
      try session.step(x, labels: labels, threads: threads)
    }
    return fileHash(session.network)
  }

  /// The 1.2 model (24/48/96/128 channels at 64x64), trained on: the engine's training path.
  @Test(arguments: [1, 2, 4])
  func cnnFixture(threads: Int) throws {
    let file = try ModelFile.open(path: Repository.cnnModelPath)
    let network = try file.network(
      specs: try file.layers(), inputShape: try file.inputShape(channels: 3))
    let hash = try Self.trained(network, steps: 2, batch: 6, threads: threads)
    #expect(hash == "e2ed0d30ef3c21d1f65e48eded218ed397c88b80ff518181331f1df98c333dc5")
  }

  /// A fresh default architecture at 32x32.
  @Test(arguments: [1, 2, 4])
  func defaultArchitecture(threads: Int) throws {
    let network = try Network(
      specs: LayerSpec.defaultArchitecture(classes: 3), inputShape: [3, 32, 32], seed: 1)
    let hash = try Self.trained(network, steps: 3, batch: 9, threads: threads)
    #expect(hash == "4e1275cbf4b0c1b3c68a2646169d2b0a07bc8064a92edbde98d75853de052109")
  }

  /// A MobileNet-style network (stem, depthwise, residual blocks, ReLU6). Recorded again when
  /// the depthwise and stem convolutions' forward pass moved onto the engine's kernels (the
  /// same sums in another order: the last bits of the activations changed, not the maths).
  @Test(arguments: [1, 2, 4])
  func backboneStyle(threads: Int) throws {
    let network = try MobileEngineTests.network(size: 23)
    let hash = try Self.trained(network, steps: 2, batch: 5, threads: threads)
    #expect(hash == "01c5bc3f6748514daaa642eeecde47319c4d63196bc537e50c6d27f85666ad5f")
  }

  /// Batch norms and dropout (running statistics and dropout masks included).
  @Test(arguments: [1, 2, 4])
  func batchNormAndDropout(threads: Int) throws {
    let small = try Network(
      specs: BatchNormDropoutTests.specs(dropout: 0.3), inputShape: [3, 8, 8], seed: 8)
    let smallHash = try Self.trained(small, steps: 3, batch: 6, threads: threads, seed: 5)
    #expect(smallHash == "700808ff02e38802ccbf586611f85666f36a41472cac1f5ff12768599ffa974a")
    let wide = try Network(
      specs: LayerSpec.architecture(
        classes: 3, widths: [16, 32, 64], batchNorm: true, dropout: 0.2),
      inputShape: [3, 32, 32], seed: 2)
    let wideHash = try Self.trained(wide, steps: 3, batch: 8, threads: threads, seed: 9)
    #expect(wideHash == "a4ad6ad4844574a9cbb042fcaaaafd4c498bef2d02d38c08ab02109c36e09fa6")
  }
}
