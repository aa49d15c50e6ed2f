import Foundation
import LeamojiTestSupport
import Testing

@Suite("train's capacity options")
struct TrainCapacityTests {
  @Test(
    "--batch-norm, --widths and --dropout: a version-2 file that records them, reproducible for 1 and 2 threads, and that classify and evaluate load"
  )
  func capacityIsRecordedAndDeterministic() throws {
    let root = try SceneData.root()
    let work = try ScratchFolder.url("capacity")
    defer { try? FileManager.default.removeItem(at: work) }
    func train(threads: Int) throws -> Data {
      let model = work.appendingPathComponent("m\(threads).safetensors")
      let r = try CLI.lab([
        "train", root.appendingPathComponent("Training Data").path, "--epochs", "2",
        "--size", "16", "--widths", "8,12", "--batch-norm", "--dropout", "0.3",
        "--augment", "flip,crop,noise", "--threads", "\(threads)", "--created", "2026-11-23",
        "--output", model.path,
      ])
      #expect(r.status == 0, "\(r.stderr)")
      return try Data(contentsOf: model)
    }
    let one = try train(threads: 1)
    #expect(try train(threads: 2) == one)
    let text = String(decoding: one, as: UTF8.self)
    #expect(text.contains(#""version":"2""#))
    #expect(text.contains(#""bn2.num_batches_tracked":{"data_offsets""#))
    #expect(text.contains(#"\"p\":0.3,\"type\":\"dropout\""#))
    let model = work.appendingPathComponent("m1.safetensors").path
    let evaluated = try CLI.leamoji([
      "evaluate", root.appendingPathComponent("Testing Data").path, "--model", model,
    ])
    #expect(evaluated.status == 0, "\(evaluated.stderr)")
    #expect(evaluated.stdout.contains("Accuracy"))
  }

  @Test(
    "bad capacity values: one clear line, exit 64",
    arguments: [
      (["--widths", "16,x"], "--widths takes"),
      (["--widths", "16,32", "--depth", "3"], "--depth 3 but --widths gives 2 blocks"),
      (["--depth", "9"], "--depth must be 1 to 5"),
      (["--dropout", "0.95"], "--dropout must be 0 to 0.9"),
      (["--input-size", "100"], "--input-size must be a multiple of 8"),
      (["--batch-norm", "--init", "default"], "not with --init"),
      (["--input-size", "8", "--depth", "4"], "too small for 4 blocks"),
      (["--l2=-1"], "--l2 must be 0 to 1000"),
      (["--l2", "nan"], "--l2 must be 0 to 1000"),
    ])
  func badValues(extra: [String], message: String) throws {
    let root = try SceneData.root()
    let work = try ScratchFolder.url("capacity-bad")
    defer { try? FileManager.default.removeItem(at: work) }
    let r = try CLI.lab(
      ["train", root.appendingPathComponent("Training Data").path, "--epochs", "1"] + extra
        + ["--output", work.appendingPathComponent("m.safetensors").path])
    #expect(r.status == 64)
    // One line says what is wrong (ArgumentParser's usage hint may follow, as for every option).
    let first = r.stderr.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.contains(message), "\(r.stderr)")
  }
}
