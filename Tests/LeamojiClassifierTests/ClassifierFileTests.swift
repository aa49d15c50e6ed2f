import Foundation
import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import Testing

@testable import LeamojiClassifier

/// The classifier's model files: what it writes, what it reads back, old files, and one test
/// per way its own metadata entries can be wrong.
@Suite("Classifier model files")
struct ClassifierFileTests {
  static let path = "models/test.safetensors"

  /// A small trained-looking classifier (non-zero biases) with a custom label set.
  func classifier() throws -> Classifier {
    var net = try Network(
      specs: LayerSpec.defaultArchitecture(classes: 4), inputShape: [3, 16, 16], seed: 5)
    var p = net.parameters
    for i in p.indices where p[i].rank == 1 {
      p[i].data = p[i].data.indices.map { Float($0 % 7) / 8 - 0.25 }
    }
    try net.setParameters(p)
    return try Classifier(
      network: net, labelNames: ["happy", "neutral", "scary", "sad"],
      normalisation: InputNormalisation(mean: [0.5, 0.25, 0.125], std: [0.2, 0.3, 0.4]),
      emoji: Classifier.emojiEntry(adding: ["sad": "😢", "angry": "😡"]))
  }

  /// The problem the test file is rejected for after `edit` (nil when accepted).
  func problem(
    edit: (inout [String: Tensor], inout [String: String]) -> Void
  ) throws -> ModelFileError.Problem? {
    let file = try classifier().fileContents
    var tensors = file.tensors
    var metadata = file.metadata
    edit(&tensors, &metadata)
    do {
      _ = try Classifier.decode(
        SafetensorsFile(tensors: tensors, metadata: metadata).encoded(), path: Self.path)
      return nil
    } catch {
      #expect(error.path == Self.path && error.description.hasPrefix(Self.path + ": "))
      #expect(!error.description.contains("\n"))
      return error.problem
    }
  }

  @Test func roundTripKeepsEverything() throws {
    let original = try classifier()
    let dir = try ScratchFolder.url("classifier")
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("m.safetensors").path
    try DurableFile(path).write(original.encoded())
    let loaded = try Classifier(contentsOf: path)
    #expect(loaded.labels == original.labels)
    #expect(loaded.labels.map(\.emoji) == ["😀", "😐", "😱", "😢"])
    #expect(loaded.normalisation == original.normalisation)
    #expect(loaded.emojiEntry == original.emojiEntry && loaded.emojiEntry["angry"] == "😡")
    #expect(loaded.network.specs == original.network.specs)
    #expect(loaded.inputSize == PixelSize(width: 16, height: 16))
    #expect(loaded.encoded() == original.encoded())
    let images = (0..<2).map { patternImage(kind: $0, size: 16, seed: 1) }
    #expect(try loaded.classify(images) == original.classify(images))
  }

