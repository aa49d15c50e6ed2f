import Foundation
import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import Testing

@testable import LeamojiClassifier

/// `train --init` on a model with a head, as a parent teaches it one film: a folder with some of
/// its labels trains its (primary) head held near the base's by L2-SP, the card keeps the base's
/// decision settings and says what was done, and the test folder shows base and taught side by
/// side.
@Suite("Teaching an --init model")
struct TeachingTests {
  static let labels = ["happy", "neutral", "scary"]
  static let fusion = FusionSettings(
    soundWeight: 0.4, soundMargin: 0.1, pictureFloor: 0.25, quietLU: -12, loudLU: 6,
    suddenRiseDB: 12, suddenChange: 0.3)

  /// Two experts and a gate on the tiny backbone (the gate hands every picture to the primary),
  /// with a card as the shipped model's: version, three thresholds, fusion.
  static func base() throws -> Classifier {
    let backbone = try HeadTrainingTests.backbone()
    let combined = try ExpertHeads.combine(
      primary: ExpertHeadsTests.linear(backbone, seed: 11),
      secondary: ExpertHeadsTests.hidden(backbone, units: 4, seed: 21),
      gate: ExpertHeadsTests.gate(backbone, d: -6))
    var training = ModelCard.TrainingRecord(
      epochs: 20, bestEpoch: 20, seed: 42, batchSize: 32, learningRate: 0.003,
      augmentations: ["flip"])
    training.backbone = "tiny.safetensors sha256:00"
    return combined.with(
      card: ModelCard(
        modelVersion: "2.5", training: training, evaluation: "checked on the base's check set",
        scaryThreshold: 0.4, scaryThresholdHigh: 0.3, scaryThresholdLow: 0.45, fusion: fusion))
  }

  /// A folder of 12 `Neutral/` (bright warm) and 12 `Scary/` (dark cold) toy files: no happy.
  static func film(in dir: URL) throws -> String {
    for label in ["Neutral", "Scary"] {
      let folder = dir.appendingPathComponent(label)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for i in 0..<12 {
        try Data("\(label)-\(i)".utf8).write(to: folder.appendingPathComponent("\(i).img"))
      }
    }
    return dir.path
  }

  static func plan(_ dir: URL, base: Classifier) throws -> TrainingPlan {
    var plan = TrainingPlan(
      trainingData: try film(in: dir.appendingPathComponent("film")),
      decode: HeadTrainingTests.Decoder().decode)
    plan.start = .model(
      path: try TrainingPlanTests.write(base, "base.safetensors", in: dir), name: "base")
    plan.options.epochs = 4
    plan.options.threads = 1
    plan.options.augment = [.flip, .crop]
    plan.featureCache = .none
    plan.sourceDateEpoch = "0"
    plan.output = dir.appendingPathComponent("taught.safetensors").path
    return plan
  }

  @Test("the card keeps the base's thresholds and fusion and says what the run did")
  func carriesAndRecords() throws {
    let dir = try ScratchFolder.url("teach")
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = try Self.base()
    let plan = try Self.plan(dir, base: base)
    let outcome = try plan.run()
    let card = try Classifier.read(path: plan.output).0.card
    #expect(card == outcome.card)
    #expect(card.scaryThreshold == 0.4 && card.scaryThresholdHigh == 0.3)
    #expect(card.scaryThresholdLow == 0.45 && card.fusion == Self.fusion)
    // Figures of the base's own check set are not the taught model's.
    #expect(card.evaluation == nil)
    let t = try #require(card.training)
    #expect(
      t.carried == ["scary_threshold", "scary_threshold_high", "scary_threshold_low", "fusion"])
    #expect(t.retrained == ["primary"] && t.initVersion == "2.5")
    #expect(t.initFrom?.hasPrefix("base.safetensors sha256:") == true)
    // Crop was asked for, but features are computed once: flip is all a head gets.
    #expect(t.augmentations == ["flip"])
    #expect(t.l2SP == TrainingOptions.defaultL2SP && t.learningRate == plan.options.teachingRate)
    #expect(card.trainingData?.counts == ["neutral": 12, "scary": 12])
    #expect(outcome.classifier.labelNames == Self.labels)
    #expect(outcome.routing == GateRouting(primary: 24, between: 0, secondary: 0))

