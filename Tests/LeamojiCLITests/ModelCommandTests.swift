import Foundation
import LeamojiTestSupport
import Testing

/// Generated data sets are shared by the tests in this file (making them takes a few seconds).
enum SceneData {
  /// A tiny generated data set (16x16 scenes) in a temporary folder, removed at exit.
  static let folder: Result<URL, HarnessError> = {
    do {
      let root = try ScratchFolder.removedAtExit("scenes")
      let made = try CLI.lab(
        [
          "scenes", "dataset", "--out", root.path, "--train-per-class", "24", "--test-per-class",
          "8", "--size", "16",
        ])
      guard made.status == 0 else {
        return .failure(HarnessError("scenes dataset failed: \(made.stderr)"))
      }
      return .success(root)
    } catch {
      return .failure(HarnessError("\(error)"))
    }
  }()

  static func root() throws -> URL { try folder.get() }
}

@Suite("leamoji train, evaluate, classify")
struct ModelCommandTests {
  func train(_ root: URL, threads: Int, output: URL) throws -> ProcessResult {
    try CLI.lab([
      "train", root.appendingPathComponent("Training Data").path, "--test",
      root.appendingPathComponent("Testing Data").path,
      "--epochs", "2", "--size", "16", "--batch-size", "16", "--threads", "\(threads)", "--output",
      output.path, "--created", "2026-11-23T12:00:00Z",
    ])
  }

  @Test("train writes a byte-identical model with 1 and 2 threads; evaluate and classify read it")
  func trainEvaluateClassify() throws {
    let root = try SceneData.root()
    let work = try ScratchFolder.url("train")
    defer { try? FileManager.default.removeItem(at: work) }
    let one = work.appendingPathComponent("one.safetensors")
    let two = work.appendingPathComponent("two.safetensors")
    let first = try train(root, threads: 1, output: one)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stdout.contains("epoch   1/2") && first.stdout.contains("epoch   2/2"))
    #expect(first.stdout.contains("Test accuracy") && first.stdout.contains("scary"))
    let second = try train(root, threads: 2, output: two)
    #expect(second.status == 0, "\(second.stderr)")
    #expect(try Data(contentsOf: one) == Data(contentsOf: two))

    let again = try train(root, threads: 1, output: one)
    #expect(again.status == 73, "an existing model is not overwritten without --overwrite")

    let evaluation = try CLI.leamoji([
      "evaluate", root.appendingPathComponent("Testing Data").path, "--model", one.path, "--json",
    ])
    #expect(evaluation.status == 0, "\(evaluation.stderr)")
    let report =
      try JSONSerialization.jsonObject(with: Data(evaluation.stdout.utf8)) as? [String: Any]
    #expect(report?["count"] as? Int == 24)
    #expect((report?["labels"] as? [String]) == ["happy", "neutral", "scary"])

    let image = root.appendingPathComponent("Testing Data/Scary/scary-00000.png").path
    let classified = try CLI.leamoji(["classify", image, "--model", one.path, "--json"])
    #expect(classified.status == 0, "\(classified.stderr)")
    let line =
      try JSONSerialization.jsonObject(with: Data(classified.stdout.utf8)) as? [String: Any]
    #expect(line?["file"] as? String == image)
    let probabilities = try #require(line?["probabilities"] as? [String: Double])
    #expect(Set(probabilities.keys) == ["happy", "neutral", "scary"])
    #expect(abs(probabilities.values.reduce(0, +) - 1) < 1e-4)
    #expect((line?["logits"] as? [Double])?.count == 3)
    #expect(["happy", "neutral", "scary"].contains(line?["label"] as? String ?? ""))
  }

  @Test("bad training folders and model files: one line naming the file, non-zero exit")
  func badInputs() throws {
    let work = try ScratchFolder.url("badmodel")
    defer { try? FileManager.default.removeItem(at: work) }
    let single = work.appendingPathComponent("only-one/Happy")
    try FileManager.default.createDirectory(at: single, withIntermediateDirectories: true)
    try Data("x".utf8).write(to: single.appendingPathComponent("a.png"))
    let tooFew = try CLI.leamoji([
      "train", work.appendingPathComponent("only-one").path, "--output",
      work.appendingPathComponent("m").path,
    ])
    #expect(
      tooFew.status == 65 && tooFew.stderrLines.count == 1 && tooFew.stderr.contains("only-one"))

    let truncated = work.appendingPathComponent("truncated.safetensors")
    try Data([1, 2, 3]).write(to: truncated)
    let garbage = work.appendingPathComponent("garbage.safetensors")
    try Data([200, 0, 0, 0, 0, 0, 0, 0] + Array("{not json".utf8)).write(to: garbage)
    let image = work.appendingPathComponent("only-one/Happy/a.png").path
    for model in [truncated, garbage, work.appendingPathComponent("missing.safetensors")] {
      let result = try CLI.leamoji(["classify", image, "--model", model.path])
      #expect(result.status == 65 || result.status == 66, "\(result.stderr)")
      #expect(
        result.stderrLines.count == 1 && result.stderr.contains(model.lastPathComponent),
        "\(result.stderr)")
      #expect(!result.signalled)
    }
  }
}

