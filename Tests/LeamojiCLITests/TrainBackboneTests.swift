import Foundation
import LeamojiTestSupport
import Testing

/// `train --backbone`: a head on EfficientNet-Lite0's features, written as one model file that
/// the other commands load, trained further with `--init`, its features cached.
@Suite("train --backbone")
struct TrainBackboneTests {
  /// Two labels of two committed frames each (Fixtures/backbone), in `work/name`.
  static func folder(
    in work: URL, name: String = "data",
    layout: [(String, [String])] = [
      ("Happy", ["chelsea", "coffee"]), ("Scary", ["camera", "rocket"]),
    ]
  ) throws -> URL {
    let data = work.appendingPathComponent(name)
    for (label, files) in layout {
      let dir = data.appendingPathComponent(label)
      try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
      for file in files {
        try FileManager.default.copyItem(
          at: BackboneCommandTests.fixtures.appendingPathComponent(file + ".png"),
          to: dir.appendingPathComponent(file + ".png"))
      }
    }
    return data
  }

  @Test(
    "a head on the backbone: one model file that classify and model read, features cached, --init trains the head on"
  )
  func trainsAHead() throws {
    let work = try ScratchFolder.url("train-backbone")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = try Self.folder(in: work)
    let cache = work.appendingPathComponent("cache")
    let model = work.appendingPathComponent("head.safetensors")
    let common = [
      "--augment", "none", "--validation-split", "0", "--feature-cache", cache.path,
      "--created", "2026-11-25", "--threads", "2",
    ]
    let r = try CLI.lab(
      ["train", data.path, "--backbone", "efficientnet-lite0", "--epochs", "20", "--hidden", "8"]
        + common + ["--output", model.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Training a head on 4 images (happy, scary)"))
    // Four images, one cache entry each, in the backbone's folder.
    let entries = try FileManager.default.subpathsOfDirectory(atPath: cache.path)
      .filter { $0.hasSuffix(".f32") }
    #expect(entries.count == 4)

    let card = try CLI.leamoji(["model", model.path])
    #expect(card.status == 0, "\(card.stderr)")
    #expect(card.stdout.contains("Backbone:      efficientnet-lite0.safetensors sha256:8456245b"))
    #expect(card.stdout.contains("head with 8 hidden units"))
    #expect(card.stdout.contains("3x224x224"))

    let classified = try CLI.leamoji(
      ["classify", data.appendingPathComponent("Happy/chelsea.png").path, "--model", model.path])
    #expect(classified.status == 0, "\(classified.stderr)")
    #expect(classified.stdout.contains("happy"), "\(classified.stdout)")

    // --init on the head model: its backbone and head, trained on; the same bytes twice.
    let tuned = (1...2).map { work.appendingPathComponent("tuned\($0).safetensors") }
    for file in tuned {
      let again = try CLI.leamoji(
        ["train", data.path, "--init", model.path, "--epochs", "2"] + common + [
          "--output", file.path,
        ])
      #expect(again.status == 0, "\(again.stderr)")
    }
    #expect(try Data(contentsOf: tuned[0]) == Data(contentsOf: tuned[1]))
    // Its features come from its own layers up to the head (which a --fine-tune run may have
    // changed), so they are cached under those layers' digest, not the backbone file's; a
    // model taught from it has the same layers, and shares them.
    let folders = Set(try FileManager.default.contentsOfDirectory(atPath: cache.path))
    #expect(folders.count == 2 && folders.contains { $0.hasPrefix("8456245b") }, "\(folders)")
    let third = work.appendingPathComponent("tuned3.safetensors")
    let onTaught = try CLI.leamoji(
      ["train", data.path, "--init", tuned[0].path, "--epochs", "1"] + common + [
        "--output", third.path,
      ])
    #expect(onTaught.status == 0, "\(onTaught.stderr)")
    #expect(Set(try FileManager.default.contentsOfDirectory(atPath: cache.path)) == folders)
    let tunedCard = try CLI.leamoji(["model", tuned[0].path])
    #expect(tunedCard.stdout.contains("Fine-tuned:    from head.safetensors"))
    #expect(tunedCard.stdout.contains("head with 8 hidden units"))
  }

  @Test("--l2 keeps the head small (less sure of its own training images) and the card says so")
  func l2Penalty() throws {
    let work = try ScratchFolder.url("train-backbone-l2")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = try Self.folder(in: work)
    let image = data.appendingPathComponent("Happy/chelsea.png").path
    var confidence: [String: Double] = [:]
    for l2 in ["0", "10"] {
      let model = work.appendingPathComponent("l2-\(l2).safetensors")
      let r = try CLI.lab(
        [
          "train", data.path, "--backbone", "efficientnet-lite0", "--epochs", "30", "--l2", l2,
          "--augment", "none", "--validation-split", "0", "--threads", "2", "--feature-cache",
          work.appendingPathComponent("cache").path, "--output", model.path,
        ])
      #expect(r.status == 0, "\(r.stderr)")
      let card = try CLI.leamoji(["model", model.path])
      #expect(card.stdout.contains("L2 penalty 10.0") == (l2 == "10"), "\(card.stdout)")
      let classified = try CLI.leamoji(["classify", "--json", image, "--model", model.path])
      let row = try #require(
        try JSONSerialization.jsonObject(with: Data(classified.stdout.utf8)) as? [String: Any])
      confidence[l2] = (row["probabilities"] as? [String: Double])?["happy"]
    }
    let free = try #require(confidence["0"])
    let penalised = try #require(confidence["10"])
    #expect(free > 0.9, "without a penalty the head fits its four images")
    #expect(penalised > 0.5 && penalised < free - 0.1, "\(penalised) against \(free)")
  }

  @Test(
    "options that do not fit a backbone: one clear line",
    arguments: [
      (
        ["--backbone", "efficientnet-lite0", "--widths", "8,16"],
        "shape the CNN: not with --backbone"
      ),
      (
        ["--backbone", "efficientnet-lite0", "--augment", "flip,crop"],
        "the only augmentation is flip"
      ),
      (["--backbone", "efficientnet-lite0", "--init", "default"], "not with --init"),
      (["--hidden", "16"], "give --backbone too"),
      (["--balance"], "give --backbone too"),
      (["--fine-tune", "2"], "give --backbone too"),
    ])
  func badOptions(extra: [String], message: String) throws {
    let work = try ScratchFolder.url("train-backbone-bad")
    defer { try? FileManager.default.removeItem(at: work) }
    let r = try CLI.lab(
      ["train", work.path] + extra + [
        "--output", work.appendingPathComponent("m.safetensors").path,
      ])
    #expect(r.status == 64)
    let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.contains(message), "\(r.stderr)")
  }

