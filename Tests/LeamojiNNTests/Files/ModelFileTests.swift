import Foundation
import LeamojiNN
import LeamojiTestSupport
import Testing

/// Model files read up to the network: format and version, the network's own entries, the
/// caller's entries as JSON, and the tensors against the layer description.
@Suite("Model files")
struct ModelFileTests {
  /// The network a file's bytes describe, read in the classifier's order of steps.
  func read(_ bytes: [UInt8]) throws(ModelFileError) -> Network {
    let file = try ModelFile.open(bytes, path: FileSurgery.path)
    let input = try file.inputShape(channels: 3)
    let specs = try file.layers()
    return try file.network(specs: specs, inputShape: input)
  }

  /// The problem the test file is rejected for after `edit` (nil when accepted).
  func problem(
    edit: (inout [String: Tensor], inout [String: String]) -> Void
  ) throws -> ModelFileError.Problem? {
    let file = try FileSurgery.contents()
    var tensors = file.tensors
    var metadata = file.metadata
    edit(&tensors, &metadata)
    do {
      _ = try read(SafetensorsFile(tensors: tensors, metadata: metadata).encoded())
      return nil
    } catch {
      #expect(error.path == FileSurgery.path)
      return error.problem
    }
  }

  @Test func roundTripKeepsTheNetworkAndTheCallersEntries() throws {
    let original = try FileSurgery.network()
    let bytes = try FileSurgery.contents().encoded()
    let file = try ModelFile.open(bytes, path: "m")
    #expect(try file.entry("owner") == "tests/ü")
    let loaded = try read(bytes)
    #expect(TestSupport.bits(loaded.parameters) == TestSupport.bits(original.parameters))
    #expect(loaded.specs == original.specs)
    #expect(loaded.inputShape == [3, 16, 16])
    #expect(ModelFile.contents(of: loaded, metadata: ["owner": "tests/ü"]).encoded() == bytes)
    let x = TestSupport.random([2, 3, 16, 16], seed: 1)
    #expect(try loaded.logits(x, threads: 1) == original.logits(x, threads: 1))
  }

  @Test func theNetworksEntriesWinOverTheCallers() throws {
    let network = try FileSurgery.network()
    let file = ModelFile.contents(of: network, metadata: ["format": "other", "input": "1x1x1"])
    #expect(file.metadata["format"] == "leamoji-cnn")
    #expect(file.metadata["version"] == "1")
    #expect(file.metadata["input"] == "3x16x16")
  }

