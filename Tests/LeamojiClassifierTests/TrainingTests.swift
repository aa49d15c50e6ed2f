import Foundation
import LeamojiClassifier
import LeamojiCore
import LeamojiNN
import Testing

/// A small learnable set: bright warm images are "happy", dark cold ones "scary", with noise.
func toySet(count: Int, size: Int = 16, seed: UInt64 = 7) -> ImageSet {
  var rng = SplitMix64(seed: seed)
  var set = ImageSet(size: PixelSize(width: size, height: size), labelNames: ["happy", "scary"])
  for i in 0..<count {
    let label = i % 2
    var image = RGBImage(width: size, height: size)
    for y in 0..<size {
      for x in 0..<size {
        let n = Int(rng.next() % 60)
        image[x, y] = label == 0
          ? RGB(UInt8(180 + n), UInt8(150 + n), UInt8(60 + n / 2))
          : RGB(UInt8(10 + n / 2), UInt8(20 + n / 2), UInt8(50 + n))
      }
    }
    set.append(image, label: label, path: "toy-\(i).png")
  }
  return set
}

@Suite("Training loop")
struct TrainingTests {
  @Test("the same data, options and seed give a byte-identical model with 1 and 2 threads")
  func deterministic() throws {
    let set = toySet(count: 24)
    var options = TrainingOptions()
    options.epochs = 2
    options.batchSize = 8
    options.augment = [.flip, .crop, .exposure, .noise]
    options.threads = 1
    let (training, validation) = Trainer.split(set, validationFraction: 0.25, seed: options.seed)
    let one = try Trainer.train(training: training, validation: validation, options: options, emoji: Model.standardEmoji)
    options.threads = 2
    let two = try Trainer.train(training: training, validation: validation, options: options, emoji: Model.standardEmoji)
    #expect(one.model.encoded() == two.model.encoded())
    options.seed = 43
    let other = try Trainer.train(training: training, validation: validation, options: options, emoji: Model.standardEmoji)
    #expect(other.model.encoded() != one.model.encoded())
  }

  @Test("learns an easy two-class problem and keeps the best validation epoch")
  func learns() throws {
    let set = toySet(count: 40)
    var options = TrainingOptions()
    options.epochs = 4
    options.batchSize = 8
    let (training, validation) = Trainer.split(set, validationFraction: 0.25, seed: 1)
    var seen: [EpochReport] = []
    let result = try Trainer.train(
      training: training, validation: validation, options: options, emoji: Model.standardEmoji,
      onEpoch: { seen.append($0) })
    #expect(seen.count == 4)
    let best = try #require(seen.filter(\.isBest).last)
    #expect(result.bestEpoch == best.epoch)
    #expect((best.validationAccuracy ?? 0) == seen.compactMap(\.validationAccuracy).max())
    let (matrix, _) = try Evaluation.confusionMatrix(of: result.model, on: toySet(count: 20, seed: 99))
    #expect(matrix.accuracy >= 0.9)
    #expect(result.model.labels == ["happy", "scary"])
  }

  @Test("the validation split is stratified, disjoint and reproducible")
  func split() {
    let set = toySet(count: 40)
    let (a, b) = Trainer.split(set, validationFraction: 0.1, seed: 5)
    #expect(a.count + b.count == 40)
    #expect(b.labels.filter { $0 == 0 }.count == 2 && b.labels.filter { $0 == 1 }.count == 2)
    #expect(Set(a.paths).isDisjoint(with: b.paths))
    let (c, d) = Trainer.split(set, validationFraction: 0.1, seed: 5)
    #expect(a.paths == c.paths && b.paths == d.paths)
  }
}

@Suite("Augmentation and batches")
struct AugmentationTests {
  @Test("parses lists, rejects unknown names")
  func parsing() {
    #expect(Augmentation(parsing: "flip,crop") == [.flip, .crop])
    #expect(Augmentation(parsing: "none") == [])
    #expect(Augmentation(parsing: "flip, noise ,EXPOSURE") == [.flip, .noise, .exposure])
    #expect(Augmentation(parsing: "flip,rotate") == nil)
    #expect(Augmentation(parsing: "crop,flip")?.description == "flip,crop")
  }

  @Test("batches normalise per channel; augmentation depends on the seed only")
  func batches() {
    var set = ImageSet(size: PixelSize(width: 4, height: 4), labelNames: ["a", "b"])
    set.append(RGBImage(width: 4, height: 4, fill: RGB(255, 0, 51)), label: 0, path: "x")
    let maker = BatchMaker(width: 4, height: 4, mean: [0.5, 0.5, 0.5], std: [0.5, 0.25, 0.1])
    let plain = maker.batch(from: set, indices: [0])
    #expect(plain.shape == [1, 3, 4, 4])
    #expect(abs(plain.data[0] - 1) < 1e-6)  // (1 - 0.5) / 0.5
    #expect(abs(plain.data[16] + 2) < 1e-6)  // (0 - 0.5) / 0.25
    #expect(abs(plain.data[32] + 3) < 1e-5)  // (0.2 - 0.5) / 0.1
    let all: Augmentation = [.flip, .crop, .exposure, .noise]
    let a = maker.batch(from: set, indices: [0], augment: all, seed: 9)
    let b = maker.batch(from: set, indices: [0], augment: all, seed: 9)
    let c = maker.batch(from: set, indices: [0], augment: all, seed: 10)
    #expect(a == b)
    #expect(a != c)
  }
}

@Suite("Confusion matrix")
struct ConfusionMatrixTests {
  @Test("accuracy, precision and recall from counts")
  func measures() {
    var m = ConfusionMatrix(labels: ["happy", "neutral", "scary"])
    for (t, p) in [(0, 0), (0, 0), (0, 2), (1, 1), (2, 2), (2, 0)] { m.add(truth: t, prediction: p) }
    #expect(m.total == 6)
    #expect(abs(m.accuracy - 4.0 / 6.0) < 1e-12)
    #expect(m.precision(0) == 2.0 / 3.0)
    #expect(m.recall(0) == 2.0 / 3.0)
    #expect(m.precision(1) == 1 && m.recall(1) == 1)
    #expect(m.recall(2) == 0.5)
    var empty = ConfusionMatrix(labels: ["a", "b"])
    #expect(empty.precision(0) == nil && empty.recall(1) == nil && empty.accuracy == 0)
    empty.add(truth: 1, prediction: 1)
    #expect(empty.rendered().count == 4)
  }
}