  @Test("a file that is not an image is skipped with one warning; the others train")
  func brokenImageIsSkipped() throws {
    let work = try ScratchFolder.url("train-backbone-broken")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = try Self.folder(in: work)
    try Data("\u{89}PNG\r\n\u{1A}\nnot really".utf8).write(
      to: data.appendingPathComponent("Happy/broken.png"))
    let model = work.appendingPathComponent("m.safetensors")
    let r = try CLI.leamoji([
      "train", data.path, "--backbone", "efficientnet-lite0", "--epochs", "1", "--augment",
      "none", "--validation-split", "0", "--feature-cache", "none", "--output", model.path,
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("skipped 1 unreadable file(s)"), "\(r.stderr)")
    #expect(r.stdout.contains("Training a head on 4 images"))
    #expect(FileManager.default.fileExists(atPath: model.path))
  }

  @Test("a model that is not a backbone is refused with its name")
  func notABackbone() throws {
    let work = try ScratchFolder.url("train-backbone-not")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = try Self.folder(in: work)
    let cnn = BackboneCommandTests.repository.appendingPathComponent(
      "Tests/LeamojiClassifierTests/Fixtures/leamoji-1.2.safetensors")
    let r = try CLI.leamoji([
      "train", data.path, "--backbone", cnn.path, "--output",
      work.appendingPathComponent("m.safetensors").path,
    ])
    #expect(r.status == 65)
    #expect(r.stderr.contains("leamoji-1.2.safetensors: not a pretrained backbone"), "\(r.stderr)")
    #expect(
      !FileManager.default.fileExists(atPath: work.appendingPathComponent("m.safetensors").path))
  }
}
