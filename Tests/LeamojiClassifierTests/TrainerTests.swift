import Foundation
import LeamojiClassifier
import LeamojiCore
import Testing

@Suite("Trainer")
struct TrainerTests {
  @Test("the same data, options and seed give a byte-identical model with 1 and 2 threads")
  func deterministic() throws {
    let set = toySet(count: 24)
    var options = TrainingOptions()
    options.epochs = 2
    options.batchSize = 8
    options.augment = [.flip, .crop, .exposure, .noise]
    options.threads = 1
    let (training, validation) = Trainer.split(set, validationFraction: 0.25, seed: options.seed)
    let one = try Trainer.train(training: training, validation: validation, options: options)
    options.threads = 2
    let two = try Trainer.train(training: training, validation: validation, options: options)
    #expect(one.classifier.encoded() == two.classifier.encoded())
    options.seed = 43
    let other = try Trainer.train(training: training, validation: validation, options: options)
    #expect(other.classifier.encoded() != one.classifier.encoded())
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
      training: training, validation: validation, options: options,
      onEpoch: { seen.append($0) })
    #expect(seen.count == 4)
    let best = try #require(seen.filter(\.isBest).last)
    #expect(result.bestEpoch == best.epoch)
    #expect((best.validationAccuracy ?? 0) == seen.compactMap(\.validationAccuracy).max())
    let (matrix, _) = try Evaluation.confusionMatrix(
      of: result.classifier, on: toySet(count: 20, seed: 99))
    #expect(matrix.accuracy >= 0.9)
    #expect(result.classifier.labelNames == ["happy", "scary"])
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

  @Test("the trained classifier keeps the measured normalisation and the emoji given")
  func normalisationAndEmoji() throws {
    let set = toySet(count: 8)
    var options = TrainingOptions()
    options.epochs = 1
    options.augment = []
    let result = try Trainer.train(
      training: set, validation: nil, options: options, customEmoji: ["scary": "👻", "calm": "🙂"])
    #expect(result.classifier.normalisation == InputNormalisation.measured(over: set.pixels))
    #expect(result.classifier.labels.map(\.emoji) == ["😀", "👻"])
    #expect(result.classifier.inputSize == set.size)
    #expect(result.bestEpoch == 1 && result.reports.count == 1)
    let file = String(decoding: result.classifier.encoded(), as: UTF8.self)
    #expect(file.contains(#"\"calm\":\"🙂\""#) && file.contains(#"\"neutral\":\"😐\""#))
  }

  @Test("validation images must be the training images' size")
  func validationSize() {
    let training = toySet(count: 4, size: 16)
    let validation = toySet(count: 4, size: 8)
    #expect(throws: ClassifierError.imageSize(found: validation.size, expected: training.size)) {
      try Trainer.train(training: training, validation: validation, options: TrainingOptions())
    }
  }
}
