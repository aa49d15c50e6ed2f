import Foundation
import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import Testing

@testable import LeamojiClassifier

/// `train --backbone`'s parts: features extracted once and cached by file digest, a head trained
/// on them, and the head put in place of the backbone's last layer so that the one model file
/// answers exactly as "backbone features → head" does.
@Suite("Transfer learning: features, cache, head")
struct HeadTrainingTests {
  /// A tiny MobileNet-style backbone (a "same" stem with ReLU6, a depthwise block, pooling,
  /// a 5-way linear layer) for 16x16 images.
  static func backbone(seed: UInt64 = 3) throws -> Classifier {
    let specs: [LayerSpec] = [
      .convolution(
        name: "stem", inChannels: 3, outChannels: 8, kernel: 3, stride: 2, padding: .same,
        groups: 1),
      .relu6,
      .convolution(
        name: "dw", inChannels: 8, outChannels: 8, kernel: 3, stride: 1, padding: .same,
        groups: 8),
      .relu6, .globalAvgPool,
      .linear(name: "fc", inFeatures: 8, outFeatures: 5),
    ]
    let network = try Network(specs: specs, inputShape: [3, 16, 16], seed: seed)
    return try Classifier(
      network: network, labelNames: ["a", "b", "c", "d", "e"],
      normalisation: try InputNormalisation(mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5]))
  }

  /// A labelled folder on disk (`Happy/`, `Scary/`, 12 files each) whose files hold only their
  /// names: the decoder double draws a bright warm or dark cold picture from the name.
  static func folder(in scratch: URL) throws -> LabelledFolder {
    for label in ["Happy", "Scary"] {
      let dir = scratch.appendingPathComponent(label)
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      for i in 0..<12 {
        try Data("\(label)-\(i)".utf8).write(to: dir.appendingPathComponent("\(i).img"))
      }
    }
    return try LabelledFolder(scanning: scratch.path)
  }

  /// Draws the picture a test file names; counts the calls.
  final class Decoder: @unchecked Sendable {
    let calls = Locked(0)
    var decode: ImageDecoder {
      { [calls] path, size in
        calls.withValue { $0 += 1 }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        let scary = text.hasPrefix("Scary")
        var rng = SplitMix64(seed: UInt64(text.hashValue & 0xFFFF))
        var image = RGBImage(width: size.width, height: size.height)
        for y in 0..<size.height {
          for x in 0..<size.width {
            let n = UInt8(rng.next() % 50)
            image[x, y] = scary ? RGB(10 + n / 2, 20, 60 + n) : RGB(200 + n / 2, 160 + n, 40)
          }
        }
        return image
      }
    }
  }

  static func scratch() throws -> URL {
    try ScratchFolder.url("head")
  }

  @Test(
    "features come from the cache on a second run, the same bits; damaged entries are recomputed")
  func featuresAreCached() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = try Self.folder(in: dir.appendingPathComponent("data"))
    let backbone = try Self.backbone()
    let cache = FeatureCache(root: dir.appendingPathComponent("cache").path, backbone: "abc123")
    let decoder = Decoder()
    let first = try FeatureSet.extract(
      folder, backbone: backbone, cache: cache, flip: true, threads: 2, decode: decoder.decode
    ).set
    #expect(first.count == 24 && first.width == 8)
    #expect(decoder.calls.withValue { $0 } == 24)
    #expect(first.features != first.flipped!)
    #expect(
      first.features
        == (try backbone.features(
          folder.items.map { try decoder.decode($0.path, backbone.inputSize) }, threads: 1)).flatMap
      { $0 })
    decoder.calls.withValue { $0 = 0 }
    let second = try FeatureSet.extract(
      folder, backbone: backbone, cache: cache, flip: true, threads: 1, decode: decoder.decode
    ).set
    #expect(decoder.calls.withValue { $0 } == 0)
    #expect(second.features == first.features && second.flipped == first.flipped)
    #expect(second.digests == first.digests && second.labels == first.labels)
    // A truncated entry reads as missing: that one image is decoded again.
    let entry = cache.path(image: first.digests[3], flipped: false)
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: entry))
    let third = try FeatureSet.extract(
      folder, backbone: backbone, cache: cache, flip: true, threads: 1, decode: decoder.decode
    ).set
    #expect(decoder.calls.withValue { $0 } == 1)
    #expect(third.features == first.features)
  }

  @Test("the trained model is backbone and head in one: its logits are the head's on the features")
  func combinedModelIsBackboneThenHead() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = try Self.folder(in: dir)
    let backbone = try Self.backbone()
    let decoder = Decoder()
    let set = try FeatureSet.extract(
      folder, backbone: backbone, cache: nil, flip: false, threads: 2, decode: decoder.decode
    ).set
    for hidden in [0, 6] {
      var options = TrainingOptions()
      options.epochs = 30
      options.batchSize = 8
      options.learningRate = 0.05
      options.threads = 2
      let cut = try HeadTraining.cut(backbone, fineTune: 0)
      let result = try HeadTraining.train(
        training: set, validation: set, cut: cut, hidden: hidden, options: options,
        emoji: Classifier.emojiEntry(adding: [:]))
      let model = result.classifier
      #expect(model.labelNames == ["happy", "scary"])
      #expect(result.bestReport.validationAccuracy ?? 0 >= 0.9)
      // Same file round trip, and the head found again in it.
      let reread = try Classifier.decode(model.encoded(), path: "head.safetensors")
      let parts = try #require(HeadTraining.split(reread))
      #expect(parts.hidden == hidden)
      let images = folder.items.prefix(5).map { try! decoder.decode($0.path, backbone.inputSize) }
      let logits = try reread.classify(images, threads: 1).map(\.logits)
      let head = try Network(
        specs: HeadTraining.headSpecs(width: 8, hidden: hidden, classes: 2), inputShape: [8],
        parameters: parts.head)
      let features = try backbone.features(images, threads: 1)
      for (i, row) in features.enumerated() {
        let expected = try head.logits(Tensor(shape: [1, 8], data: row), threads: 1).data
        #expect(zip(expected, logits[i]).allSatisfy { abs($0 - $1) <= 1e-5 })
      }
      // The split-off backbone gives the same features as the original.
      #expect(try parts.backbone.features(images, threads: 1) == features)
      let matrix = try HeadTraining.confusionMatrix(
        of: reread, cut: cut, hidden: hidden, on: set, threads: 1)
      #expect(matrix.accuracy == result.bestReport.validationAccuracy)
    }
  }

  @Test("the same features, options and seed give the same head with 1 or 2 threads")
  func deterministic() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = try Self.folder(in: dir)
    let backbone = try Self.backbone()
    let set = try FeatureSet.extract(
      folder, backbone: backbone, cache: nil, flip: true, threads: 2, decode: Decoder().decode
    ).set
    var options = TrainingOptions()
    options.epochs = 5
    options.batchSize = 5
    let runs = try [1, 2].map { threads in
      options.threads = threads
      return try HeadTraining.train(
        training: set, validation: nil, cut: HeadTraining.cut(backbone, fineTune: 0), hidden: 4,
        options: options, emoji: [:]
      ).classifier.encoded()
    }
    #expect(runs[0] == runs[1])
  }

  @Test(
    "--fine-tune: the features are the activations before the last layers, which train from the backbone's weights; the model is the same chain"
  )
  func fineTunesTheLastLayers() throws {
    let dir = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let folder = try Self.folder(in: dir)
    let backbone = try Self.backbone()
    #expect(throws: ClassifierError.self) { try HeadTraining.cut(backbone, fineTune: 3) }
    let cut = try HeadTraining.cut(backbone, fineTune: 1)
    let decoder = Decoder()
    let set = try FeatureSet.extract(
      folder, backbone: cut.extractor, cache: nil, flip: false, threads: 2,
      decode: decoder.decode
    ).set
    // The activations entering the depthwise layer: 8 channels of 8x8.
    #expect(set.width == 8 * 8 * 8)
    var options = TrainingOptions()
    options.epochs = 20
    options.batchSize = 8
    options.learningRate = 0.02
    let result = try HeadTraining.train(
      training: set, validation: set, cut: cut, hidden: 0, options: options, emoji: [:])
    let model = result.classifier
    #expect(result.bestReport.validationAccuracy ?? 0 >= 0.9)
    // The stem is the backbone's, the depthwise layer trained.
    let before = backbone.network.namedParameters
    let after = model.network.namedParameters
    #expect(after["stem.weight"] == before["stem.weight"])
    #expect(after["dw.weight"] != before["dw.weight"])
    // The whole model on the images scores as the trained part did on the features.
    let images = try folder.items.map { try decoder.decode($0.path, backbone.inputSize) }
    let predictions = try model.classify(images, threads: 1)
    let accuracy =
      Double(zip(predictions, set.labels).filter { $0.classIndex == $1 }.count)
      / Double(set.count)
    let matrix = try HeadTraining.confusionMatrix(
      of: model, cut: cut, hidden: 0, on: set, threads: 1)
    #expect(abs(accuracy - matrix.accuracy) < 1e-9)
    #expect(matrix.accuracy == result.bestReport.validationAccuracy)
  }

  @Test("--balance: every label as often as the most frequent one, every image at least once")
  func balancedOrder() {
    let members = [Array(0..<10), [10, 11, 12], [], [13]]
    var rng = SplitMix64(seed: 5)
    let order = HeadTraining.balancedOrder(members, using: &rng)
    #expect(order.count == 30)
    #expect(order.filter { $0 < 10 }.count == 10)
    #expect(order.filter { (10...12).contains($0) }.count == 10)
    #expect(order.filter { $0 == 13 }.count == 10)
    #expect(Set(order) == Set(0...13))
    // Each of the three images of label 1 comes 3 or 4 times.
    for i in 10...12 { #expect((3...4).contains(order.filter { $0 == i }.count)) }
  }

  @Test("a model that is not a backbone with a head is not split")
  func notAHeadModel() throws {
    let cnn = try Classifier.decode(
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repository.cnnModelPath))),
      path: Repository.cnnModelPath)
    #expect(HeadTraining.split(cnn) == nil)
    let shipped = try Classifier.decode(
      [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repository.modelPath))),
      path: Repository.modelPath)
    // The shipped model 2.2 is two experts and a gate: not one head, but its primary expert is.
    #expect(HeadTraining.split(shipped) == nil)
    #expect(ExpertHeads.isCombined(shipped))
    let primary = try #require(ExpertHeads.primary(of: shipped))
    #expect(HeadTraining.split(primary)?.hidden == 0)
  }
}
