import Foundation
import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import Testing

@testable import LeamojiClassifier

/// `leamoji train`'s whole run as a library call: the plan reads the folders, trains (afresh,
/// from an `--init` model, or a head on a backbone), scores, writes the model with its card, and
/// says what happens through events; every refusal is a `TrainingError` of a kind, thrown
/// before anything is written.
@Suite("TrainingPlan: the whole training run")
struct TrainingPlanTests {
  /// The events of a run, in order, each as a short word (progress ticks left out).
  final class Recorder: @unchecked Sendable {
    let events = Locked<[TrainingEvent]>([])
    var handler: TrainingEvents { { [events] event in events.withValue { $0.append(event) } } }

    var words: [String] {
      events.withValue { $0 }.compactMap { event -> String? in
        switch event {
        case .readingStarted(let kind, _, let total): return "start \(kind) \(total)"
        case .reading, .batch: return nil
        case .readingFinished(let kind, _): return "read \(kind)"
        case .skipped(_, let count, _): return "skipped \(count)"
        case .started(let start):
          return "train \(start.trainingImages)+\(start.validationImages)"
        case .epoch(let report, let epochs): return "epoch \(report.epoch)/\(epochs)"
        case .kept(let epoch, let validated): return "kept \(epoch) \(validated)"
        case .tested(_, let images): return "tested \(images)"
        }
      }
    }

    var batches: Int {
      events.withValue { $0 }.filter {
        if case .batch = $0 { return true }
        return false
      }.count
    }
  }

  /// A plan on a labelled folder of 12 happy and 12 scary toy files in a fresh scratch folder.
  static func plan(_ dir: URL, decoder: HeadTrainingTests.Decoder) throws -> TrainingPlan {
    _ = try HeadTrainingTests.folder(in: dir.appendingPathComponent("data"))
    var plan = TrainingPlan(
      trainingData: dir.appendingPathComponent("data").path, decode: decoder.decode)
    plan.inputSize = 16
    plan.options.epochs = 2
    plan.options.batchSize = 8
    plan.options.threads = 2
    plan.validationSplit = 0.25
    plan.sourceDateEpoch = "0"
    plan.output = dir.appendingPathComponent("model.safetensors").path
    return plan
  }

  /// Writes `classifier` to `name` in `dir`, returning the path.
  static func write(_ classifier: Classifier, _ name: String, in dir: URL) throws -> String {
    let path = dir.appendingPathComponent(name).path
    try Data(classifier.encoded()).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test("from scratch: reads, trains, writes the kept model with its card; events in order")
  func scratchRun() throws {
    let dir = try ScratchFolder.url("plan")
    defer { try? FileManager.default.removeItem(at: dir) }
    var plan = try Self.plan(dir, decoder: HeadTrainingTests.Decoder())
    plan.card.author = "Ada"
    let recorder = Recorder()
    let outcome = try plan.run(events: recorder.handler)
    #expect(
      recorder.words == [
        "start images 24", "read images", "train 18+6", "epoch 1/2", "epoch 2/2",
        "kept \(outcome.keptEpoch) true",
      ])
    #expect(recorder.batches == 2 * 3)
    #expect(outcome.output == plan.output && outcome.scoredOn == "validation")
    #expect(outcome.score?.labels == ["happy", "scary"])
    #expect(outcome.card.author == "Ada" && outcome.card.created == "1970-01-01T00:00:00Z")
    #expect(outcome.card.training?.epochs == 2 && outcome.card.training?.frozenLayers == nil)
    let (read, bytes) = try Classifier.read(path: plan.output)
    #expect(bytes == outcome.classifier.encoded())
    #expect(read.labelNames == ["happy", "scary"] && read.inputSize.width == 16)
  }

  @Test("the same plan writes the same bytes, on one thread or two; a test folder is scored")
  func reproducibleAndTested() throws {
    let dir = try ScratchFolder.url("plan")
    defer { try? FileManager.default.removeItem(at: dir) }
    var plan = try Self.plan(dir, decoder: HeadTrainingTests.Decoder())
    plan.test = plan.trainingData
    let recorder = Recorder()
    let first = try plan.run(events: recorder.handler)
    #expect(recorder.words.suffix(3) == ["start images 24", "read images", "tested 24"])
    #expect(first.scoredOn == "test" && first.card.accuracy?.test != nil)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: plan.output))
    plan.overwrite = true
    plan.options.threads = 1
    _ = try plan.run()
    #expect(try Data(contentsOf: URL(fileURLWithPath: plan.output)) == bytes)
  }

