import Foundation
import LeamojiTestSupport
import Testing

@Suite("leamoji model and train's card, --json and precision/recall")
struct ModelCardCommandTests {
  @Test("train --json: one line per epoch and a final object; model prints the card it wrote")
  func trainJSONAndModel() throws {
    let root = try SceneData.root()
    let work = try ScratchFolder.url("card")
    defer { try? FileManager.default.removeItem(at: work) }
    let model = work.appendingPathComponent("m.safetensors")
    let trained = try CLI.lab([
      "train", root.appendingPathComponent("Training Data").path, "--test",
      root.appendingPathComponent("Testing Data").path, "--epochs", "2", "--size", "16",
      "--output", model.path, "--author", "Ada", "--description", "tiny test model",
      "--license", "MIT", "--version", "0.9", "--created", "2026-11-23", "--json",
      "--scary-threshold", "0.4", "--scary-threshold-high", "0.3", "--scary-threshold-low", "0.6",
    ])
    #expect(trained.status == 0, "\(trained.stderr)")
    let lines = trained.stdout.split(separator: "\n").map {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(lines.count == 3 && lines.allSatisfy { $0 != nil })
    #expect(lines[0]?["epoch"] as? Int == 1 && lines[1]?["epoch"] as? Int == 2)
    #expect(lines[0]?["training_accuracy"] is Double && lines[0]?["validation_accuracy"] is Double)
    let final = try #require(lines[2])
    #expect(final["scored_on"] as? String == "test")
    let score = try #require(final["score"] as? [String: Any])
    let perClass = try #require(score["perClass"] as? [String: [String: Any]])
    #expect(Set(perClass.keys) == ["happy", "neutral", "scary"])
    let card = try #require(final["card"] as? [String: Any])
    #expect(
      card["author"] as? String == "Ada" && card["created"] as? String == "2026-11-23T00:00:00Z")
    let data = try #require(card["training_data"] as? [String: Any])
    #expect(data["files"] as? Int == 72)
    #expect((card["accuracy"] as? [String: Any])?["test"] is Double)

    let shown = try CLI.leamoji(["model", model.path, "--json"])
    #expect(shown.status == 0, "\(shown.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
    let shownCard = try #require(report["card"] as? [String: Any])
    #expect(
      shownCard["model_version"] as? String == "0.9" && shownCard["license"] as? String == "MIT")
    #expect(report["labels"] as? [String] == ["happy", "neutral", "scary"])
    let text = try CLI.leamoji(["model", model.path])
    #expect(text.status == 0 && text.stdout.contains("Author:        Ada"))
    #expect(text.stdout.contains("Training data: 72 images (happy 24, neutral 24, scary 24)"))
    #expect(
      text.stdout.contains(
        "Scary from:    p(scary) 40.0% (analyze --sensitivity normal; high 30.0%, low 60.0%)"),
      "\(text.stdout)")

    let human = try CLI.lab([
      "train", root.appendingPathComponent("Training Data").path, "--epochs", "1", "--size", "16",
      "--output", work.appendingPathComponent("h.safetensors").path,
    ])
    #expect(human.status == 0, "\(human.stderr)")
    #expect(human.stdout.contains("Per label, on the validation images:"))
    #expect(human.stdout.contains("😱 scary: precision"))
  }

  @Test("a model from before cards (the one shipped until issue 11): model prints what is known")
  func oldModel() throws {
    let shipped = Repository.root.appendingPathComponent(
      "Tests/LeamojiClassifierTests/Fixtures/leamoji-2026-11-22.safetensors")
    let text = try CLI.leamoji(["model", shipped.path])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("Labels:        😀 happy, 😐 neutral, 😱 scary"))
    #expect(text.stdout.contains("Author:        not recorded"))
    #expect(text.stdout.contains("no model card"))
    let json = try CLI.leamoji(["model", shipped.path, "--json"])
    let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    #expect((report?["card"] as? [String: Any])?.isEmpty == true)
    #expect(report?["input"] as? String == "3x64x64")
  }

  @Test("bad model, bad --freeze, bad --created: one line, non-zero exit")
  func refusals() throws {
    let root = try SceneData.root()
    let work = try ScratchFolder.url("cardbad")
    defer { try? FileManager.default.removeItem(at: work) }
    let missing = try CLI.leamoji(["model", work.appendingPathComponent("none.safetensors").path])
    #expect(missing.status == 66 && missing.stderrLines.count == 1)
    let shipped = Repository.root.appendingPathComponent("Models/leamoji.safetensors")
    let data = root.appendingPathComponent("Training Data").path
    let out = work.appendingPathComponent("x.safetensors").path
    for arguments in [
      // The shipped model (2.2) is two experts on a backbone: only the primary's head trains,
      // --freeze has nothing to keep.
      ["train", data, "--init", shipped.path, "--freeze", "5", "--output", out],
      ["train", data, "--freeze", "1", "--output", out],
      ["train", data, "--created", "soon", "--output", out],
      ["train", data, "--init", shipped.path, "--size", "32", "--output", out],
      ["train", data, "--scary-threshold-high", "0.3", "--output", out],
      ["train", data, "--scary-threshold", "0.4", "--scary-threshold-low", "0.3", "--output", out],
    ] {
      let result = try CLI.lab(arguments)
      #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }
}
