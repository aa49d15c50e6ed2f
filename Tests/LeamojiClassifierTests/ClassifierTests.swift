import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import Testing

@testable import LeamojiClassifier

@Suite("Classifier")
struct ClassifierTests {
  func smallNetwork(classes: Int = 3, inputShape: [Int] = [3, 8, 8]) throws -> Network {
    try Network(
      specs: LayerSpec.defaultArchitecture(classes: classes, inputChannels: inputShape[0]),
      inputShape: inputShape, seed: 3)
  }

  @Test("labels come with the model's emoji: standard, custom, or ❔")
  func labels() throws {
    let classifier = try Classifier(
      network: smallNetwork(), labelNames: ["calm", "happy", "tense"],
      emoji: Classifier.emojiEntry(adding: ["calm": "🙂"]))
    #expect(classifier.labelNames == ["calm", "happy", "tense"])
    #expect(classifier.labels.map(\.emoji) == ["🙂", "😀", "❔"])
    #expect(classifier.labels[1] == .happy)
    #expect(classifier.labels[2].colour == Label.otherColour)
    // The file's entry decides: a standard name it does not list shows ❔ too.
    let bare = try Classifier(network: smallNetwork(), labelNames: ["happy", "b", "c"], emoji: [:])
    #expect(bare.labels[0].emoji == "❔" && bare.labels[0].colour == Label.happy.colour)
  }

  @Test("the emoji entry of a new model: the standard labels' emoji, custom ones over them")
  func emojiEntry() {
    #expect(Classifier.emojiEntry(adding: [:]) == ["happy": "😀", "neutral": "😐", "scary": "😱"])
    #expect(
      Classifier.emojiEntry(adding: ["happy": "🥳", "angry": "😡"])
        == ["happy": "🥳", "neutral": "😐", "scary": "😱", "angry": "😡"])
  }

  @Test("labels must fit the outputs; the network must take RGB images")
  func validation() throws {
    #expect(throws: ClassifierError.badLabels(reason: "2 labels for 3 network outputs")) {
      try Classifier(network: smallNetwork(), labelNames: ["a", "b"])
    }
    #expect(throws: ClassifierError.self) {
      try Classifier(network: smallNetwork(), labelNames: ["a", "a", "b"])
    }
    #expect(throws: ClassifierError.self) {
      try Classifier(network: smallNetwork(), labelNames: ["a", "", "b"])
    }
    #expect(throws: ClassifierError.notAnImageNetwork(inputShape: [1, 8, 8])) {
      try Classifier(network: smallNetwork(inputShape: [1, 8, 8]), labelNames: ["a", "b", "c"])
    }
  }

  @Test("untrained classifiers: the default architecture at the given size, seeded")
  func untrained() throws {
    let size = PixelSize(width: 16, height: 8)
    let a = try Classifier.untrained(labelNames: ["a", "b"], size: size, seed: 4)
    let b = try Classifier.untrained(labelNames: ["a", "b"], size: size, seed: 4)
    let c = try Classifier.untrained(labelNames: ["a", "b"], size: size, seed: 5)
    #expect(a.inputSize == size && a.network.inputShape == [3, 8, 16])
    #expect(a.network.specs == LayerSpec.defaultArchitecture(classes: 2))
    #expect(a.encoded() == b.encoded() && a.encoded() != c.encoded())
    #expect(a.normalisation == .imageNet)
    #expect(Classifier.defaultThreads >= 1)
  }

  @Test("predictions: probabilities, the most probable label, independent of batch and threads")
  func predictions() throws {
    let classifier = try Classifier.untrained(
      labelNames: ["happy", "neutral", "scary"], size: PixelSize(width: 8, height: 8), seed: 9)
    let images = (0..<70).map { patternImage(kind: $0 % 3, size: 8, seed: UInt64($0)) }
    let all = try classifier.classify(images, threads: 2)
    #expect(all.count == 70)
    for (image, prediction) in zip(images, all).prefix(5) {
      #expect(try classifier.classify([image], threads: 1) == [prediction])
      #expect(abs(prediction.probabilities.reduce(0, +) - 1) < 1e-5)
      #expect(prediction.label == classifier.labels[prediction.classIndex])
      #expect(prediction.confidence == prediction.probabilities.max())
      let softmax = SoftmaxCrossEntropy.softmax(Tensor(shape: [3], data: prediction.logits))
      #expect(softmax.data == prediction.probabilities)
    }
    var set = ImageSet(size: classifier.inputSize, labelNames: classifier.labelNames)
    for image in images { set.append(image, label: 0, path: "") }
    #expect(try classifier.classify(set, threads: 3) == all)
    #expect(try classifier.classify([], threads: 1).isEmpty)
  }

  @Test("images must be the input size")
  func imageSize() throws {
    let classifier = try Classifier.untrained(
      labelNames: ["a", "b"], size: PixelSize(width: 8, height: 8), seed: 1)
    let wrong = RGBImage(width: 8, height: 16)
    #expect(throws: ClassifierError.imageSize(found: wrong.size, expected: classifier.inputSize)) {
      try classifier.classify([RGBImage(width: 8, height: 8), wrong])
    }
    #expect(throws: ClassifierError.self) {
      try classifier.classify(ImageSet(size: wrong.size, labelNames: ["a", "b"]))
    }
    #expect(
      ClassifierError.imageSize(found: wrong.size, expected: classifier.inputSize).description
        == "image is 8x16, the classifier takes 8x8")
  }

  /// Logits of the model shipped until issue 11 (now a fixture) for three patterned images, as the classify command computed
  /// them before the restructuring (`(pixel / 255 - mean) / std`, batches of one). Evaluation
  /// then normalised with `(x - mean) * (1 / std)` and got other last bits for all three
  /// (`41be47db`, `3f1ea632`, `419e2fb5` and `4147ed20`); now every path gives these. The
  /// FMA kernels (issue 11) moved the second image's logits by 11, 1 and 1 units in the last
  /// place (`3f1ea631` → `3f1ea63c`, `c1809f4c` → `c1809f4b`, `41452258` → `41452259`).
  @Test("the shipped model's logits are the classify command's, bit for bit, on every path")
  func pinnedLogits() throws {
    let classifier = try Classifier(contentsOf: Repository.oldModelPath)
    let expected: [[UInt32]] = [
      [0x41be_47da, 0xc20f_1b4f, 0x4135_fb4e],
      [0x3f1e_a63c, 0xc180_9f4b, 0x4145_2259],
      [0x419e_2fb4, 0xc1ff_bf1a, 0x4147_ed1f],
    ]
    let images = (0..<3).map { patternImage(kind: $0, seed: UInt64(100 + $0)) }
    var set = ImageSet(size: classifier.inputSize, labelNames: classifier.labelNames)
    for image in images { set.append(image, label: 0, path: "") }
    let alone = try images.map { try classifier.classify([$0], threads: 1)[0] }
    let together = try classifier.classify(images, threads: 2)
    let fromSet = try classifier.classify(set, threads: 1)
    for predictions in [alone, together, fromSet] {
      #expect(predictions.map { $0.logits.map(\.bitPattern) } == expected)
    }
  }
}
