import Foundation
import LeamojiTestSupport
import Testing

/// `train --init` on a model of two experts as a parent teaches it: a folder with some of its
/// labels, the primary held near the base's, the card keeping its thresholds, and with `--test`
/// the base and the taught model printed side by side.
@Suite("train --init: teaching")
struct TrainTeachTests {
  @Test("teaching keeps the labels and thresholds, says what it did, and prints before and after")
  func teaches() throws {
    let work = try ScratchFolder.url("train-teach")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = try TrainBackboneTests.folder(in: work)
    let cache = ["--feature-cache", work.appendingPathComponent("cache").path]
    let common = TrainExpertsTests.common + cache
    let primary = work.appendingPathComponent("real.safetensors")
    let secondary = work.appendingPathComponent("generated.safetensors")
    for (file, extra) in [(primary, ["--epochs", "20"]), (secondary, ["--hidden", "4"])] {
      let r = try CLI.lab(["train", data.path] + common + extra + ["--output", file.path])
      #expect(r.status == 0, "\(r.stderr)")
    }
    let base = work.appendingPathComponent("base.safetensors")
    let joined = try CLI.lab(
      ["train", try TrainExpertsTests.domains(in: work).path] + common + [
        "--experts", "\(primary.path),\(secondary.path)", "--epochs", "60", "--learning-rate",
        "0.05", "--scary-threshold", "0.45", "--scary-threshold-high", "0.3", "--version", "2.5",
        "--output", base.path,
      ])
    #expect(joined.status == 0, "\(joined.stderr)")

    // One film's frames: scary ones only, no happy.
    let film = try TrainBackboneTests.folder(
      in: work, name: "film", layout: [("Scary", ["camera", "rocket"])])
    let taught = work.appendingPathComponent("taught.safetensors")
    let r = try CLI.leamoji(
      [
        "train", film.path, "--init", base.path, "--epochs", "3", "--validation-split", "0",
        "--threads", "2", "--test", data.path, "--output", taught.path,
      ] + cache)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("Training a head on 2 images (happy, scary)"), "\(r.stdout)")
    #expect(
      r.stdout.contains(
        "Before and after teaching, on the 4 test images, as analyze labels them (before: scary from p ≥ 0.45; after: scary from p ≥ 0.45):"
      ), "\(r.stdout)")
    #expect(r.stdout.contains("  😀 happy recall: "), "\(r.stdout)")
    #expect(r.stdout.contains("  benign called scary: "), "\(r.stdout)")
    #expect(r.stdout.contains("The gate hands "), "\(r.stdout)")

    let card = try CLI.leamoji(["model", taught.path])
    #expect(card.stdout.contains("Labels:        😀 happy, 😱 scary"), "\(card.stdout)")
    #expect(card.stdout.contains("Scary from:    p(scary) 45.0% (analyze --sensitivity normal"))
    #expect(
      card.stdout.contains(
        "version 2.5; retrained: primary; held near it by L2-SP 10.0; carried: scary_threshold, scary_threshold_high"
      ), "\(card.stdout)")
    #expect(card.stdout.contains("augmentations flip"), "\(card.stdout)")

    // The JSON summary has the same figures.
    let json = try CLI.leamoji(
      [
        "train", film.path, "--init", base.path, "--epochs", "3", "--validation-split", "0",
        "--threads", "2", "--test", data.path, "--output", taught.path, "--overwrite", "--json",
      ] + cache)
    #expect(json.status == 0, "\(json.stderr)")
    let last = try #require(json.stdout.split(separator: "\n").last)
    let summary = try #require(
      try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    let check = try #require(summary["check"] as? [String: Any])
    #expect(check["images"] as? Int == 4)
    let after = try #require(check["after"] as? [String: Any])
    #expect(after["scary_threshold"] as? Double == 0.45 && after["benign"] as? Int == 2)

    // --l2-sp is refused without --init, out of range, and on a model without a head.
    let refused = work.appendingPathComponent("refused.safetensors")
    let cnn = work.appendingPathComponent("cnn.safetensors")
    let small = try CLI.leamoji(
      ["train", data.path, "--epochs", "1", "--validation-split", "0", "--output", cnn.path])
    #expect(small.status == 0, "\(small.stderr)")
    let cases: [([String], String)] = [
      (["train", data.path, "--l2-sp", "3"], "give --init MODEL too"),
      (["train", data.path, "--init", base.path, "--l2-sp=-1"], "--l2-sp must be 0 to 1000"),
      (["train", data.path, "--init", cnn.path, "--l2-sp", "3"], "not a backbone with a head"),
    ]
    for (arguments, message) in cases {
      let r = try CLI.leamoji(arguments + ["--output", refused.path])
      #expect(r.status == 64, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: refused.path))
    }
  }
}
