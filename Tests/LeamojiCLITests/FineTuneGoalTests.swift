import Foundation
import LeamojiCore
import LeamojiTestSupport
import LeamojiVideo
import Testing

/// Issue 12's goal for `train --init`: 60 labelled frames of a look the shipped model has not
/// seen raise its held-out accuracy on that look to at least 90 %.
///
/// The look is a coarse mosaic, as a heavily pixelated retro video shows a scene: every 8x8
/// block of a 64x64 classic scene (where lighting tells the mood) is one flat colour, its mean.
/// The shipped model 2.0 scores about 33 % on these frames (it read the earlier test's
/// "day for night" grade at 80 %: its ImageNet backbone does not mind a darker, bluer picture);
/// fine-tuned on 20 frames per mood, its head free (`--l2-sp 0`), it reads the look (99 % when
/// the test was written).
@Suite("train --init: teaching the shipped model a new look")
struct FineTuneGoalTests {
  /// The mosaic of one frame: each `block` x `block` square becomes its mean colour.
  static func mosaic(_ image: RGBImage, block: Int = 8) -> RGBImage {
    var pixels = image.pixels
    for top in stride(from: 0, to: image.height, by: block) {
      for left in stride(from: 0, to: image.width, by: block) {
        let rows = top..<min(top + block, image.height)
        let columns = left..<min(left + block, image.width)
        for channel in 0..<3 {
          var sum = 0
          for y in rows {
            for x in columns { sum += Int(image.pixels[(y * image.width + x) * 3 + channel]) }
          }
          let mean = UInt8((sum + rows.count * columns.count / 2) / (rows.count * columns.count))
          for y in rows { for x in columns { pixels[(y * image.width + x) * 3 + channel] = mean } }
        }
      }
    }
    return RGBImage(width: image.width, height: image.height, pixels: pixels)
  }

  /// Generated classic scenes as mosaics, in `root/styled/{Training,Testing} Data`.
  static func styledFrames(in root: URL, train: Int, test: Int) throws -> URL {
    let raw = root.appendingPathComponent("raw")
    let made = try CLI.lab([
      "scenes", "dataset", "--set", "classic", "--out", raw.path, "--train-per-class", "\(train)",
      "--test-per-class", "\(test)", "--size", "64", "--seed", "1212",
    ])
    guard made.status == 0 else { throw HarnessError("scenes dataset failed: \(made.stderr)") }
    let styled = root.appendingPathComponent("styled")
    let files = FileManager.default
    for split in ["Training Data", "Testing Data"] {
      for mood in ["Happy", "Neutral", "Scary"] {
        let from = raw.appendingPathComponent(split).appendingPathComponent(mood)
        let to = styled.appendingPathComponent(split).appendingPathComponent(mood)
        try files.createDirectory(at: to, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: from.path) where name.hasSuffix(".png") {
          let image = try ImageCodec.decode(path: from.appendingPathComponent(name).path)
          let png = try ImageCodec.encodePNG(mosaic(image))
          try Data(png).write(to: to.appendingPathComponent(name))
        }
      }
    }
    return styled
  }

  static func accuracy(of model: String, on folder: URL) throws -> Double {
    let result = try CLI.leamoji(["evaluate", folder.path, "--model", model, "--json"])
    guard result.status == 0,
      let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        as? [String: Any], let accuracy = report["accuracy"] as? Double
    else { throw HarnessError("evaluate failed: \(result.stderr)") }
    return accuracy
  }

  @Test("60 mosaic frames lift held-out accuracy on that look from poor to ≥ 90 %")
  func fineTuningGoal() throws {
    let work = try ScratchFolder.url("finetune")
    defer { try? FileManager.default.removeItem(at: work) }
    let styled = try Self.styledFrames(in: work, train: 20, test: 40)
    let shipped = Repository.root.appendingPathComponent("Models/leamoji.safetensors")
    let testing = styled.appendingPathComponent("Testing Data")
    let before = try Self.accuracy(of: shipped.path, on: testing)
    #expect(before <= 0.6, "the shipped model already reads the look: \(before)")

    let tuned = work.appendingPathComponent("tuned.safetensors")
    let trained = try CLI.leamoji([
      "train", styled.appendingPathComponent("Training Data").path, "--init", shipped.path,
      "--epochs", "20", "--batch-size", "8", "--validation-split", "0", "--output",
      tuned.path, "--created", "2026-11-23", "--json",
      // A look the model cannot read at all: the head trains free of the hold that keeps a
      // taught model near the shipped one (--l2-sp 10 moves a logit by about 0.1 at most:
      // 33 % after, as before).
      "--l2-sp", "0",
    ])
    #expect(trained.status == 0, "\(trained.stderr)")
    let lines = trained.stdout.split(separator: "\n")
    #expect(lines.count == 21, "20 epoch lines and the final object")
    let after = try Self.accuracy(of: tuned.path, on: testing)
    print("train --init goal: mosaic held-out accuracy \(before) before, \(after) after")
    #expect(after >= 0.9, "after fine-tuning on 60 frames: \(after)")
  }
}
