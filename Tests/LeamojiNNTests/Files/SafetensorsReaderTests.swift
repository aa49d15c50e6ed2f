import Foundation
import LeamojiCore
import LeamojiNN
import LeamojiTestSupport
import Testing

/// Reading safetensors containers: one test per way the bytes can be wrong, and random
/// corruption that must never crash.
@Suite("Safetensors reader")
struct SafetensorsReaderTests {
  /// Decodes `bytes` and returns the problem it was rejected for (nil when accepted).
  func problem(_ bytes: [UInt8]) -> ModelFileError.Problem? {
    do {
      _ = try SafetensorsFile.decode(bytes, path: FileSurgery.path)
      return nil
    } catch {
      #expect(error.path == FileSurgery.path)
      #expect(error.description.hasPrefix(FileSurgery.path + ": "))
      #expect(!error.description.contains("\n"))
      return error.problem
    }
  }

  @Test func readsWhatWasWritten() throws {
    let file = try FileSurgery.contents()
    #expect(try SafetensorsFile.decode(file.encoded(), path: "x") == file)
  }

  @Test func missingFile() {
    #expect(
      throws: ModelFileError(path: "/nonexistent/leamoji.safetensors", problem: .fileNotFound)
    ) {
      try SafetensorsFile.read(contentsOf: URL(fileURLWithPath: "/nonexistent/leamoji.safetensors"))
    }
  }

  @Test func unreadableFile() throws {
    let dir = try ScratchFolder.url("nn-tests")
    defer { try? FileManager.default.removeItem(at: dir) }
    let error = #expect(throws: ModelFileError.self) { try SafetensorsFile.read(contentsOf: dir) }
    #expect(error?.problem == .unreadable(reason: "it is a directory"))
    #expect(error?.path == dir.path)
  }

  @Test func truncatedFile() {
    #expect(problem([1, 2, 3, 4, 5]) == .truncated(size: 5))
    #expect(problem([]) == .truncated(size: 0))
  }

  @Test func headerLengthPastTheEnd() throws {
    var bytes = try FileSurgery.contents().encoded()
    bytes.replaceSubrange(
      0..<8, with: withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { Array($0) })
    #expect(
      problem(bytes)
        == .headerLengthOutOfRange(length: UInt64(bytes.count), available: bytes.count - 8))
    bytes.replaceSubrange(0..<8, with: [UInt8](repeating: 0xFF, count: 8))
    #expect(problem(bytes) == .headerLengthOutOfRange(length: .max, available: bytes.count - 8))
  }

  @Test func headerNotJSON() {
    guard case .headerNotJSON? = problem(FileSurgery.join("{\"a\": [1, 2", [])) else {
      Issue.record("expected headerNotJSON")
      return
    }
    guard
      case .headerNotJSON? = problem(
        FileSurgery.join(String(decoding: [0xFF, 0xFE, 0x7B], as: UTF8.self), []))
    else {
      Issue.record("expected headerNotJSON for bad UTF-8")
      return
    }
  }

  @Test func deeplyNestedHeaderIsRejectedNotACrash() {
    guard
      case .headerNotJSON? = problem(FileSurgery.join(String(repeating: "[", count: 100_000), []))
    else {
      Issue.record("expected headerNotJSON")
      return
    }
  }

  @Test func headerNotObject() {
    #expect(problem(FileSurgery.join("[1, 2, 3]", [])) == .headerNotObject)
    #expect(problem(FileSurgery.join("\"x\"", [])) == .headerNotObject)
  }

  @Test func malformedTensorEntry() throws {
    #expect(
      try problem(FileSurgery.edited { h, _ in h["fc.bias"] = 5 })
        == .malformedTensorEntry(
          tensor: "fc.bias", reason: "entry is an integer, expected an object"))
    #expect(
      try problem(
        FileSurgery.edited { h, _ in
          var e = h["fc.bias"] as! [String: Any]
          e["shape"] = [-1]
          h["fc.bias"] = e
        })
        == .malformedTensorEntry(tensor: "fc.bias", reason: "shape must hold non-negative integers")
    )
    #expect(
      try problem(
        FileSurgery.edited { h, _ in
          var e = h["fc.bias"] as! [String: Any]
          e["data_offsets"] = [8]
          h["fc.bias"] = e
        })
        == .malformedTensorEntry(
          tensor: "fc.bias", reason: "data_offsets must be [begin, end] with 0 <= begin <= end"))
  }

  @Test func unknownDType() throws {
    #expect(
      try problem(
        FileSurgery.edited { h, _ in
          var e = h["conv1.weight"] as! [String: Any]
          e["dtype"] = "F16"
          h["conv1.weight"] = e
        }) == .unsupportedDType(tensor: "conv1.weight", dtype: "F16"))
  }

  @Test func shapeNotMatchingDataOffsets() throws {
    #expect(
      try problem(
        FileSurgery.edited { h, _ in
          var e = h["conv1.bias"] as! [String: Any]
          e["shape"] = [7]
          h["conv1.bias"] = e
        }) == .shapeMismatchesData(tensor: "conv1.bias", shape: [7], byteCount: 32))
    // Element counts that overflow are a mismatch, not a crash.
    #expect(
      try problem(
        FileSurgery.edited { h, _ in
          var e = h["conv1.bias"] as! [String: Any]
          e["shape"] = [Int.max / 2, 4]
          h["conv1.bias"] = e
        }) == .shapeMismatchesData(tensor: "conv1.bias", shape: [Int.max / 2, 4], byteCount: 32))
  }

  @Test func overlappingOffsets() throws {
    #expect(
      try problem(
        FileSurgery.edited { h, _ in
          // conv1.bias is [0, 32], conv1.weight follows it
          let (b, e) = FileSurgery.offsets(h, "conv1.weight")
          FileSurgery.setOffsets(&h, "conv1.weight", b - 4, e - 4)
        }) == .overlappingTensors("conv1.bias", "conv1.weight"))
  }

  @Test func gapsInData() throws {
    // A hole between two tensors.
    #expect(
      try problem(
        FileSurgery.edited { h, d in
          let (b, e) = FileSurgery.offsets(h, "conv1.weight")
          FileSurgery.setOffsets(&h, "conv1.weight", b + 4, e + 4)
          d.insert(contentsOf: [0, 0, 0, 0], at: b)
          // Shift everything after conv1.weight too.
          for name in h.keys where name != "__metadata__" && name != "conv1.weight" {
            let (b2, e2) = FileSurgery.offsets(h, name)
            if b2 >= e { FileSurgery.setOffsets(&h, name, b2 + 4, e2 + 4) }
          }
        }) == .gapInData(after: "conv1.bias", offset: 32))
    // Trailing bytes after the last tensor.
    let size = try FileSurgery.network().parameterCount * 4
    #expect(
      try problem(FileSurgery.edited { _, d in d += [1, 2, 3, 4] })
        == .gapInData(after: "fc.weight", offset: size))
  }

  @Test func offsetsOutsideData() throws {
    let size = try FileSurgery.network().parameterCount * 4
    #expect(
      try problem(FileSurgery.edited { _, d in d.removeLast(4) })
        == .tensorOutsideData(tensor: "fc.weight", end: size, dataSize: size - 4))
  }

  @Test func metadataNotStrings() throws {
    #expect(
      try problem(
        FileSurgery.edited { h, _ in
          var m = h["__metadata__"] as! [String: Any]
          m["version"] = 1
          h["__metadata__"] = m
        }) == .metadataNotStrings(reason: "\"version\" is an integer"))
    #expect(
      try problem(FileSurgery.edited { h, _ in h["__metadata__"] = ["a", "b"] })
        == .metadataNotStrings(reason: "it is an array"))
  }

  // MARK: Metadata

  /// Random corruption of a valid file is always either accepted or rejected with an error —
  /// never a crash.
  @Test func randomCorruptionNeverCrashes() throws {
    let valid = try FileSurgery.contents().encoded()
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
        let tokens: [UInt8] = [
          UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "9"), 0,
        ]
        bytes[i] = tokens[Int(rng.next() % 5)]
      }
      if problem(bytes) != nil { rejected += 1 }
    }
    #expect(rejected > 200)
  }
}
