import LeamojiCore
import Foundation
import LeamojiNN
import Testing

/// Model files: round trip, deterministic bytes, and one test per way a file can be wrong.
@Suite("Safetensors model files")
struct SafetensorsTests {
  static let path = "models/test.safetensors"

  /// A small trained-looking model (non-zero biases) with a custom label set.
  func model() throws -> Model {
    var net = try Network(specs: TestSupport.smallSpecs(classes: 4), inputShape: [3, 16, 16], seed: 5)
    var p = net.parameters
    for i in p.indices where p[i].rank == 1 { p[i] = TestSupport.random(p[i].shape, seed: UInt64(i)) }
    try net.setParameters(p)
    return try Model(network: net, labels: ["happy", "neutral", "scary", "sad"],
                     mean: [0.5, 0.25, 0.125], std: [0.2, 0.3, 0.4],
                     emoji: ["happy": "😀", "neutral": "😐", "scary": "😱", "sad": "😢"])
  }

  /// Decodes `bytes` and returns the problem it was rejected for (nil when accepted).
  func problem(_ bytes: [UInt8]) -> ModelFileError.Problem? {
    do {
      _ = try Model.decode(bytes, path: Self.path)
      return nil
    } catch {
      #expect(error.path == Self.path)
      #expect(error.description.hasPrefix(Self.path + ": "))
      #expect(!error.description.contains("\n"))
      return error.problem
    }
  }

  /// The problem of a file built from edited tensors / metadata of the test model.
  func problem(edit: (inout [String: Tensor], inout [String: String]) -> Void) throws -> ModelFileError.Problem? {
    let file = try model().safetensors
    var tensors = file.tensors, metadata = file.metadata
    edit(&tensors, &metadata)
    return problem(SafetensorsFile(tensors: tensors, metadata: metadata).encoded())
  }

