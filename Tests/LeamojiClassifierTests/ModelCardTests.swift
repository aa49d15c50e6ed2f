import Foundation
import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import Testing

@testable import LeamojiClassifier

@Suite("Model card")
struct ModelCardTests {
  static let card = ModelCard(
    author: "Ada", description: "Moods of cartoons", license: "MIT", modelVersion: "1.2",
    created: "2026-11-23T17:00:00Z",
    trainingData: .init(
      counts: ["happy": 4, "scary": 4], files: 8, sha256: String(repeating: "a", count: 64)),
    training: .init(
      epochs: 3, bestEpoch: 2, seed: 42, batchSize: 8, learningRate: 0.003,
      augmentations: ["flip", "crop"], initFrom: "base.safetensors sha256:00", frozenLayers: 2),
    accuracy: .init(training: 0.9, validation: 0.75, test: nil),
    evaluation: "a check set: 40 % of frightening seconds", scaryThreshold: 0.15,
    scaryThresholdHigh: 0.1, scaryThresholdLow: 0.4)

  @Test("a card survives writing and reading; the bytes come back the same")
  func roundTrip() throws {
    let classifier = try Classifier.untrained(
      labelNames: ["happy", "scary"], size: PixelSize(width: 16, height: 16), seed: 1
    )
    .with(card: Self.card)
    let bytes = classifier.encoded()
    let read = try Classifier.decode(bytes, path: "m.safetensors")
    #expect(read.card == Self.card)
    #expect(read.encoded() == bytes)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains(#""author":"Ada""#) && text.contains(#""model_version":"1.2""#))
    #expect(text.contains(#""scary_threshold":"0.15""#), "the threshold is a plain decimal")
    #expect(text.contains(#""scary_threshold_high":"0.1""#))
    #expect(text.contains(#""scary_threshold_low":"0.4""#))
    #expect(text.contains(#""version":"1""#), "the file format's version is untouched")
  }

  @Test("a file from before the card loads with an empty card and keeps its bytes")
  func oldFile() throws {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Repository.oldModelPath)))
    let classifier = try Classifier.decode(bytes, path: "old.safetensors")
    #expect(classifier.card.isEmpty)
    #expect(classifier.encoded() == bytes)
  }

  @Test("malformed card entries are one error naming the key")
  func malformed() throws {
    let classifier = try Classifier.untrained(
      labelNames: ["a", "b"], size: PixelSize(width: 8, height: 8), seed: 1)
    for (key, value) in [
      ("created", "yesterday"), ("training", "{\"epochs\":\"x\"}"), ("accuracy", "["),
      ("scary_threshold", "high"), ("scary_threshold", "1"), ("scary_threshold", "0"),
      ("scary_threshold_high", "-0.1"), ("scary_threshold_low", "nan"),
    ] {
      var contents = classifier.fileContents
      contents.metadata[key] = value
      #expect(throws: ModelFileError.self) {
        try Classifier.decode(contents.encoded(), path: "bad")
      }
      do {
        _ = try Classifier.decode(contents.encoded(), path: "bad")
      } catch {
        #expect(error.description.contains(key) && error.description.contains("bad"), "\(error)")
      }
    }
  }

  @Test("dates: ISO 8601 days and times and epoch seconds; written as UTC to the second")
  func dates() {
    #expect(ModelCard.date(parsing: "0") == Date(timeIntervalSince1970: 0))
    #expect(ModelCard.timestamp(ModelCard.date(parsing: "1700000000")!) == "2023-11-14T22:13:20Z")
    #expect(ModelCard.timestamp(ModelCard.date(parsing: "2026-11-23")!) == "2026-11-23T00:00:00Z")
    #expect(
      ModelCard.timestamp(ModelCard.date(parsing: "2026-11-23T18:00:00+01:00")!)
        == "2026-11-23T17:00:00Z")
    #expect(ModelCard.date(parsing: "soon") == nil && ModelCard.date(parsing: "") == nil)
  }

  @Test("the card's own UTC form is read without ICU and agrees with ISO8601DateFormatter")
  func utcSecondDates() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    for text in [
      "1970-01-01T00:00:00Z", "2026-11-23T17:00:00Z", "2000-02-29T23:59:59Z",
      "1900-03-01T12:34:56Z", "2399-12-31T00:00:01Z", "1600-01-01T00:00:00Z",
    ] {
      #expect(ModelCard.utcSecond(text) != nil, "\(text)")
      #expect(ModelCard.utcSecond(text) == formatter.date(from: text), "\(text)")
    }
    // Not a real day or time, or another form: left to the formatter (nil here).
    for text in [
      "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-11-23T24:00:00Z",
      "2026-11-23T17:00:00+01:00", "2026-11-23 17:00:00Z", "2026-11-2aT17:00:00Z",
      "1582-10-10T00:00:00Z",
    ] {
      #expect(ModelCard.utcSecond(text) == nil, "\(text)")
    }
  }

  @Test("the training data summary: counts per label and a digest of sorted relative paths")
  func trainingData() {
    var set = ImageSet(size: PixelSize(width: 2, height: 2), labelNames: ["happy", "scary"])
    let image = RGBImage(width: 2, height: 2)
    set.append(image, label: 1, path: "/data/Scary/b.png")
    set.append(image, label: 0, path: "/data/Happy/a.png")
    let summary = ModelCard.TrainingData(images: set, root: "/data")
    #expect(summary.counts == ["happy": 1, "scary": 1] && summary.files == 2)
    #expect(summary.sha256 == SHA256.hex(Array("Happy/a.png\nScary/b.png".utf8)))
    var moved = ImageSet(size: set.size, labelNames: set.labelNames)
    moved.append(image, label: 0, path: "/elsewhere/Happy/a.png")
    moved.append(image, label: 1, path: "/elsewhere/Scary/b.png")
    #expect(ModelCard.TrainingData(images: moved, root: "/elsewhere/").sha256 == summary.sha256)
  }
}

