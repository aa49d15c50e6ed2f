import FoundationEssentials
import LeamojiCore

extension SafetensorsFile {
  /// Header lengths above this are rejected as corrupt (the reference implementation's limit).
  public static let maxHeaderLength = 100_000_000

  /// Reads and validates a safetensors file of float32 tensors.
  /// - Throws: `ModelFileError` naming `url.path`: missing, unreadable, or any structural problem
  ///   listed by `decode(_:path:)`.
  public static func read(contentsOf url: URL) throws(ModelFileError) -> SafetensorsFile {
    try decode(readBytes(url), path: url.path)
  }

  /// The bytes of a file, with missing and unreadable files told apart.
  static func readBytes(_ url: URL) throws(ModelFileError) -> [UInt8] {
    var isDirectory = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      throw ModelFileError(path: url.path, problem: .fileNotFound)
    }
    if isDirectory {
      throw ModelFileError(path: url.path, problem: .unreadable(reason: "it is a directory"))
    }
    do {
      return [UInt8](try Data(contentsOf: url))
    } catch {
      throw ModelFileError(path: url.path, problem: .unreadable(reason: ErrorText.describe(error)))
    }
  }

  /// Parses and validates safetensors bytes. Never traps, whatever the bytes.
  /// - Parameters:
  ///   - bytes: the whole file.
  ///   - path: the file name used in errors.
  /// - Throws: `ModelFileError` for: fewer than 8 bytes; a header length past the end (or over
  ///   `maxHeaderLength`); a header that is not JSON or not an object; a malformed tensor
  ///   entry; a dtype other than F32 or I64 (read as floats; PyTorch's integer buffers such as
  ///   `num_batches_tracked`); a shape that disagrees with its byte range; overlapping
  ///   tensors, holes or trailing bytes in the data section; a tensor past its end; metadata
  ///   that is not strings.
  public static func decode(_ bytes: [UInt8], path: String) throws(ModelFileError)
    -> SafetensorsFile
  {
    func fail(_ p: ModelFileError.Problem) -> ModelFileError {
      ModelFileError(path: path, problem: p)
    }

    let (header, headerEnd) = try Self.header(bytes, fail: fail)

    let dataSize = bytes.count - headerEnd
    var metadata: [String: String] = [:]
    var entries: [(name: String, shape: [Int], begin: Int, end: Int)] = []
    var integers: Set<String> = []
    for (name, value) in header {
      if name == "__metadata__" {
        guard case .object(let fields) = value else {
          throw fail(.metadataNotStrings(reason: "it is \(value.kind)"))
        }
        for (key, v) in fields {
          guard case .string(let s) = v else {
            throw fail(.metadataNotStrings(reason: "\"\(key)\" is \(v.kind)"))
          }
          metadata[key] = s
        }
        continue
      }
      let e = try parseEntry(name, value, fail: fail)
      entries.append((name, e.shape, e.begin, e.end))
      if e.integer { integers.insert(name) }
    }

    // Every byte of the data section belongs to exactly one tensor, in offset order.
    entries.sort { ($0.begin, $0.end, $0.name) < ($1.begin, $1.end, $1.name) }
    for e in entries where e.end > dataSize {
      throw fail(.tensorOutsideData(tensor: e.name, end: e.end, dataSize: dataSize))
    }
    var expected = 0
    var previous: String? = nil
    for e in entries {
      if e.begin < expected { throw fail(.overlappingTensors(previous ?? "?", e.name)) }
      if e.begin > expected { throw fail(.gapInData(after: previous, offset: expected)) }
      expected = e.end
      previous = e.name
    }
    if expected != dataSize { throw fail(.gapInData(after: previous, offset: expected)) }

    var tensors: [String: Tensor] = [:]
    bytes.withUnsafeBytes { raw in
      for e in entries {
        let integer = integers.contains(e.name)
        let count = (e.end - e.begin) / (integer ? 8 : 4)
        let start = headerEnd + e.begin
        let values = [Float](unsafeUninitializedCapacity: count) { buf, initialized in
          for i in 0..<count where integer {
            let bits = raw.loadUnaligned(fromByteOffset: start + 8 * i, as: UInt64.self)
            buf[i] = Float(Int64(bitPattern: UInt64(littleEndian: bits)))
          }
          for i in 0..<count where !integer {
            let bits = raw.loadUnaligned(fromByteOffset: start + 4 * i, as: UInt32.self)
            buf[i] = Float(bitPattern: UInt32(littleEndian: bits))
          }
          initialized = count
        }
        tensors[e.name] = Tensor(shape: e.shape, data: values)
      }
    }
    return SafetensorsFile(tensors: tensors, metadata: metadata, integerTensors: integers)
  }

  /// The `__metadata__` strings of safetensors bytes, reading only the header: for telling
  /// which model a file is (its card's `model_version`) without decoding its tensors.
  /// - Throws: `ModelFileError`: the header problems of `decode(_:path:)` and metadata that
  ///   is not strings.
  public static func metadata(_ bytes: [UInt8], path: String) throws(ModelFileError)
    -> [String: String]
  {
    func fail(_ p: ModelFileError.Problem) -> ModelFileError {
      ModelFileError(path: path, problem: p)
    }
    let (header, _) = try Self.header(bytes, fail: fail)
    guard let value = header["__metadata__"] else { return [:] }
    guard case .object(let fields) = value else {
      throw fail(.metadataNotStrings(reason: "it is \(value.kind)"))
    }
    var metadata: [String: String] = [:]
    for (key, v) in fields {
      guard case .string(let s) = v else {
        throw fail(.metadataNotStrings(reason: "\"\(key)\" is \(v.kind)"))
      }
      metadata[key] = s
    }
    return metadata
  }

  /// The header object and where the data section starts.
  private static func header(
    _ bytes: [UInt8], fail: (ModelFileError.Problem) -> ModelFileError
  ) throws(ModelFileError) -> (header: [String: JSONValue], headerEnd: Int) {
    guard bytes.count >= 8 else { throw fail(.truncated(size: bytes.count)) }
    var length: UInt64 = 0
    for i in (0..<8).reversed() { length = length << 8 | UInt64(bytes[i]) }
    let available = bytes.count - 8
    guard length <= UInt64(min(available, maxHeaderLength)) else {
      throw fail(.headerLengthOutOfRange(length: length, available: available))
    }
    let headerEnd = 8 + Int(length)

    let root: JSONValue
    do {
      root = try JSONDecoder().decode(JSONValue.self, from: Data(bytes[8..<headerEnd]))
    } catch {
      throw fail(.headerNotJSON(reason: Self.shortReason(error)))
    }
    guard case .object(let header) = root else { throw fail(.headerNotObject) }
    return (header, headerEnd)
  }

  /// Checks one tensor entry: `dtype` F32 (or I64, 8 bytes per element), `shape` of non-negative integers, `data_offsets`
  /// `[begin, end]` with `begin <= end` and `end - begin == 4 * elements` (overflow-checked).
  private static func parseEntry(
    _ name: String, _ value: JSONValue, fail: (ModelFileError.Problem) -> ModelFileError
  ) throws(ModelFileError) -> (shape: [Int], begin: Int, end: Int, integer: Bool) {
    func malformed(_ r: String) -> ModelFileError {
      fail(.malformedTensorEntry(tensor: name, reason: r))
    }
    guard case .object(let fields) = value else {
      throw malformed("entry is \(value.kind), expected an object")
    }
    guard case .string(let dtype)? = fields["dtype"] else {
      throw malformed("missing string \"dtype\"")
    }
    guard case .array(let dims)? = fields["shape"] else {
      throw malformed("missing array \"shape\"")
    }
    guard case .array(let offsets)? = fields["data_offsets"] else {
      throw malformed("missing array \"data_offsets\"")
    }
    var shape: [Int] = []
    for d in dims {
      guard case .int(let n) = d, n >= 0 else {
        throw malformed("shape must hold non-negative integers")
      }
      shape.append(n)
    }
    guard offsets.count == 2, case .int(let begin) = offsets[0], case .int(let end) = offsets[1],
      begin >= 0, begin <= end
    else { throw malformed("data_offsets must be [begin, end] with 0 <= begin <= end") }
    guard dtype == "F32" || dtype == "I64" else {
      throw fail(.unsupportedDType(tensor: name, dtype: dtype))
    }
    let (bytes, overflow) = (Tensor.checkedElementCount(shape) ?? Int.max)
      .multipliedReportingOverflow(by: dtype == "I64" ? 8 : 4)
    guard !overflow, bytes == end - begin else {
      throw fail(.shapeMismatchesData(tensor: name, shape: shape, byteCount: end - begin))
    }
    return (shape, begin, end, dtype == "I64")
  }

  /// A decoding error squeezed onto one short line.
  static func shortReason(_ error: any Error) -> String {
    var text: String
    switch error {
    case DecodingError.dataCorrupted(let c): text = c.debugDescription
    case let e as DecodingError: text = "\(e)"
    default: text = ErrorText.describe(error)
    }
    if let underlying = (error as? DecodingError).flatMap({ e -> (any Error)? in
      if case .dataCorrupted(let c) = e { return c.underlyingError }
      return nil
    }) {
      text += " (\(ErrorText.describe(underlying)))"
    }
    let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
    return line.count > 200 ? String(line.prefix(200)) + "…" : line
  }
}