    // A threshold given on the command line wins over all three; fusion is still carried.
    var own = plan
    own.overwrite = true
    own.card.scaryThreshold = 0.6
    let mine = try own.run().card
    #expect(mine.scaryThreshold == 0.6 && mine.scaryThresholdHigh == nil)
    #expect(mine.fusion == Self.fusion && mine.training?.carried == ["fusion"])
  }

  /// Features in 8 dimensions whose head `W0` calls the first axis happy, the second neutral,
  /// the third scary; `rows` examples of `label` near `axis` (with a little of every axis).
  static func rows(axis: Int, label: Int, count: Int, seed: UInt64) -> [([Float], Int)] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in
      var row = (0..<8).map { _ in Float(rng.next() % 100) / 400 }
      row[axis] += 1.5
      return (row, label)
    }
  }

  static func set(_ rows: [([Float], Int)]) -> FeatureSet {
    var set = FeatureSet(width: 8, labelNames: labels, flip: false)
    for (i, (row, label)) in rows.enumerated() {
      set.append(features: row, flipped: nil, label: label, path: "\(i)", digest: "\(i)")
    }
    return set
  }

  /// A linear head on the tiny backbone that reads happy, neutral, scary off axes 0, 1, 2.
  static func axisHead() throws -> Classifier {
    let backbone = try HeadTrainingTests.backbone()
    var w = [Float](repeating: 0, count: 3 * 8)
    for k in 0..<3 { w[k * 8 + k] = 2 }
    return try ExpertHeadsTests.model(
      backbone, head: [.linear(name: "fc", inFeatures: 8, outFeatures: 3)],
      tensors: ["fc.weight": Tensor(shape: [3, 8], data: w), "fc.bias": Tensor(shape: [3])])
  }

  /// Teaches `axisHead` a film whose neutral seconds lie on the scary axis (what it gets wrong)
  /// at L2-SP `pull`; returns the base and the taught head.
  static func teach(pull: Float?, epochs: Int = 30) throws -> (Classifier, Classifier) {
    let base = try axisHead()
    let parts = try #require(HeadTraining.split(base))
    let film = set(
      rows(axis: 2, label: 1, count: 16, seed: 1) + rows(axis: 2, label: 2, count: 4, seed: 2))
    var options = TrainingOptions()
    options.epochs = epochs
    options.batchSize = 8
    options.threads = 1
    options.l2SP = pull
    let taught = try HeadTraining.train(
      training: film, validation: nil,
      cut: try HeadTraining.cut(parts.backbone, fineTune: 0), hidden: 0, options: options,
      emoji: parts.emoji, initialHead: parts
    ).classifier
    return (base, taught)
  }

  static func distance(_ a: Classifier, _ b: Classifier) -> Float {
    let x = a.network.namedParameters
    let y = b.network.namedParameters
    return ["fc.weight", "fc.bias"].reduce(0) { sum, key in
      sum + zip(x[key]!.data, y[key]!.data).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }
    }.squareRoot()
  }

  @Test("a strong L2-SP keeps the taught head close to the base; a weak one lets it go")
  func strongPullStaysClose() throws {
    let (base, strong) = try Self.teach(pull: 1000)
    let (_, weak) = try Self.teach(pull: 0.01)
    let near = Self.distance(base, strong)
    let far = Self.distance(base, weak)
    #expect(far > 1, "the weak pull moved the head by \(far)")
    #expect(near < far / 20, "strong \(near), weak \(far)")
  }

  @Test("a label absent from the teaching folder is still predicted on inputs like the base's")
  func keepsAbsentLabel() throws {
    let (base, taught) = try Self.teach(pull: nil)
    #expect(taught.labelNames == Self.labels)
    let happy = Self.set(Self.rows(axis: 0, label: 0, count: 20, seed: 9))
    let film = Self.set(Self.rows(axis: 2, label: 1, count: 20, seed: 10))
    let threads = 1
    let before = try TeachingCheck.probabilities(of: base, on: happy, threads: threads)
    let after = try TeachingCheck.probabilities(of: taught, on: happy, threads: threads)
    #expect(before.allSatisfy { $0[0] > 0.8 })
    #expect(after.allSatisfy { LabelRule.decide($0, threshold: nil, scary: 2) == 0 })
    // And it did learn the film: its neutral seconds are less scary than the base said, by
    // about what the default hold allows (a logit moves by about 1/λ at most).
    let gap = { (model: Classifier) throws -> Float in
      let rows = try TeachingCheck.probabilities(of: model, on: film, threads: threads)
      return rows.map { log($0[2] / $0[1]) }.reduce(0, +) / Float(rows.count)
    }
    let moved = try gap(base) - gap(taught)
    #expect(moved > 0.2 / TrainingOptions.defaultL2SP, "scary-neutral logit down by \(moved)")
    #expect(moved < 3 / TrainingOptions.defaultL2SP, "scary-neutral logit down by \(moved)")
  }

  @Test("before/after figures label as analyze does: scary from the threshold, else the next")
  func figures() {
    let rows: [[Float]] = [
      [0.5, 0.1, 0.4],  // happy truth, scary at 0.40: scary
      [0.2, 0.5, 0.3],  // neutral truth: neutral
      [0.6, 0.05, 0.35],  // scary truth below the threshold: happy, the next most probable
      [0.1, 0.2, 0.7],  // scary truth: scary
    ]
    let truth = [0, 1, 2, 2]
    let at = TeachingCheck.figures(rows: rows, truth: truth, labels: Self.labels, threshold: 0.4)
    #expect(at.matrix.counts == [[0, 0, 1], [0, 1, 0], [1, 0, 1]])
    #expect(at.benign == 2 && at.benignCalledScary == 1 && at.benignScaryShare == 0.5)
    let argmax = TeachingCheck.figures(
      rows: rows, truth: truth, labels: Self.labels, threshold: nil)
    #expect(argmax.matrix.counts == [[1, 0, 0], [0, 1, 0], [1, 0, 1]])
    #expect(argmax.benignCalledScary == 0)
  }

  @Test("with a test folder, the base and the taught model are scored side by side")
  func checkedSideBySide() throws {
    let dir = try ScratchFolder.url("teach")
    defer { try? FileManager.default.removeItem(at: dir) }
    let base = try Self.base()
    var plan = try Self.plan(dir, base: base)
    plan.test = try Self.film(in: dir.appendingPathComponent("check"))
    let outcome = try plan.run()
    let check = try #require(outcome.check)
    #expect(check.images == 24)
    #expect(check.before.threshold == 0.4 && check.after.threshold == 0.4)
    #expect(check.before.benign == 12 && check.after.benign == 12)
    // The base's side is the base model itself, run on the same pictures.
    let decode = HeadTrainingTests.Decoder().decode
    let folder = try LabelledFolder(scanning: plan.test!)
    let images = try ImageSet.load(
      folder, size: base.inputSize, labelNames: Self.labels, threads: 1, decode: decode
    ).images
    let rows = try base.classify(images, threads: 1).map(\.probabilities)
    let direct = TeachingCheck.figures(
      rows: rows, truth: images.labels, labels: Self.labels, threshold: 0.4)
    #expect(direct.matrix == check.before.matrix)
    #expect(outcome.scoredOn == "test")
  }
}