  @Test("refusals are TrainingErrors of a kind, and leave the output alone")
  func refusals() throws {
    let dir = try ScratchFolder.url("plan")
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = try Self.plan(dir, decoder: HeadTrainingTests.Decoder())
    func error(_ change: (inout TrainingPlan) throws -> Void) throws -> TrainingError? {
      var plan = base
      try change(&plan)
      do {
        _ = try plan.run()
        return nil
      } catch {
        return error
      }
    }
    try Data("x".utf8).write(to: URL(fileURLWithPath: base.output))
    #expect(
      try error { _ in }
        == TrainingError(
          .cannotWrite,
          "\(base.output): already exists; choose another --output or pass --overwrite"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: base.output)) == Data("x".utf8))
    try FileManager.default.removeItem(atPath: base.output)
    #expect(
      try error { $0.trainingData = dir.appendingPathComponent("none").path }
        == TrainingError(.noInput, "\(dir.appendingPathComponent("none").path): no such folder"))
    #expect(
      try error { $0.sourceDateEpoch = "soon" }
        == TrainingError(.usage, "SOURCE_DATE_EPOCH=soon is not a number of seconds since 1970"))
    #expect(
      try error {
        $0.inputSize = 8
        $0.options.capacity.widths = [8, 8, 8, 8]
      }?.kind == .usage)
    #expect(
      try error {
        $0.start = .model(path: dir.appendingPathComponent("no.safetensors").path, name: "no")
      }?
      .kind == .noInput)
    // An --init model: 4 layers with weights, 16x16 images.
    let model = try Classifier.untrained(
      labelNames: ["happy", "scary"], size: PixelSize(width: 16, height: 16), seed: 1,
      normalisation: try InputNormalisation(mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5]),
      emoji: [:], capacity: NetworkCapacity())
    let path = try Self.write(model, "base.safetensors", in: dir)
    #expect(
      try error {
        $0.start = .model(path: path, name: "base")
        $0.options.freeze = 4
      }
        == TrainingError(
          .usage,
          "--freeze 4: base has 4 layers with weights and the last one must train (use 0 to 3)"))
    #expect(
      try error {
        $0.start = .model(path: path, name: "base")
        $0.inputSize = 32
      }
        == TrainingError(
          .usage, "--input-size 32 does not fit --init: the model takes 16x16 images"))
    #expect(
      try error { $0.start = .backbone(path: path) }
        == TrainingError(
          .badInput,
          "\(path): not a pretrained backbone (a MobileNet-style network ending in a linear layer, such as Models/efficientnet-lite0.safetensors)"
        ))
    #expect(!FileManager.default.fileExists(atPath: base.output))
  }

  @Test("fine-tuning keeps the base model's label order and records it on the card")
  func fineTune() throws {
    let dir = try ScratchFolder.url("plan")
    defer { try? FileManager.default.removeItem(at: dir) }
    var plan = try Self.plan(dir, decoder: HeadTrainingTests.Decoder())
    let model = try Classifier.untrained(
      labelNames: ["scary", "happy"], size: PixelSize(width: 16, height: 16), seed: 1,
      normalisation: try InputNormalisation(mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5]),
      emoji: [:], capacity: NetworkCapacity())
    plan.start = .model(path: try Self.write(model, "base.safetensors", in: dir), name: "base")
    plan.options.freeze = 1
    plan.inputSize = nil
    let starts = Locked<[TrainingStart]>([])
    let outcome = try plan.run { event in
      if case .started(let start) = event { starts.withValue { $0.append(start) } }
    }
    #expect(starts.withValue { $0 }.map(\.fineTuning) == ["base.safetensors"])
    #expect(outcome.classifier.labelNames == ["scary", "happy"])
    #expect(outcome.card.training?.frozenLayers == 1)
    #expect(outcome.card.training?.initFrom?.hasPrefix("base.safetensors sha256:") == true)
  }

  @Test("a head on a backbone, then --init on the model made: features read, the head trains")
  func backboneHead() throws {
    let dir = try ScratchFolder.url("plan")
    defer { try? FileManager.default.removeItem(at: dir) }
    let decoder = HeadTrainingTests.Decoder()
    var plan = try Self.plan(dir, decoder: decoder)
    plan.inputSize = nil
    plan.featureCache = .folder(dir.appendingPathComponent("cache").path)
    plan.options.augment = [.flip]
    plan.start = .backbone(
      path: try Self.write(try HeadTrainingTests.backbone(), "bb.safetensors", in: dir))
    let recorder = Recorder()
    let first = try plan.run(events: recorder.handler)
    #expect(
      recorder.words == [
        "start features 24", "read features", "train 18+6", "epoch 1/2", "epoch 2/2",
        "kept \(first.keptEpoch) true",
      ])
    #expect(recorder.batches == 0)
    #expect(first.card.training?.backbone?.hasPrefix("bb.safetensors sha256:") == true)
    #expect(first.classifier.labelNames == ["happy", "scary"])
    // The model made trains its head again; its layers cannot be frozen.
    var again = plan
    again.start = .model(path: plan.output, name: "made")
    again.output = dir.appendingPathComponent("again.safetensors").path
    again.options.freeze = 1
    #expect(
      throws: TrainingError(
        .usage, "--freeze: made is a backbone with a head; only the head trains")
    ) {
      try again.run()
    }
    again.options.freeze = 0
    let second = try again.run()
    #expect(second.card.training?.backbone == first.card.training?.backbone)
    #expect(second.card.training?.initFrom?.hasPrefix("model.safetensors sha256:") == true)
  }
}