  @Test("the metadata entries keep their format: compact JSON, sorted keys")
  func metadataText() throws {
    let bytes = try classifier().encoded()
    let n = Int(bytes[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    let header = String(decoding: bytes[8..<(8 + n)], as: UTF8.self)
    let emoji =
      #"{\"angry\":\"😡\",\"happy\":\"😀\",\"neutral\":\"😐\",\"sad\":\"😢\",\"scary\":\"😱\"}"#
    #expect(
      header.hasPrefix(#"{"__metadata__":{"emoji":""# + emoji + #"","format":"leamoji-cnn","#))
    #expect(header.contains(#""input":"3x16x16""#))
    #expect(header.contains(#""labels":"[\"happy\",\"neutral\",\"scary\",\"sad\"]""#))
    #expect(header.contains(#""mean":"[0.5,0.25,0.125]""#))
    #expect(header.contains(#""std":"[0.2,0.3,0.4]""#))
    #expect(header.contains(#""version":"1""#))
    #expect(header.contains(#""layers":"[{\"in\":3,\"kernel\":3,\"name\":\"conv1\",\"out\":16,"#))
  }

  /// The model file shipped until issue 11, 1.2 and today's, each as its bytes and decoded.
  static func oldAndShippedModels() throws -> [(
    path: String, bytes: [UInt8], classifier: Classifier
  )] {
    try [Repository.oldModelPath, Repository.cnnModelPath, Repository.modelPath].map { path in
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
      return (path, bytes, try Classifier.decode(bytes, path: "shipped"))
    }
  }

  @Test(
    "old files (the models shipped until issue 11 and as 1.2) and the shipped model load and are written again byte for byte"
  )
  func shippedModel() throws {
    for (path, bytes, classifier) in try Self.oldAndShippedModels() {
      #expect(classifier.labels == Label.standard)
      let side = path == Repository.modelPath ? 192 : 64
      #expect(classifier.inputSize == PixelSize(width: side, height: side), "\(path)")
      #expect(classifier.encoded() == bytes)
    }
  }

  @Test(
    "the converted EfficientNet-Lite0 backbone (version 3) loads and is written again byte for byte"
  )
  func backboneModel() throws {
    let path = URL(fileURLWithPath: Repository.modelPath).deletingLastPathComponent()
      .appendingPathComponent("efficientnet-lite0.safetensors").path
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let classifier = try Classifier.decode(bytes, path: path)
    #expect(classifier.labels.count == 1000)
    #expect(classifier.inputSize == PixelSize(width: 224, height: 224))
    #expect(classifier.network.parameterCount == 4_631_000)
    #expect(classifier.network.specs.map { $0.requiredVersion }.max() == 3)
    let again = classifier.encoded()
    // Compared whole first: searching 18 MB byte by byte takes seconds in a debug build, so
    // the first difference is looked for only when there is one.
    guard again != bytes else { return }
    let first = zip(again, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    let context = first.map {
      String(decoding: again[max(0, $0 - 60)..<min(again.count, $0 + 60)], as: UTF8.self)
    }
    Issue.record(
      "\(again.count) bytes written for \(bytes.count) read; first difference at \(first ?? -1): \(context ?? "")"
    )
  }

  @Test(
    "the shipped model and the old one: inference buffers give the logits of training buffers, bit for bit"
  )
  func shippedModelInferenceBits() throws {
    for (path, _, classifier) in try Self.oldAndShippedModels() {
      let maker = BatchMaker(size: classifier.inputSize, normalisation: classifier.normalisation)
      // A 224x224 backbone keeps every activation in training mode: small batches only.
      let runs =
        classifier.inputSize.width > 64 ? [(1, 1), (3, 2)] : [(1, 1), (3, 2), (64, 2), (7, 1)]
      for (count, threads) in runs {
        let images = (0..<count).map {
          patternImage(kind: $0 % 3, size: classifier.inputSize.width, seed: UInt64(count + $0))
        }
        let batch = maker.batch(images)
        let training = try classifier.network.logits(batch, threads: threads, mode: .training)
        let inference = try classifier.network.logits(batch, threads: threads)
        #expect(
          training.data.map(\.bitPattern) == inference.data.map(\.bitPattern),
          "\(path): \(count) images, \(threads) threads")
      }
    }
  }

  @Test(
    "a classifier with batch norm and dropout: version 2, running statistics kept, same bytes again"
  )
  func capacityFile() throws {
    let classifier = try Classifier.untrained(
      labelNames: ["happy", "neutral", "scary"], size: PixelSize(width: 16, height: 16), seed: 4,
      capacity: NetworkCapacity(widths: [4, 8], batchNorm: true, dropout: 0.25))
    let bytes = classifier.encoded()
    let read = try Classifier.decode(bytes, path: "bn.safetensors")
    #expect(read.encoded() == bytes)
    #expect(read.network.specs == classifier.network.specs)
    #expect(read.network.bufferNames.contains("bn2.running_var"))
    #expect(read.fileContents.metadata["version"] == "2")
    let images = (0..<3).map { patternImage(kind: $0, size: 16, seed: 9) }
    #expect(try read.classify(images) == classifier.classify(images))
    #expect(
      try Classifier.untrained(labelNames: ["a", "b"], seed: 1).fileContents.metadata["version"]
        == "1")
  }

  @Test("fine-tuning a batch-norm model with new labels keeps its running statistics")
  func fineTuneBatchNorm() throws {
    let base = try Classifier.untrained(
      labelNames: ["happy", "neutral", "scary"], size: PixelSize(width: 16, height: 16), seed: 4,
      capacity: NetworkCapacity(widths: [4, 8], batchNorm: true))
    let tuned = try FineTuning.start(
      from: base, labelNames: ["calm", "tense"], size: PixelSize(width: 16, height: 16), seed: 5,
      customEmoji: [:])
    #expect(tuned.network.classCount == 2)
    #expect(tuned.network.buffers == base.network.buffers)
  }

  @Test func missingFileNamesThePathAsGiven() {
    #expect(throws: ModelFileError(path: "nowhere/m.safetensors", problem: .fileNotFound)) {
      try Classifier(contentsOf: "nowhere/m.safetensors")
    }
  }

  @Test func missingMetadataEntries() throws {
    for key in ["format", "version", "labels", "input", "mean", "std", "layers", "emoji"] {
      #expect(try problem(edit: { _, m in m[key] = nil }) == .missingMetadata(key: key))
    }
  }

  @Test func malformedMetadataEntries() throws {
    let cases: [(String, String)] = [
      ("labels", "happy,sad"), ("labels", "[]"), ("labels", #"["a","a","b","c"]"#),
      ("labels", #"["a","","b","c"]"#), ("input", "3x16"), ("input", "1x16x16"),
      ("mean", "[0.5, 0.5]"), ("mean", #"["a", 1, 2]"#), ("mean", "[1e39, 0, 0]"),
      ("std", "[0.2, 0, 0.3]"), ("std", "[0.2, -1, 0.3]"), ("layers", "{}"),
      ("emoji", #"["😀"]"#), ("emoji", #"{"happy":1}"#),
    ]
    for (key, value) in cases {
      let p = try problem(edit: { _, m in m[key] = value })
      guard case .malformedMetadata(let k, _)? = p, k == key else {
        Issue.record("\(key) = \(value): got \(String(describing: p))")
        continue
      }
    }
    #expect(
      try problem(edit: { _, m in m["std"] = "[0.2, 0, 0.3]" })
        == .malformedMetadata(
          key: "std", reason: "need 3 finite positive numbers, got [0.2, 0.0, 0.3]"))
    #expect(
      try problem(edit: { _, m in m["labels"] = "[]" })
        == .malformedMetadata(key: "labels", reason: "need unique, non-empty labels"))
  }

  @Test func labelCountMustMatchOutputs() throws {
    #expect(
      try problem(edit: { _, m in m["labels"] = #"["a","b","c"]"# })
        == .malformedMetadata(key: "labels", reason: "3 labels but the network has 4 outputs"))
  }

  /// A file with several problems is reported for the first in reading order: format,
  /// version, labels, input, mean, std, layers, emoji, then the tensors, then the label count.
  @Test func firstProblemInReadingOrder() throws {
    let order = ["labels", "input", "mean", "std", "layers", "emoji"]
    for (i, key) in order.enumerated() {
      let p = try problem(edit: { t, m in
        for later in order[i...] { m[later] = "{" }
        t["fc.bias"] = nil
      })
      guard case .malformedMetadata(let k, _)? = p, k == key else {
        Issue.record("expected \(key) first, got \(String(describing: p))")
        continue
      }
    }
    #expect(
      try problem(edit: { t, m in
        m["labels"] = #"["a","b"]"#
        t["fc.bias"] = nil
      }) == .missingTensor(name: "fc.bias"))
    #expect(
      try problem(edit: { _, m in
        m["version"] = "4"
        m["labels"] = "{"
      }) == .unsupportedVersion(found: "4"))
  }

  /// Random corruption of a valid file is always either accepted or rejected with an error —
  /// never a crash.
  @Test func randomCorruptionNeverCrashes() throws {
    let valid = try classifier().encoded()
    var rng = SplitMix64(seed: 99)
    var rejected = 0
    for round in 0..<300 {
      var bytes = valid
      switch round % 3 {
      case 0:
        for _ in 0..<(1 + Int(rng.next() % 4)) {
          let i = Int(rng.next() % UInt64(min(bytes.count, 600)))
          bytes[i] = UInt8(truncatingIfNeeded: rng.next())
        }
      case 1:
        bytes.removeLast(Int(rng.next() % UInt64(bytes.count)))
      default:
        let i = 8 + Int(rng.next() % 400)
        let tokens: [UInt8] = [
          UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "9"), 0,
        ]
        bytes[i] = tokens[Int(rng.next() % 5)]
      }
      do {
        _ = try Classifier.decode(bytes, path: "x")
      } catch {
        rejected += 1
      }
    }
    #expect(rejected > 250)
  }
}
