import Foundation
import LeamojiClassifier
import LeamojiNN
import LeamojiTestSupport
import Testing

@Suite("leamoji-lab card: a model's card set without retraining")
struct CardCommandTests {
  /// What `regenerate-assets.sh` relies on to train the default model once.
  @Test("train with card options = train without them, then leamoji-lab card: the same bytes")
  func sameBytesAsTraining() throws {
    let work = try ScratchFolder.url("lab-card")
    defer { try? FileManager.default.removeItem(at: work) }
    let card = [
      "--scary-threshold", "0.4", "--scary-threshold-high", "0.3", "--scary-threshold-low", "0.6",
      "--evaluation", "real check set: 81.2 % of frightening seconds", "--description",
      "a tiny model", "--version", "2.6",
    ]
    let direct = work.appendingPathComponent("direct.safetensors")
    let plain = work.appendingPathComponent("plain.safetensors")
    let carded = work.appendingPathComponent("carded.safetensors")
    let first = try Lab.train(to: direct, card: card)
    try #require(first.status == 0, "\(first.stderr)")
    let second = try Lab.train(to: plain)
    try #require(second.status == 0, "\(second.stderr)")
    let edited = try Lab.run(["card", plain.path, "--output", carded.path] + card)
    #expect(edited.status == 0 && edited.stderr.isEmpty, "\(edited.stderr)")

    let want = try Data(contentsOf: direct)
    #expect(try Data(contentsOf: carded) == want, "the carded copy is the trained file")
    #expect(try Data(contentsOf: plain) != want, "the card options change the file")
    let read = try Classifier(contentsOf: carded.path).card
    #expect(read.scaryThreshold == 0.4 && read.scaryThresholdLow == 0.6)
    #expect(read.modelVersion == "2.6" && read.trainingData != nil && read.accuracy != nil)
  }

  /// A model taught with `train --init` carries its base's thresholds (`training.carried`);
  /// given any threshold, `train` carries none of the three, and so does the edit.
  @Test("a taught model's carried thresholds: setting one = training with it, the same bytes")
  func carriedThresholds() throws {
    let work = try ScratchFolder.url("lab-card-carried")
    defer { try? FileManager.default.removeItem(at: work) }
    let base = work.appendingPathComponent("base.safetensors")
    let taught = work.appendingPathComponent("taught.safetensors")
    let direct = work.appendingPathComponent("direct.safetensors")
    let carded = work.appendingPathComponent("carded.safetensors")
    let made = try Lab.train(
      to: base,
      card: [
        "--scary-threshold", "0.4", "--scary-threshold-high", "0.3", "--scary-threshold-low", "0.6",
      ])
    try #require(made.status == 0, "\(made.stderr)")
    let carry = try Lab.train(to: taught, card: ["--init", base.path])
    try #require(carry.status == 0, "\(carry.stderr)")
    let carried = try Classifier(contentsOf: taught.path).card
    try #require(carried.training?.carried?.contains("scary_threshold_low") == true)
    let given = try Lab.train(to: direct, card: ["--init", base.path, "--scary-threshold", "0.35"])
    try #require(given.status == 0, "\(given.stderr)")
    let edited = try Lab.run(
      ["card", taught.path, "--output", carded.path, "--scary-threshold", "0.35"])
    #expect(edited.status == 0, "\(edited.stderr)")
    #expect(try Data(contentsOf: carded) == Data(contentsOf: direct))
    let read = try Classifier(contentsOf: carded.path).card
    #expect(read.scaryThreshold == 0.35 && read.scaryThresholdHigh == nil)
    #expect(read.training?.carried == nil)
  }