@Suite("The card's scary thresholds given together (train, leamoji-lab card)")
struct ThresholdsProblemTests {
  @Test(
    "outside (0, 1), high or low without normal, or out of order: the option's line; else nil",
    arguments: [
      (0.4, nil, nil, nil), (0.4, 0.3, 0.6, nil), (0.4, 0.2, nil, nil), (0.4, nil, 0.7, nil),
      (1.2, nil, nil, "--scary-threshold takes a probability between 0 and 1"),
      (0.4, 0.0, nil, "--scary-threshold-high takes a probability between 0 and 1"),
      (nil, nil, 0.6, "go with --scary-threshold"),
      (0.4, 0.5, nil, "in that order"),
      // A given low under the normal one, the unset high taken as half of it.
      (0.4, nil, 0.3, "in that order"),
      (0.8, nil, 0.85, nil), (0.8, 0.5, 0.75, "in that order"),
    ] as [(Double?, Double?, Double?, String?)])
  func problem(normal: Double?, high: Double?, low: Double?, expected: String?) {
    let found = ModelCard.thresholdsProblem(normal: normal, high: high, low: low)
    if let expected {
      #expect(found?.contains(expected) == true, "\(String(describing: found))")
    } else {
      #expect(found == nil, "\(String(describing: found))")
    }
  }

  @Test("each alone: a range problem only, never a question of order")
  func rangeOnly() {
    #expect(ModelCard.thresholdRangeProblem(normal: nil, high: 0.5, low: 0.2) == nil)
    #expect(
      ModelCard.thresholdRangeProblem(normal: nil, high: nil, low: 1)?.hasPrefix(
        "--scary-threshold-low takes") == true)
  }
}

@Suite("Fine-tuning (train --init)")
struct FineTuningTests {
  func options(freeze: Int = 0) -> TrainingOptions {
    var options = TrainingOptions()
    options.epochs = 2
    options.batchSize = 8
    options.freeze = freeze
    return options
  }

  @Test("the same labels keep every layer and the normalisation; frozen layers do not move")
  func sameLabels() throws {
    let base = try Trainer.train(training: toySet(count: 16), validation: nil, options: options())
      .classifier
    let tuned = try Trainer.train(
      training: toySet(count: 16, seed: 9), validation: nil, options: options(freeze: 2),
      initial: base
    ).classifier
    #expect(tuned.normalisation == base.normalisation)
    let before = base.network.namedParameters
    let after = tuned.network.namedParameters
    for name in ["conv1.weight", "conv1.bias", "conv2.weight", "conv2.bias"] {
      #expect(after[name] == before[name], "\(name) is frozen")
    }
    for name in ["conv3.weight", "fc.weight"] {
      #expect(after[name] != before[name], "\(name) trains")
    }
  }

  @Test("other labels get a new head; the body starts from the base model")
  func newHead() throws {
    let base = try Trainer.train(training: toySet(count: 16), validation: nil, options: options())
      .classifier
    var three = ImageSet(
      size: PixelSize(width: 16, height: 16), labelNames: ["calm", "happy", "scary"])
    let toy = toySet(count: 12, seed: 3)
    for i in 0..<toy.count {
      let pixels = Array(toy.image(i))
      three.append(RGBImage(width: 16, height: 16, pixels: pixels), label: i % 3, path: "t\(i)")
    }
    let tuned = try Trainer.train(
      training: three, validation: nil, options: options(freeze: 3), initial: base
    ).classifier
    #expect(tuned.labelNames == ["calm", "happy", "scary"])
    #expect(tuned.network.namedParameters["fc.weight"]?.shape == [3, 64])
    #expect(
      tuned.network.namedParameters["conv3.weight"] == base.network.namedParameters["conv3.weight"])
  }

  @Test("freezing every layer, or images of another size, are refused")
  func refusals() throws {
    let base = try Trainer.train(training: toySet(count: 8), validation: nil, options: options())
      .classifier
    #expect(throws: ClassifierError.self) {
      try Trainer.train(
        training: toySet(count: 8), validation: nil, options: options(freeze: 4), initial: base)
    }
    #expect(
      throws: ClassifierError.imageSize(
        found: PixelSize(width: 8, height: 8), expected: base.inputSize)
    ) {
      try Trainer.train(
        training: toySet(count: 8, size: 8), validation: nil, options: options(), initial: base)
    }
  }
}
