import Foundation
import LeamojiTestSupport
import Testing

/// `train --experts`: two heads on one backbone joined by a gate trained on Primary/ and
/// Secondary/ pictures; each picture answered by its expert; `--init` trains the primary.
@Suite("train --experts")
struct TrainExpertsTests {
  static let common = [
    "--backbone", "efficientnet-lite0", "--augment", "none", "--validation-split", "0",
    "--threads", "2", "--created", "2026-11-27",
  ]

  /// Primary/ (chelsea, camera) and Secondary/ (coffee, rocket): the gate's folder.
  static func domains(in work: URL) throws -> URL {
    try TrainBackboneTests.folder(
      in: work, name: "domains",
      layout: [("Primary", ["chelsea", "camera"]), ("Secondary", ["coffee", "rocket"])])
  }

  static func probabilities(_ image: String, model: URL) throws -> [String: Double] {
    let r = try CLI.leamoji(["classify", "--json", image, "--model", model.path])
    #expect(r.status == 0, "\(r.stderr)")
    let row = try #require(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    return try #require(row["probabilities"] as? [String: Double])
  }

  static func close(_ a: [String: Double], _ b: [String: Double]) -> Bool {
    a.keys == b.keys && a.allSatisfy { abs($0.value - b[$0.key]!) <= 0.002 }
  }

  @Test("the joined model answers each picture as its expert does; --init trains the primary only")
  func joinsTwoHeads() throws {
    let work = try ScratchFolder.url("train-experts")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = try TrainBackboneTests.folder(in: work)
    let cache = ["--feature-cache", work.appendingPathComponent("cache").path]
    let primary = work.appendingPathComponent("real.safetensors")
    let secondary = work.appendingPathComponent("generated.safetensors")
    for (file, extra) in [
      (primary, ["--epochs", "20"]), (secondary, ["--epochs", "30", "--hidden", "4"]),
    ] {
      let r = try CLI.lab(
        ["train", data.path] + Self.common + cache + extra + ["--output", file.path])
      #expect(r.status == 0, "\(r.stderr)")
    }
    let both = work.appendingPathComponent("both.safetensors")
    let joined = try CLI.lab(
      ["train", try Self.domains(in: work).path] + Self.common + cache + [
        "--experts", "\(primary.path),\(secondary.path)", "--epochs", "60", "--learning-rate",
        "0.05", "--output", both.path,
      ])
    #expect(joined.status == 0, "\(joined.stderr)")
    let card = try CLI.leamoji(["model", both.path])
    #expect(card.stdout.contains("Labels:        😀 happy, 😱 scary"), "\(card.stdout)")
    #expect(card.stdout.contains("Experts:       primary real.safetensors sha256:"))
    #expect(card.stdout.contains("secondary generated.safetensors sha256:"))

    let image = { (label: String, name: String) in
      data.appendingPathComponent("\(label)/\(name).png").path
    }
    let chelsea = image("Happy", "chelsea")
    let coffee = image("Happy", "coffee")
    #expect(
      Self.close(
        try Self.probabilities(chelsea, model: both),
        try Self.probabilities(chelsea, model: primary)))
    #expect(
      Self.close(
        try Self.probabilities(coffee, model: both),
        try Self.probabilities(coffee, model: secondary)))

    // --init trains the primary expert on (not held: --l2-sp 0, so that it visibly moves;
    // TrainTeachTests has the hold): the secondary's pictures answer as before.
    let tuned = work.appendingPathComponent("tuned.safetensors")
    let again = try CLI.leamoji(
      [
        "train", data.path, "--init", both.path, "--epochs", "5", "--augment", "none",
        "--validation-split", "0", "--threads", "2", "--learning-rate", "0.05", "--l2-sp", "0",
        "--output", tuned.path,
      ]
        + cache)
    #expect(again.status == 0, "\(again.stderr)")
    let tunedCard = try CLI.leamoji(["model", tuned.path])
    #expect(
      tunedCard.stdout.contains("Fine-tuned:    from both.safetensors"), "\(tunedCard.stdout)")
    #expect(tunedCard.stdout.contains("Experts:       primary real.safetensors"))
    #expect(
      Self.close(
        try Self.probabilities(coffee, model: tuned), try Self.probabilities(coffee, model: both)))
    #expect(
      !Self.close(
        try Self.probabilities(chelsea, model: tuned), try Self.probabilities(chelsea, model: both))
    )

    // Other labels than the model's: a new head on its backbone, no experts any more.
    let angry = try TrainBackboneTests.folder(
      in: work, name: "angry",
      layout: [("Happy", ["chelsea", "coffee"]), ("Angry", ["camera", "rocket"])])
    let relabelled = work.appendingPathComponent("angry.safetensors")
    let other = try CLI.leamoji(
      [
        "train", angry.path, "--init", both.path, "--epochs", "2", "--augment", "none",
        "--validation-split", "0", "--threads", "2", "--output", relabelled.path,
      ] + cache)
    #expect(other.status == 0, "\(other.stderr)")
    let otherCard = try CLI.leamoji(["model", relabelled.path])
    #expect(otherCard.stdout.contains("angry") && !otherCard.stdout.contains("Experts:"))

    // Refusals: one clear line each, nothing written.
    let refused = work.appendingPathComponent("refused.safetensors")
    let cases: [([String], Int32, String)] = [
      (
        ["train", data.path] + Self.common + ["--experts", "\(primary.path),\(secondary.path)"], 65,
        "two folders, Primary"
      ),
      (
        ["train", try Self.domains(in: work.appendingPathComponent("d2")).path] + Self.common + [
          "--experts", "\(secondary.path),\(primary.path)",
        ], 65, "primary expert must be a linear head"
      ),
      (["train", data.path] + Self.common + ["--experts", primary.path], 64, "two model files"),
      (
        ["train", data.path] + Self.common + [
          "--experts", "\(primary.path),\(secondary.path)", "--hidden", "4",
        ], 64, "the gate is a linear head"
      ),
      (
        ["train", data.path, "--experts", "\(primary.path),\(secondary.path)"], 64,
        "needs --backbone"
      ),
      (["train", data.path, "--init", both.path, "--fine-tune", "1"], 64, "primary head only"),
    ]
    for (arguments, status, message) in cases {
      let r = try CLI.lab(arguments + cache + ["--output", refused.path])
      #expect(r.status == status, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: refused.path))
    }
  }
}