  @Test(
    "only the card changes: tensors and other entries are the file's own; no options: no change")
  func tensorsUntouched() throws {
    let work = try ScratchFolder.url("lab-card-tensors")
    defer { try? FileManager.default.removeItem(at: work) }
    let model = Repository.cnnModelPath
    let same = work.appendingPathComponent("same.safetensors")
    #expect(try Lab.run(["card", model, "--output", same.path]).status == 0)
    #expect(try Data(contentsOf: same) == Data(contentsOf: URL(fileURLWithPath: model)))

    let edited = work.appendingPathComponent("edited.safetensors")
    let run = try Lab.run([
      "card", model, "--output", edited.path, "--author", "Ada", "--created", "2027-01-02",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    let before = try SafetensorsFile.decode(
      [UInt8](Data(contentsOf: URL(fileURLWithPath: model))), path: model)
    let after = try SafetensorsFile.decode([UInt8](Data(contentsOf: edited)), path: edited.path)
    #expect(after.tensors == before.tensors && after.integerTensors == before.integerTensors)
    var expected = before.metadata
    expected["author"] = "Ada"
    expected["created"] = "2027-01-02T00:00:00Z"
    #expect(after.metadata == expected)
  }

  @Test("bad options, thresholds out of order, missing and damaged models: one line, the status")
  func refusals() throws {
    let work = try ScratchFolder.url("lab-card-bad")
    defer { try? FileManager.default.removeItem(at: work) }
    let model = Repository.cnnModelPath
    let out = work.appendingPathComponent("out.safetensors").path
    let damaged = work.appendingPathComponent("damaged.safetensors")
    try Data("not a model".utf8).write(to: damaged)
    let cases: [([String], Int32, String)] = [
      (["--scary-threshold", "1.2"], 64, "--scary-threshold takes a probability between 0 and 1"),
      (["--scary-threshold", "0"], 64, "--scary-threshold takes a probability between 0 and 1"),
      (["--scary-threshold-low", "1.5"], 64, "--scary-threshold-low takes a probability"),
      (["--created", "soon"], 64, "--created takes an ISO 8601 date"),
      (["--scary-threshold-high", "0.3"], 64, "go with --scary-threshold"),
      (["--scary-threshold", "0.4", "--scary-threshold-low", "0.3"], 64, "in that order"),
    ]
    for (options, status, words) in cases {
      let result = try Lab.run(["card", model, "--output", out] + options)
      #expect(result.status == status, "\(options): \(result.status) \(result.stderr)")
      #expect(result.stderrLines.count == 1 && result.stderr.contains(words), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    let missing = try Lab.run(["card", work.appendingPathComponent("none").path, "--output", out])
    #expect(
      missing.status == 66
        && missing.stderrLines == ["leamoji-lab: \(work.path)/none: no such file"])
    let bad = try Lab.run(["card", damaged.path, "--output", out])
    #expect(bad.status == 65 && bad.stderrLines.count == 1 && bad.stderr.contains(damaged.path))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test("an existing output is kept without --overwrite and replaced with it")
  func overwrite() throws {
    let work = try ScratchFolder.url("lab-card-overwrite")
    defer { try? FileManager.default.removeItem(at: work) }
    let out = work.appendingPathComponent("out.safetensors")
    try Data("mine".utf8).write(to: out)
    let kept = try Lab.run(["card", Repository.cnnModelPath, "--output", out.path])
    #expect(kept.status == 73 && kept.stderrLines.count == 1 && kept.stderr.contains("--overwrite"))
    #expect(try Data(contentsOf: out) == Data("mine".utf8))
    let replaced = try Lab.run([
      "card", Repository.cnnModelPath, "--output", out.path, "--overwrite", "--license", "MIT",
    ])
    #expect(replaced.status == 0, "\(replaced.stderr)")
    #expect(try Classifier(contentsOf: out.path).card.license == "MIT")
    // In place: the model file itself, edited again.
    let again = try Lab.run([
      "card", out.path, "--output", out.path, "--overwrite", "--version", "9",
    ])
    #expect(again.status == 0, "\(again.stderr)")
    let card = try Classifier(contentsOf: out.path).card
    #expect(card.license == "MIT" && card.modelVersion == "9")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: work.path)
    #expect(leftovers == ["out.safetensors"], "no temporary file is left: \(leftovers)")
  }
}