@Suite("The shipped model and sample videos")
struct ShippedAssetsTests {
  @Test("sample videos are small, 640x360 or smaller, 20-40 s")
  func sampleVideoLimits() throws {
    let folder = Repository.root.appendingPathComponent("SampleVideos")
    let videos = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
      $0.hasSuffix(".mp4")
    }
    #expect(videos.count >= 2 && videos.count <= 3)
    var total = 0
    for name in videos {
      total += try Data(contentsOf: folder.appendingPathComponent(name)).count
      let truth = folder.appendingPathComponent(
        name.replacingOccurrences(of: ".mp4", with: ".truth.json"))
      let labels =
        (try JSONSerialization.jsonObject(with: Data(contentsOf: truth)) as? [String: Any])?[
          "labels"] as? [String]
      #expect((20...40).contains(labels?.count ?? 0), "\(name)")
    }
    #expect(total <= 3 * 1024 * 1024)
  }
}

/// The shipped model's accuracy goal on the sample videos.
@Suite("The shipped model labels the sample videos")
struct ShippedModelGoalTests {
  @Test(
    "the default model labels the sample videos' seconds like their ground truth",
    arguments: [
      "meadow-storm", "night-walk", "party-cellar",
    ])
  func sampleVideoAgreesWithTruth(name: String) throws {
    let video = Repository.root.appendingPathComponent("SampleVideos/\(name).mp4")
    let truthFile = Repository.root.appendingPathComponent("SampleVideos/\(name).truth.json")
    let truth = try #require(
      (try JSONSerialization.jsonObject(with: Data(contentsOf: truthFile)) as? [String: Any])?[
        "labels"] as? [String])
    let work = try ScratchFolder.url("sample")
    defer { try? FileManager.default.removeItem(at: work) }
    let frames = work.appendingPathComponent("frames")
    let sampled = try CLI.leamoji(["frames", video.path, "--out", frames.path, "--size", "224x224"])
    try #require(sampled.status == 0, "\(sampled.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: frames.path).sorted()
    #expect(files.count == truth.count, "one sample per second of ground truth")
    let classified = try CLI.leamoji(
      ["classify", "--json"] + files.map { frames.appendingPathComponent($0).path })
    try #require(classified.status == 0, "\(classified.stderr)")
    // The model's own rule, as analyze applies it before smoothing: scary from the card's
    // tuned threshold (when it records one), else the most probable label.
    let card = try CLI.leamoji(["model", "--json"])
    let threshold =
      ((try JSONSerialization.jsonObject(with: Data(card.stdout.utf8)) as? [String: Any])?["card"]
      as? [String: Any])?["scary_threshold"] as? Double
    let labels = classified.stdout.split(separator: "\n").compactMap { line -> String? in
      guard let row = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let label = row["label"] as? String
      else { return nil }
      let scary = (row["probabilities"] as? [String: Double])?["scary"] ?? 0
      return threshold.map { scary >= $0 } == true ? "scary" : label
    }
    let agreeing = zip(labels, truth).filter { $0 == $1 }.count
    #expect(labels.count == truth.count)
    #expect(Double(agreeing) >= 0.9 * Double(truth.count), "\(agreeing)/\(truth.count): \(labels)")
  }
}