  /// Splits a file into its header object and data bytes.
  func split(_ bytes: [UInt8]) throws -> (header: [String: Any], data: [UInt8]) {
    let n = Int(bytes[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    let header = try JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + n)])) as! [String: Any]
    return (header, Array(bytes[(8 + n)...]))
  }

  /// Joins a header text and data into a file (no padding: the format does not require it).
  func join(_ header: String, _ data: [UInt8]) -> [UInt8] {
    let h = Array(header.utf8)
    return withUnsafeBytes(of: UInt64(h.count).littleEndian) { Array($0) } + h + data
  }

  func join(_ header: [String: Any], _ data: [UInt8]) throws -> [UInt8] {
    let json = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
    return join(String(decoding: json, as: UTF8.self), data)
  }

  /// The problem of the test model's file after editing its raw header and data.
  func problem(rawEdit edit: (inout [String: Any], inout [UInt8]) -> Void) throws -> ModelFileError.Problem? {
    var (header, data) = try split(model().encoded())
    edit(&header, &data)
    return problem(try join(header, data))
  }

  func setOffsets(_ header: inout [String: Any], _ name: String, _ begin: Int, _ end: Int) {
    var entry = header[name] as! [String: Any]
    entry["data_offsets"] = [begin, end]
    header[name] = entry
  }

  func offsets(_ header: [String: Any], _ name: String) -> (Int, Int) {
    let o = (header[name] as! [String: Any])["data_offsets"] as! [Int]
    return (o[0], o[1])
  }

  // MARK: Round trip and format

  @Test func roundTripKeepsEverything() throws {
    let original = try model()
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let url = dir.appendingPathComponent("m.safetensors")
    try original.write(to: url)
    let loaded = try Model.read(from: url)
    #expect(TestSupport.bits(loaded.network.parameters) == TestSupport.bits(original.network.parameters))
    #expect(loaded.network.specs == original.network.specs)
    #expect(loaded.network.inputShape == [3, 16, 16])
    #expect(loaded.labels == original.labels)
    #expect(loaded.mean == original.mean)
    #expect(loaded.std == original.std)
    #expect(loaded.emoji == original.emoji)
    #expect(try Data(contentsOf: url) == Data(original.encoded()))
    #expect(loaded.encoded() == original.encoded())

    let x = TestSupport.random([2, 3, 16, 16], seed: 1)
    #expect(try loaded.network.logits(x, threads: 1) == original.network.logits(x, threads: 1))
  }

  @Test func writtenBytesAreDeterministicAndWellFormed() throws {
    let a = try model().encoded()
    let b = try model().encoded()
    #expect(a == b)
    let n = Int(a[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    #expect(n % 8 == 0)
    let header = String(decoding: a[8..<(8 + n)], as: UTF8.self)
    #expect(header.hasPrefix("{\"__metadata__\":{\"emoji\":\"{\\\"happy\\\":\\\"😀\\\""))
    #expect(header.contains("\"conv1.bias\":{\"data_offsets\":[0,32],\"dtype\":\"F32\",\"shape\":[8]}"))
    #expect(header.contains("\"format\":\"leamoji-cnn\""))
    #expect(header.contains(#""layers":"[{\"in\":3,\"kernel\":3,\"name\":\"conv1\",\"out\":8,\"padding\":1,\"stride\":1,\"type\":\"conv2d\"},{\"type\":\"relu\"},{\"kernel\":2,\"stride\":2,\"type\":\"maxpool2d\"}"#))
    #expect(header.contains(#""input":"3x16x16""#))
    #expect(header.contains(#""labels":"[\"happy\",\"neutral\",\"scary\",\"sad\"]""#))
    #expect(header.contains(#""mean":"[0.5,0.25,0.125]""#))
    // Data: tensors in name order, little-endian float32.
    let (h, data) = try split(a)
    let model = try model()
    #expect(data.count == model.network.parameterCount * 4)
    let (begin, _) = offsets(h, "fc.bias")
    let first = data[begin..<(begin + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(Float(bitPattern: first) == model.network.namedParameters["fc.bias"]!.data[0])
  }

  @Test func genericContainerRoundTrip() throws {
    let file = SafetensorsFile(
      tensors: ["b": Tensor(shape: [2, 2], data: [1, -2, 3.5, .greatestFiniteMagnitude]),
                "a": Tensor(shape: [0]), "s": Tensor(shape: [], data: [7])],
      metadata: ["k": "v/ü"])
    let decoded = try SafetensorsFile.decode(file.encoded(), path: "x")
    #expect(decoded == file)
  }

  // MARK: Reading the file

  @Test func missingFile() {
    #expect(throws: ModelFileError(path: "/nonexistent/leamoji.safetensors", problem: .fileNotFound)) {
      try Model.read(from: URL(fileURLWithPath: "/nonexistent/leamoji.safetensors"))
    }
  }

  @Test func unreadableFile() throws {
    let dir = try TestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let error = #expect(throws: ModelFileError.self) { try Model.read(from: dir) }
    #expect(error?.problem == .unreadable(reason: "it is a directory"))
    #expect(error?.path == dir.path)
  }

  // MARK: Structure

  @Test func truncatedFile() {
    #expect(problem([1, 2, 3, 4, 5]) == .truncated(size: 5))
    #expect(problem([]) == .truncated(size: 0))
  }

  @Test func headerLengthPastTheEnd() throws {
    var bytes = try model().encoded()
    bytes.replaceSubrange(0..<8, with: withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { Array($0) })
    #expect(problem(bytes) == .headerLengthOutOfRange(length: UInt64(bytes.count), available: bytes.count - 8))
    bytes.replaceSubrange(0..<8, with: [UInt8](repeating: 0xFF, count: 8))
    #expect(problem(bytes) == .headerLengthOutOfRange(length: .max, available: bytes.count - 8))
  }

  @Test func headerNotJSON() {
    guard case .headerNotJSON? = problem(join("{\"a\": [1, 2", [])) else {
      Issue.record("expected headerNotJSON")
      return
    }
    guard case .headerNotJSON? = problem(join(String(decoding: [0xFF, 0xFE, 0x7B], as: UTF8.self), [])) else {
      Issue.record("expected headerNotJSON for bad UTF-8")
      return
    }
  }

  @Test func deeplyNestedHeaderIsRejectedNotACrash() {
    guard case .headerNotJSON? = problem(join(String(repeating: "[", count: 100_000), [])) else {
      Issue.record("expected headerNotJSON")
      return
    }
  }

  @Test func headerNotObject() {
    #expect(problem(join("[1, 2, 3]", [])) == .headerNotObject)
    #expect(problem(join("\"x\"", [])) == .headerNotObject)
  }

  @Test func malformedTensorEntry() throws {
    #expect(try problem(rawEdit: { h, _ in h["fc.bias"] = 5 })
      == .malformedTensorEntry(tensor: "fc.bias", reason: "entry is an integer, expected an object"))
    #expect(try problem(rawEdit: { h, _ in
      var e = h["fc.bias"] as! [String: Any]
      e["shape"] = [-1]
      h["fc.bias"] = e
    }) == .malformedTensorEntry(tensor: "fc.bias", reason: "shape must hold non-negative integers"))
    #expect(try problem(rawEdit: { h, _ in
      var e = h["fc.bias"] as! [String: Any]
      e["data_offsets"] = [8]
      h["fc.bias"] = e
    }) == .malformedTensorEntry(tensor: "fc.bias", reason: "data_offsets must be [begin, end] with 0 <= begin <= end"))
  }

  @Test func unknownDType() throws {
    #expect(try problem(rawEdit: { h, _ in
      var e = h["conv1.weight"] as! [String: Any]
      e["dtype"] = "F16"
      h["conv1.weight"] = e
    }) == .unsupportedDType(tensor: "conv1.weight", dtype: "F16"))
  }

  @Test func shapeNotMatchingDataOffsets() throws {
    #expect(try problem(rawEdit: { h, _ in
      var e = h["conv1.bias"] as! [String: Any]
      e["shape"] = [7]
      h["conv1.bias"] = e
    }) == .shapeMismatchesData(tensor: "conv1.bias", shape: [7], byteCount: 32))
    // Element counts that overflow are a mismatch, not a crash.
    #expect(try problem(rawEdit: { h, _ in
      var e = h["conv1.bias"] as! [String: Any]
      e["shape"] = [Int.max / 2, 4]
      h["conv1.bias"] = e
    }) == .shapeMismatchesData(tensor: "conv1.bias", shape: [Int.max / 2, 4], byteCount: 32))
  }

  @Test func overlappingOffsets() throws {
    #expect(try problem(rawEdit: { h, _ in
      let (b, e) = offsets(h, "conv1.weight")  // conv1.bias is [0, 32], conv1.weight follows it
      setOffsets(&h, "conv1.weight", b - 4, e - 4)
    }) == .overlappingTensors("conv1.bias", "conv1.weight"))
  }

  @Test func gapsInData() throws {
    // A hole between two tensors.
    #expect(try problem(rawEdit: { h, d in
      let (b, e) = offsets(h, "conv1.weight")
      setOffsets(&h, "conv1.weight", b + 4, e + 4)
      d.insert(contentsOf: [0, 0, 0, 0], at: b)
      // Shift everything after conv1.weight too.
      for name in h.keys where name != "__metadata__" && name != "conv1.weight" {
        let (b2, e2) = offsets(h, name)
        if b2 >= e { setOffsets(&h, name, b2 + 4, e2 + 4) }
      }
    }) == .gapInData(after: "conv1.bias", offset: 32))
    // Trailing bytes after the last tensor.
    let size = try model().network.parameterCount * 4
    #expect(try problem(rawEdit: { _, d in d += [1, 2, 3, 4] }) == .gapInData(after: "fc.weight", offset: size))
  }

  @Test func offsetsOutsideData() throws {
    let size = try model().network.parameterCount * 4
    #expect(try problem(rawEdit: { _, d in d.removeLast(4) })
      == .tensorOutsideData(tensor: "fc.weight", end: size, dataSize: size - 4))
  }

  @Test func metadataNotStrings() throws {
    #expect(try problem(rawEdit: { h, _ in
      var m = h["__metadata__"] as! [String: Any]
      m["version"] = 1
      h["__metadata__"] = m
    }) == .metadataNotStrings(reason: "\"version\" is an integer"))
    #expect(try problem(rawEdit: { h, _ in h["__metadata__"] = ["a", "b"] })
      == .metadataNotStrings(reason: "it is an array"))
  }

  // MARK: Metadata

  @Test func missingMetadataEntries() throws {
    for key in ["format", "version", "labels", "input", "mean", "std", "layers", "emoji"] {
      #expect(try problem(edit: { _, m in m[key] = nil }) == .missingMetadata(key: key))
    }
    #expect(try problem(edit: { _, m in m = [:] }) == .missingMetadata(key: "format"))
  }

  @Test func wrongFormatAndVersion() throws {
    #expect(try problem(edit: { _, m in m["format"] = "pt" }) == .wrongFormat(found: "pt"))
    #expect(try problem(edit: { _, m in m["version"] = "2" }) == .unsupportedVersion(found: "2"))
  }

  @Test func malformedMetadataEntries() throws {
    let cases: [(String, String)] = [
      ("labels", "happy,sad"), ("labels", "[]"), ("labels", #"["a","a","b","c"]"#), ("labels", #"["a","b","c"]"#),
      ("input", "3x16"), ("input", "1x16x16"), ("input", "3x0x16"), ("input", "3x16x99999999999999999999"),
      ("mean", "[0.5, 0.5]"), ("mean", #"["a", 1, 2]"#), ("std", "[0.2, 0, 0.3]"),
      ("layers", "{}"), ("layers", #"[{"type":"conv3d"}]"#),
      ("layers", #"[{"type":"relu","dilation":2}]"#), ("emoji", #"["😀"]"#),
    ]
    for (key, value) in cases {
      let p = try problem(edit: { _, m in m[key] = value })
      guard case .malformedMetadata(let k, _)? = p, k == key else {
        Issue.record("\(key) = \(value): got \(String(describing: p))")
        continue
      }
    }
  }

  // MARK: Tensors against the layer description

  @Test func layersThatDoNotFormANetwork() throws {
    let original = try model()
    func problem(layers: [LayerSpec]) throws -> ModelFileError.Problem? {
      let json = String(decoding: try JSONEncoder().encode(layers), as: UTF8.self)
      return try self.problem(edit: { _, m in m["layers"] = json })
    }
    var specs = original.network.specs
    specs[2] = .maxPool2d(kernel: 32, stride: 2)  // larger than the 16x16 feature map
    guard case .invalidLayers? = try problem(layers: specs) else {
      Issue.record("expected invalidLayers for a pool larger than its input")
      return
    }
    specs = original.network.specs
    specs[1] = .maxPool2d(kernel: 0, stride: 1)
    #expect(try problem(layers: specs) == .invalidLayers(reason: "layer 1: kernel 0 is outside 1...64"))
  }

  @Test func shapesNotMatchingLayers() throws {
    var specs = try model().network.specs
    specs[0] = .conv2d(name: "conv1", inChannels: 3, outChannels: 8, kernel: 5, stride: 1, padding: 2)
    let json = String(decoding: try JSONEncoder().encode(specs), as: UTF8.self)
    #expect(try problem(edit: { _, m in m["layers"] = json })
      == .tensorShapeMismatch(name: "conv1.weight", expected: [8, 3, 5, 5], found: [8, 3, 3, 3]))
  }

  @Test func missingAndUnexpectedTensors() throws {
    #expect(try problem(edit: { t, _ in t["fc.bias"] = nil }) == .missingTensor(name: "fc.bias"))
    #expect(try problem(edit: { t, _ in t["extra.weight"] = Tensor(shape: [1]) }) == .unexpectedTensor(name: "extra.weight"))
  }

  @Test func nonFiniteWeights() throws {
    #expect(try problem(edit: { t, _ in t["conv2.weight"]!.data[3] = .nan }) == .nonFiniteWeights(tensor: "conv2.weight"))
    #expect(try problem(edit: { t, _ in t["fc.bias"]!.data[0] = -.infinity }) == .nonFiniteWeights(tensor: "fc.bias"))
  }

  @Test func labelCountMustMatchOutputs() throws {
    #expect(try problem(edit: { _, m in m["labels"] = #"["a","b","c"]"# })
      == .malformedMetadata(key: "labels", reason: "3 labels but the network has 4 outputs"))
  }

  /// Random corruption of a valid file is always either accepted or rejected with an error —
  /// never a crash.
  @Test func randomCorruptionNeverCrashes() throws {
    let valid = try model().encoded()
    var rng = SplitMix64(seed: 99)
    var rejected = 0
    for round in 0..<300 {
      var bytes = valid
      switch round % 3 {
      case 0:
        for _ in 0..<(1 + Int(rng.next() % 4)) {
          let i = Int(rng.next() % UInt64(min(bytes.count, 600)))
          bytes[i] = UInt8(truncatingIfNeeded: rng.next())
        }
      case 1:
        bytes.removeLast(Int(rng.next() % UInt64(bytes.count)))
      default:
        let i = 8 + Int(rng.next() % 400)
        bytes[i] = [UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "9"), 0][Int(rng.next() % 5)]
      }
      if problem(bytes) != nil { rejected += 1 }
    }
    #expect(rejected > 250)
  }
}
