import Foundation
import LeamojiNN
import Testing

/// Writing safetensors containers: deterministic, well-formed bytes.
@Suite("Safetensors writer")
struct SafetensorsWriterTests {
  @Test func bytesAreDeterministicAndWellFormed() throws {
    let a = try FileSurgery.contents().encoded()
    let b = try FileSurgery.contents().encoded()
    #expect(a == b)
    let n = Int(a[0..<8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    #expect(n % 8 == 0)
    let header = String(decoding: a[8..<(8 + n)], as: UTF8.self)
    #expect(header.hasPrefix(#"{"__metadata__":{"format":"leamoji-cnn","input":"3x16x16","#))
    #expect(header.contains(#""conv1.bias":{"data_offsets":[0,32],"dtype":"F32","shape":[8]}"#))
    #expect(header.contains(#""owner":"tests/ü""#))
    // Data: tensors in name order, little-endian float32.
    let (h, data) = try FileSurgery.split(a)
    let network = try FileSurgery.network()
    #expect(data.count == network.parameterCount * 4)
    let (begin, _) = FileSurgery.offsets(h, "fc.bias")
    let first = data[begin..<(begin + 4)].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    #expect(Float(bitPattern: first) == network.namedParameters["fc.bias"]!.data[0])
  }

  @Test func genericContainerRoundTrip() throws {
    let file = SafetensorsFile(
      tensors: [
        "b": Tensor(shape: [2, 2], data: [1, -2, 3.5, .greatestFiniteMagnitude]),
        "a": Tensor(shape: [0]), "s": Tensor(shape: [], data: [7]),
      ],
      metadata: ["k": "v/ü"])
    let decoded = try SafetensorsFile.decode(file.encoded(), path: "x")
    #expect(decoded == file)
  }

  @Test func noMetadataWritesNoMetadataEntry() throws {
    let bytes = SafetensorsFile(tensors: ["t": Tensor(shape: [1], data: [1])]).encoded()
    let (header, _) = try FileSurgery.split(bytes)
    #expect(header["__metadata__"] == nil)
    #expect(try SafetensorsFile.decode(bytes, path: "x").metadata.isEmpty)
  }
}
