import FoundationEssentials
import LeamojiCore

/// The contents of a safetensors file: named float32 tensors plus string metadata. Tensors
/// named in `integerTensors` are stored as I64 (their values rounded toward zero), as PyTorch
/// stores integer buffers such as a batch norm's `num_batches_tracked`.
///
/// Layout (https://github.com/huggingface/safetensors): an 8-byte little-endian header length
/// `N`, `N` bytes of JSON header
/// `{"name":{"dtype":"F32","shape":[...],"data_offsets":[begin,end]},...,"__metadata__":{...}}`
/// with offsets relative to the data section, then the raw little-endian data.
public struct SafetensorsFile: Equatable, Sendable {
  /// Tensors by name (`conv1.weight`...). The name `__metadata__` is reserved.
  public var tensors: [String: Tensor]
  /// Free-form string metadata (`__metadata__`).
  public var metadata: [String: String]
  /// Names of the tensors stored as 64-bit integers (I64) rather than F32.
  public var integerTensors: Set<String>

  public init(
    tensors: [String: Tensor], metadata: [String: String] = [:], integerTensors: Set<String> = []
  ) {
    precondition(tensors["__metadata__"] == nil, "__metadata__ is not a valid tensor name")
    self.tensors = tensors
    self.metadata = metadata
    self.integerTensors = integerTensors
  }

  /// The file's bytes. Deterministic: tensors are stored in name order, the header JSON has
  /// sorted keys and no insignificant whitespace, and it is padded with spaces to a multiple of
  /// 8 bytes so the data section starts aligned.
  public func encoded() -> [UInt8] {
    let names = tensors.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    var header: [String: HeaderValue] = [:]
    var offset = 0
    for name in names {
      let t = tensors[name]!
      let width = integerTensors.contains(name) ? 8 : 4
      header[name] = .tensor(
        TensorEntry(
          dtype: width == 8 ? "I64" : "F32", shape: t.shape,
          data_offsets: [offset, offset + width * t.count]))
      offset += width * t.count
    }
    if !metadata.isEmpty { header["__metadata__"] = .metadata(metadata) }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding strings and integers cannot fail.
    var json = [UInt8](try! encoder.encode(header))
    while json.count % 8 != 0 { json.append(0x20) }

    var bytes = [UInt8]()
    bytes.reserveCapacity(8 + json.count + offset)
    withUnsafeBytes(of: UInt64(json.count).littleEndian) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: json)
    for name in names {
      if integerTensors.contains(name) {
        for v in tensors[name]!.data {
          let i = v.isFinite ? Int64(max(-9.0e18, min(9.0e18, v))) : 0
          withUnsafeBytes(of: i.littleEndian) { bytes.append(contentsOf: $0) }
        }
        continue
      }
      for v in tensors[name]!.data {
        withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
      }
    }
    return bytes
  }

  /// Writes `encoded()` to `url` with `DurableFile`: readers and crashes see the old file or
  /// the whole new one, and an existing file keeps its permissions.
  /// - Throws: `ModelFileError` with `.writeFailed` naming the file and the system's reason.
  public func write(to url: URL) throws(ModelFileError) {
    do {
      try DurableFile(url.path).write(encoded())
    } catch {
      throw ModelFileError(path: url.path, problem: .writeFailed(reason: error.reason))
    }
  }

  private struct TensorEntry: Encodable {
    var dtype: String
    var shape: [Int]
    var data_offsets: [Int]
  }

  private enum HeaderValue: Encodable {
    case tensor(TensorEntry)
    case metadata([String: String])
    func encode(to encoder: any Encoder) throws {
      switch self {
      case .tensor(let t): try t.encode(to: encoder)
      case .metadata(let m): try m.encode(to: encoder)
      }
    }
  }
}