  @Test func openNamesTheFileAsGiven() throws {
    let dir = try ScratchFolder.url("nn-tests")
    defer { try? FileManager.default.removeItem(at: dir) }
    let relative = "no-such-folder/model.safetensors"
    #expect(throws: ModelFileError(path: relative, problem: .fileNotFound)) {
      try ModelFile.open(path: relative)
    }
    #expect(
      throws: ModelFileError(path: dir.path, problem: .unreadable(reason: "it is a directory"))
    ) {
      try ModelFile.open(path: dir.path)
    }
    let url = dir.appendingPathComponent("m.safetensors")
    try Data(FileSurgery.contents().encoded()).write(to: url)
    #expect(try ModelFile.open(path: url.path).contents == FileSurgery.contents())
    try Data([1, 2, 3]).write(to: url)
    #expect(throws: ModelFileError(path: url.path, problem: .truncated(size: 3))) {
      try ModelFile.open(path: url.path)
    }
  }

  @Test func missingEntries() throws {
    for key in ["format", "version", "input", "layers"] {
      #expect(try problem(edit: { _, m in m[key] = nil }) == .missingMetadata(key: key))
    }
    #expect(try problem(edit: { _, m in m = [:] }) == .missingMetadata(key: "format"))
    let file = try ModelFile.open(FileSurgery.contents().encoded(), path: "m")
    #expect(throws: ModelFileError(path: "m", problem: .missingMetadata(key: "labels"))) {
      try file.entry("labels")
    }
  }

  @Test func wrongFormatAndVersion() throws {
    #expect(try problem(edit: { _, m in m["format"] = "pt" }) == .wrongFormat(found: "pt"))
    #expect(try problem(edit: { _, m in m["version"] = "4" }) == .unsupportedVersion(found: "4"))
    // The format is checked before the version.
    #expect(
      try problem(edit: { _, m in
        m["format"] = "pt"
        m["version"] = "2"
      }) == .wrongFormat(found: "pt"))
  }

  @Test func malformedEntries() throws {
    let cases: [(String, String)] = [
      ("input", "3x16"), ("input", "1x16x16"), ("input", "3x0x16"),
      ("input", "3x16x99999999999999999999"), ("input", "3x16x4097"),
      ("layers", "{}"), ("layers", #"[{"type":"conv3d"}]"#),
      ("layers", #"[{"type":"relu","dilation":2}]"#),
    ]
    for (key, value) in cases {
      let p = try problem(edit: { _, m in m[key] = value })
      guard case .malformedMetadata(let k, _)? = p, k == key else {
        Issue.record("\(key) = \(value): got \(String(describing: p))")
        continue
      }
    }
    #expect(
      try problem(edit: { _, m in m["input"] = "1x16x16" })
        == .malformedMetadata(key: "input", reason: "\"1x16x16\" is not 3xHxW"))
  }

  @Test func callersEntriesAsJSON() throws {
    var metadata = try FileSurgery.contents().metadata
    metadata["names"] = #"["a","b"]"#
    metadata["broken"] = "[1,"
    let bytes = SafetensorsFile(tensors: try FileSurgery.contents().tensors, metadata: metadata)
      .encoded()
    let file = try ModelFile.open(bytes, path: "m")
    #expect(try file.json("names", as: [String].self) == ["a", "b"])
    let wrongType = #expect(throws: ModelFileError.self) { try file.json("names", as: [Int].self) }
    guard case .malformedMetadata(key: "names", _)? = wrongType?.problem else {
      Issue.record("expected malformedMetadata for names, got \(String(describing: wrongType))")
      return
    }
    let broken = #expect(throws: ModelFileError.self) { try file.json("broken", as: [Int].self) }
    guard case .malformedMetadata(key: "broken", _)? = broken?.problem else {
      Issue.record("expected malformedMetadata for broken, got \(String(describing: broken))")
      return
    }
  }

  // MARK: Tensors against the layer description

  @Test func layersThatDoNotFormANetwork() throws {
    let original = try FileSurgery.network()
    func problem(layers: [LayerSpec]) throws -> ModelFileError.Problem? {
      let json = String(decoding: try JSONEncoder().encode(layers), as: UTF8.self)
      return try self.problem(edit: { _, m in m["layers"] = json })
    }
    var specs = original.specs
    specs[2] = .maxPool2d(kernel: 32, stride: 2)  // larger than the 16x16 feature map
    guard case .invalidLayers? = try problem(layers: specs) else {
      Issue.record("expected invalidLayers for a pool larger than its input")
      return
    }
    specs = original.specs
    specs[1] = .maxPool2d(kernel: 0, stride: 1)
    #expect(
      try problem(layers: specs) == .invalidLayers(reason: "layer 1: kernel 0 is outside 1...64"))
    specs = original.specs
    specs.append(.linear(name: "conv1", inFeatures: 4, outFeatures: 4))
    #expect(
      try problem(layers: specs) == .invalidLayers(reason: "parameter conv1.weight appears twice"))
  }

  @Test func shapesNotMatchingLayers() throws {
    var specs = try FileSurgery.network().specs
    specs[0] = .conv2d(
      name: "conv1", inChannels: 3, outChannels: 8, kernel: 5, stride: 1, padding: 2)
    let json = String(decoding: try JSONEncoder().encode(specs), as: UTF8.self)
    #expect(
      try problem(edit: { _, m in m["layers"] = json })
        == .tensorShapeMismatch(name: "conv1.weight", expected: [8, 3, 5, 5], found: [8, 3, 3, 3]))
  }

  @Test func missingAndUnexpectedTensors() throws {
    #expect(try problem(edit: { t, _ in t["fc.bias"] = nil }) == .missingTensor(name: "fc.bias"))
    #expect(
      try problem(edit: { t, _ in t["extra.weight"] = Tensor(shape: [1]) })
        == .unexpectedTensor(name: "extra.weight"))
  }

  @Test func nonFiniteWeights() throws {
    #expect(
      try problem(edit: { t, _ in t["conv2.weight"]!.data[3] = .nan })
        == .nonFiniteWeights(tensor: "conv2.weight"))
    #expect(
      try problem(edit: { t, _ in t["fc.bias"]!.data[0] = -.infinity })
        == .nonFiniteWeights(tensor: "fc.bias"))
  }

  @Test("missing tensors are reported before unexpected ones, and both before non-finite weights")
  func orderOfTensorProblems() throws {
    #expect(
      try problem(edit: { t, _ in
        t["fc.bias"] = nil
        t["extra.weight"] = Tensor(shape: [1])
        t["conv2.weight"]!.data[3] = .nan
      }) == .missingTensor(name: "fc.bias"))
    #expect(
      try problem(edit: { t, _ in
        t["extra.weight"] = Tensor(shape: [1], data: [.nan])
        t["conv2.weight"]!.data[3] = .nan
      }) == .unexpectedTensor(name: "extra.weight"))
  }
}
