import Foundation
import LeamojiTestSupport
import Testing

/// A hostile image dropped into a training folder, and whether it can be used.
struct HostileImage: Sendable, CustomTestStringConvertible {
  let name: String
  let usable: Bool
  let bytes: @Sendable (_ goodPNG: Data) -> Data

  var testDescription: String { name }

  static let all: [HostileImage] = [
    HostileImage(name: "corrupt.png", usable: false) { good in
      // The signature and header survive; the picture data is noise.
      var bytes = [UInt8](good.prefix(33))
      bytes += pseudoRandomBytes(count: 400, seed: 3)
      return Data(bytes)
    },
    HostileImage(name: "truncated.png", usable: false) { good in good.prefix(good.count / 3) },
    HostileImage(name: "zero-bytes.png", usable: false) { _ in Data() },
    HostileImage(name: "notes.txt", usable: false) { _ in Data("not an image\n".utf8) },
    HostileImage(name: "random.jpg", usable: false) { _ in
      Data(pseudoRandomBytes(count: 3000, seed: 9))
    },
    // Content decides, not the extension.
    HostileImage(name: "png-named.jpg", usable: true) { good in good },
    HostileImage(name: "one-pixel.png", usable: true) { _ in
      HandmadePNG.file(width: 1, height: 1, idat: HandmadePNG.storedZlib([0, 200, 30, 30]))
    },
    // A 10000x10000 header over a few bytes: refused before 400 MB are allocated.
    HostileImage(name: "huge-header.png", usable: false) { _ in
      HandmadePNG.file(width: 10_000, height: 10_000, idat: HandmadePNG.storedZlib([0, 1, 2, 3]))
    },
  ]
}

@Suite("Hostile images and model files: a clear line, no crash, no hang")
struct HostileImageAndModelTimingTests {
  /// A real but tiny model (StoreFiles'), quick to run in a debug build.
  static var model: URL { get throws { try StoreFiles.tinyModel() } }

  /// A copy of the tiny generated test set with `image` added under Scary/.
  func folder(with image: HostileImage) throws -> (root: URL, image: URL) {
    let work = try ScratchFolder.url("hostile-images")
    let root = work.appendingPathComponent("set")
    try FileManager.default.copyItem(
      at: try SceneData.root().appendingPathComponent("Testing Data"), to: root)
    let good = try Data(contentsOf: root.appendingPathComponent("Scary/scary-00000.png"))
    let url = root.appendingPathComponent("Scary/\(image.name)")
    try image.bytes(good).write(to: url)
    return (root, url)
  }

  @Test("classify one image", arguments: HostileImage.all)
  func classify(_ image: HostileImage) throws {
    let (root, url) = try folder(with: image)
    defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    let run = try CLI.leamoji(
      ["classify", url.path, "--model", try Self.model.path], timeout: hostileTimeout)
    expectOutcome(
      run, image.usable ? .usable : .refused(65), file: url.path, "classify \(image.name)")
    if image.usable { #expect(run.stdout.contains(url.path)) }
  }

  @Test(
    "evaluate a folder holding it: skipped with one warning naming it, or used",
    arguments: HostileImage.all)
  func evaluate(_ image: HostileImage) throws {
    let (root, url) = try folder(with: image)
    defer { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }
    let run = try CLI.leamoji(
      ["evaluate", root.path, "--model", try Self.model.path, "--json"], timeout: hostileTimeout)
    #expect(run.status == 0 && !run.signalled && !run.timedOut, "\(run.stderr)")
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    if image.usable {
      #expect(run.stderrLines.isEmpty, "\(run.stderr)")
      #expect(report["count"] as? Int == 25)
    } else {
      #expect(
        run.stderrLines.count == 1 && run.stderrLines[0].hasPrefix("leamoji: warning: ")
          && run.stderr.contains(url.path), "\(run.stderr)")
      #expect(report["count"] as? Int == 24)
    }
  }

