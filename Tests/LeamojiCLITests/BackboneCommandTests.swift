import Foundation
import LeamojiTestSupport
import Testing

/// The converted EfficientNet-Lite0 backbone (Models/efficientnet-lite0.safetensors) through the
/// whole `classify` path — PNG decoding, normalisation, the engine — against logits PyTorch
/// computed from the original .pth with an independent implementation (the committed fixture,
/// Fixtures/backbone), and, where PyTorch and the .pth are at hand, against PyTorch itself.
@Suite("EfficientNet-Lite0 backbone")
struct BackboneCommandTests {
  static let repository = Repository.root
  static let model = repository.appendingPathComponent("Models/efficientnet-lite0.safetensors").path
  static let fixtures = repository.appendingPathComponent(
    "Tests/LeamojiCLITests/Fixtures/backbone")

  struct Expected: Decodable {
    let file: String
    let logits: [Float]
    let top1: Int
  }

  /// `classify --json` lines by file name.
  static func classify(_ files: [String], extra: [String] = []) throws -> [String: [String: Any]] {
    let r = try CLI.leamoji(["classify", "--json", "--model", model] + extra + files)
    #expect(r.status == 0, "\(r.stderr)")
    var lines: [String: [String: Any]] = [:]
    for line in r.stdout.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      if let object, let file = object["file"] as? String {
        lines[URL(fileURLWithPath: file).lastPathComponent] = object
      }
    }
    return lines
  }

  static func floats(_ value: Any?) -> [Float] {
    (value as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.floatValue }
  }

  static func argmax(_ v: [Float]) -> Int { v.indices.max { v[$0] < v[$1] } ?? -1 }

  @Test func logitsMatchTheFixture() throws {
    let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("expected-logits.json"))
    let expected = try JSONDecoder().decode([Expected].self, from: data)
    #expect(expected.count >= 4)
    let lines = try Self.classify(
      expected.map { Self.fixtures.appendingPathComponent($0.file).path })
    for e in expected {
      let logits = Self.floats(lines[e.file]?["logits"])
      #expect(logits.count == 1000, "\(e.file)")
      guard logits.count == e.logits.count else { continue }
      let worst = zip(logits, e.logits).map { abs($0 - $1) }.max() ?? .infinity
      #expect(worst <= 1e-3, "\(e.file): largest difference \(worst)")
      #expect(Self.argmax(logits) == e.top1, "\(e.file)")
    }
  }

  /// The pooled features are the 1280 numbers the 1000-way layer receives: that layer's
  /// weights applied to them give the logits.
  @Test func featuresGiveTheLogitsThroughTheLastLayer() throws {
    let file = Self.fixtures.appendingPathComponent("chelsea.png").path
    let line = try #require(try Self.classify([file], extra: ["--features"])["chelsea.png"])
    let features = Self.floats(line["features"])
    let logits = Self.floats(line["logits"])
    #expect(features.count == 1280)
    #expect(features.allSatisfy { $0 >= 0 && $0 <= 6 }, "ReLU6 then average pooling")
    let (weight, bias) = try Self.lastLayer()
    var worst: Float = 0
    for o in 0..<1000 {
      var z = bias[o]
      for i in 0..<1280 { z += weight[o * 1280 + i] * features[i] }
      worst = max(worst, abs(z - logits[o]))
    }
    #expect(worst < 1e-3)
  }

  /// `fc.weight` and `fc.bias` read straight from the safetensors container.
  static func lastLayer() throws -> ([Float], [Float]) {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: model))
    let length = bytes.prefix(8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    let header = try #require(
      try JSONSerialization.jsonObject(with: bytes.subdata(in: 8..<(8 + length))) as? [String: Any])
    func tensor(_ name: String) throws -> [Float] {
      let entry = try #require(header[name] as? [String: Any])
      let offsets = try #require(entry["data_offsets"] as? [Int])
      let raw = bytes.subdata(in: (8 + length + offsets[0])..<(8 + length + offsets[1]))
      return raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }
    return (try tensor("fc.weight"), try tensor("fc.bias"))
  }

  /// The same frames through PyTorch running the original .pth (scripts/efficientnet_reference.py)
  /// when a Python with torch ($LEAMOJI_TORCH_PYTHON, default python3) and the .pth
  /// ($LEAMOJI_BACKBONE_PTH, default .build/weights/efficientnet-lite0-57934424.pth, fetched by
  /// Lab/scripts/convert-efficientnet-lite0.sh) are at hand; skipped otherwise.
  @Test func logitsMatchPyTorch() throws {
    let env = ProcessInfo.processInfo.environment
    let python = env["LEAMOJI_TORCH_PYTHON"] ?? "python3"
    let pth =
      env["LEAMOJI_BACKBONE_PTH"]
      ?? Self.repository.appendingPathComponent(".build/weights/efficientnet-lite0-57934424.pth")
      .path
    guard FileManager.default.fileExists(atPath: pth),
      (try? ProcessRunner.run(python, ["-c", "import torch, PIL"]))?.status == 0
    else {
      print("note: PyTorch comparison skipped (no \(python) with torch and Pillow, or no \(pth))")
      return
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path)
      .filter { $0.hasSuffix(".png") }.sorted().map {
        Self.fixtures.appendingPathComponent($0).path
      }
    let script = Self.repository.appendingPathComponent("scripts/efficientnet_reference.py").path
    let r = try ProcessRunner.run(python, [script, "--pth", pth, "--png"] + files, timeout: 600)
    #expect(r.status == 0, "\(r.stderr)")
    let reference = try #require(
      try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    let ours = try Self.classify(files)
    for entry in reference {
      let name = URL(fileURLWithPath: entry["file"] as? String ?? "").lastPathComponent
      let theirs = Self.floats(entry["logits"])
      let mine = Self.floats(ours[name]?["logits"])
      #expect(mine.count == theirs.count && !mine.isEmpty, "\(name)")
      let worst = zip(mine, theirs).map { abs($0 - $1) }.max() ?? .infinity
      #expect(worst <= 1e-3, "\(name): largest difference \(worst)")
      #expect(Self.argmax(mine) == Self.argmax(theirs), "\(name)")
    }
  }
}