  @Test("train on a folder holding every hostile image: the usable ones are used, one warning line")
  func train() throws {
    let work = try ScratchFolder.url("hostile-train")
    defer { try? FileManager.default.removeItem(at: work) }
    let root = work.appendingPathComponent("set")
    try FileManager.default.copyItem(
      at: try SceneData.root().appendingPathComponent("Training Data"), to: root)
    let good = try Data(contentsOf: root.appendingPathComponent("Happy/happy-00000.png"))
    for image in HostileImage.all {
      try image.bytes(good).write(to: root.appendingPathComponent("Happy/\(image.name)"))
    }
    let output = work.appendingPathComponent("m.safetensors")
    let run = try CLI.lab(
      [
        "train", root.path, "--epochs", "1", "--size", "16", "--batch-size", "16", "--output",
        output.path,
      ], timeout: 60)
    #expect(run.status == 0 && !run.signalled, "\(run.stderr)")
    let unusable = HostileImage.all.filter { !$0.usable }.count
    #expect(
      run.stderrLines.count == 1 && run.stderr.contains("skipped \(unusable) unreadable"),
      "\(run.stderr)")
    #expect(FileManager.default.fileExists(atPath: output.path))
  }

  /// Every way the model reader must refuse a file, built from the shipped model.
  static let corruptions: [(String, @Sendable (Data) throws -> Data)] = [
    ("empty", { _ in Data() }),
    ("four-bytes", { model in model.prefix(4) }),
    (
      "header-length-huge",
      { model in Data([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]) + model.dropFirst(8) }
    ),
    (
      "header-length-past-end",
      { model in
        var bytes = [UInt8](model)
        bytes[0..<8] = [0x00, 0x00, 0x10, 0x00, 0, 0, 0, 0][...]
        return Data(bytes)
      }
    ),
    (
      "header-not-json",
      { model in try ModelSurgery(model).file(headerText: "{\"conv1.bias\": [1, 2") }
    ),
    (
      "header-not-utf8",
      { model in
        try ModelSurgery(model).file(
          headerText: String(decoding: [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D], as: UTF8.self))
      }
    ),
    (
      "header-deeply-nested",
      { model in try ModelSurgery(model).file(headerText: String(repeating: "[", count: 200_000)) }
    ),
    ("header-an-array", { model in try ModelSurgery(model).file(headerText: "[1, 2, 3]") }),
    (
      "tensor-without-dtype",
      { model in
        var surgery = try ModelSurgery(model)
        var entry = surgery.tensor("conv1.bias")
        entry["dtype"] = nil
        surgery.header["conv1.bias"] = entry
        return try surgery.file()
      }
    ),
    (
      "dtype-f16",
      { model in
        var surgery = try ModelSurgery(model)
        var entry = surgery.tensor("conv1.bias")
        entry["dtype"] = "F16"
        surgery.header["conv1.bias"] = entry
        return try surgery.file()
      }
    ),
    (
      "shape-not-matching-bytes",
      { model in
        var surgery = try ModelSurgery(model)
        var entry = surgery.tensor("conv1.bias")
        entry["shape"] = [17]
        surgery.header["conv1.bias"] = entry
        return try surgery.file()
      }
    ),
    (
      "negative-shape",
      { model in
        var surgery = try ModelSurgery(model)
        var entry = surgery.tensor("conv1.bias")
        entry["shape"] = [-16]
        surgery.header["conv1.bias"] = entry
        return try surgery.file()
      }
    ),
    (
      "overlapping-tensors",
      { model in
        var surgery = try ModelSurgery(model)
        var entry = surgery.tensor("conv1.bias")
        entry["data_offsets"] = [64, 128]
        surgery.header["conv1.bias"] = entry
        return try surgery.file()
      }
    ),
    (
      "trailing-bytes",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.data += [1, 2, 3, 4]
        return try surgery.file()
      }
    ),
    ("data-cut-short", { model in model.dropLast(100) }),
    (
      "offsets-past-the-end",
      { model in
        var surgery = try ModelSurgery(model)
        let end = surgery.data.count
        var entry = surgery.tensor("fc.bias")
        entry["data_offsets"] = [end + 1000, end + 1012]
        surgery.header["fc.bias"] = entry
        return try surgery.file()
      }
    ),
    (
      "offsets-overflowing",
      { model in
        var surgery = try ModelSurgery(model)
        var entry = surgery.tensor("fc.bias")
        entry["data_offsets"] = [UInt64.max - 4, UInt64.max]
        surgery.header["fc.bias"] = entry
        return try surgery.file()
      }
    ),
    (
      "metadata-not-strings",
      { model in
        var surgery = try ModelSurgery(model)
        var metadata = surgery.header["__metadata__"] as? [String: Any] ?? [:]
        metadata["labels"] = ["happy", "neutral", "scary"]
        surgery.header["__metadata__"] = metadata
        return try surgery.file()
      }
    ),
    (
      "labels-missing",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.metadata["labels"] = nil
        return try surgery.file()
      }
    ),
    (
      "labels-malformed",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.metadata["labels"] = "happy,neutral,scary"
        return try surgery.file()
      }
    ),
    (
      "labels-count-not-outputs",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.metadata["labels"] = "[\"happy\",\"scary\"]"
        return try surgery.file()
      }
    ),
    (
      "wrong-format",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.metadata["format"] = "pytorch"
        return try surgery.file()
      }
    ),
    (
      "unknown-version",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.metadata["version"] = "99"
        return try surgery.file()
      }
    ),
    (
      "input-absurd",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.metadata["input"] = "3x100000x100000"
        return try surgery.file()
      }
    ),
    (
      "layers-not-a-network",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.metadata["layers"] = "[{\"type\":\"linear\",\"in\":5,\"out\":3,\"name\":\"fc\"}]"
        return try surgery.file()
      }
    ),
    (
      "tensor-missing",
      { model in
        var surgery = try ModelSurgery(model)
        surgery.header["fc.bias"] = nil
        let kept = surgery.data.count - 12
        surgery.data = Array(surgery.data.prefix(kept))
        return try surgery.file()
      }
    ),
    (
      "tensor-unexpected",
      { model in
        var surgery = try ModelSurgery(model)
        let end = surgery.data.count
        surgery.header["extra.weight"] = [
          "dtype": "F32", "shape": [1], "data_offsets": [end, end + 4],
        ]
        surgery.data += [0, 0, 0, 0]
        return try surgery.file()
      }
    ),
    (
      "tensor-shape-for-other-layers",
      { model in
        var surgery = try ModelSurgery(model)
        var entry = surgery.tensor("conv1.weight")
        entry["shape"] = [3, 16, 3, 3]
        surgery.header["conv1.weight"] = entry
        return try surgery.file()
      }
    ),
    (
      "weights-nan",
      { model in
        var surgery = try ModelSurgery(model)
        let offsets = surgery.tensor("conv2.weight")["data_offsets"] as? [Int] ?? [0]
        surgery.data.replaceSubrange(offsets[0]..<offsets[0] + 4, with: [0x00, 0x00, 0xC0, 0x7F])
        return try surgery.file()
      }
    ),
    (
      "a-png",
      { _ in HandmadePNG.file(width: 1, height: 1, idat: HandmadePNG.storedZlib([0, 1, 2, 3])) }
    ),
  ]

  @Test("every corruption of the model file is refused with one line naming it")
  func corruptModels() throws {
    let work = try ScratchFolder.url("hostile-models")
    defer { try? FileManager.default.removeItem(at: work) }
    let shipped = try Data(contentsOf: try Self.model)
    let image = work.appendingPathComponent("frame.png")
    try Data(
      contentsOf: try SceneData.root().appendingPathComponent("Testing Data/Happy/happy-00000.png")
    ).write(to: image)
    let movieData = work.appendingPathComponent("MovieData.json")
    try Data("[]\n".utf8).write(to: movieData)
    let video = try AnalyzeFixtures.clip(named: "clip.mp4", in: work)
    #expect(Self.corruptions.count >= 25)
    for (index, (name, corrupt)) in Self.corruptions.enumerated() {
      let url = work.appendingPathComponent("\(name).safetensors")
      try corrupt(shipped).write(to: url)
      let classify = try CLI.leamoji(
        ["classify", image.path, "--model", url.path], timeout: hostileTimeout)
      expectOutcome(classify, .refused(65), file: url.path, "classify with \(name)")
      // analyze reads the model through the same loader; a sample of the cases checks that it
      // stops before touching the timeline.
      if index % 5 == 0 {
        let analyze = try CLI.leamoji(
          ["analyze", video.path, "--model", url.path, "--output", movieData.path],
          timeout: hostileTimeout)
        expectOutcome(analyze, .refused(65), file: url.path, "analyze with \(name)")
        #expect(try Data(contentsOf: movieData) == Data("[]\n".utf8))
        #expect(
          !FileManager.default.fileExists(atPath: work.appendingPathComponent("clip.jpg").path))
      }
    }
    // Not a file at all.
    let folder = work.appendingPathComponent("folder.safetensors")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let run = try CLI.leamoji(
      ["classify", image.path, "--model", folder.path], timeout: hostileTimeout)
    #expect(run.status == 65 || run.status == 66, "\(run.stderr)")
    #expect(run.stderrLines.count == 1 && run.stderr.contains(folder.path), "\(run.stderr)")
  }
}
