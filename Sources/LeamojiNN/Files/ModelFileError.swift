/// Why a model (safetensors) file cannot be read or written. Every case names the file in its
/// one-line `description`, e.g.
/// `Models/leamoji.safetensors: tensor conv1.weight has dtype F16; only F32 is supported`.
public struct ModelFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file as the caller named it.
  public let path: String
  /// What is wrong with it.
  public let problem: Problem

  public init(path: String, problem: Problem) {
    self.path = path
    self.problem = problem
  }

  /// Whether there is no file to read (missing or unreadable) rather than a file that is not a
  /// usable model: front ends answer the two differently (no input, bad input).
  public var isMissingInput: Bool {
    switch problem {
    case .fileNotFound, .unreadable: true
    default: false
    }
  }

  /// Each distinct way a model file can be wrong.
  public enum Problem: Equatable, Sendable {
    /// No file at the path.
    case fileNotFound
    /// The file exists but cannot be read (permissions, a directory, I/O error).
    case unreadable(reason: String)
    /// Fewer than the 8 bytes of the header length.
    case truncated(size: Int)
    /// The header length points past the end of the file or is absurdly large.
    case headerLengthOutOfRange(length: UInt64, available: Int)
    /// The header bytes are not valid UTF-8 JSON.
    case headerNotJSON(reason: String)
    /// The header is JSON but not an object.
    case headerNotObject
    /// A tensor entry lacks `dtype` / `shape` / `data_offsets` or has values of the wrong kind.
    case malformedTensorEntry(tensor: String, reason: String)
    /// A dtype other than F32.
    case unsupportedDType(tensor: String, dtype: String)
    /// The shape's element count times 4 bytes is not the length given by `data_offsets`.
    case shapeMismatchesData(tensor: String, shape: [Int], byteCount: Int)
    /// Two tensors claim some of the same bytes.
    case overlappingTensors(String, String)
    /// Bytes of the data section belong to no tensor (a hole, or trailing bytes); `after` is the
    /// tensor before the hole (nil when the hole is at the start).
    case gapInData(after: String?, offset: Int)
    /// A tensor's bytes end beyond the data section.
    case tensorOutsideData(tensor: String, end: Int, dataSize: Int)
    /// `__metadata__` is not an object of strings.
    case metadataNotStrings(reason: String)
    /// A required `__metadata__` entry is absent.
    case missingMetadata(key: String)
    /// A `__metadata__` entry is present but unusable.
    case malformedMetadata(key: String, reason: String)
    /// `format` is not `leamoji-cnn`: some other safetensors file.
    case wrongFormat(found: String)
    /// A `version` this reader does not know.
    case unsupportedVersion(found: String)
    /// The `layers` description does not form a valid network for the `input` shape.
    case invalidLayers(reason: String)
    /// A parameter the `layers` description needs is not in the file.
    case missingTensor(name: String)
    /// A tensor in the file belongs to no layer.
    case unexpectedTensor(name: String)
    /// A tensor's shape differs from the one its layer description implies.
    case tensorShapeMismatch(name: String, expected: [Int], found: [Int])
    /// A weight is NaN or infinite.
    case nonFiniteWeights(tensor: String)
    /// Writing the file failed.
    case writeFailed(reason: String)

    /// The one-line explanation (without the path).
    public var message: String {
      switch self {
      case .fileNotFound: return "no such file"
      case .unreadable(let r): return "cannot read the file: \(r)"
      case .truncated(let n):
        return "truncated file: \(n) bytes, a safetensors file needs at least 8"
      case .headerLengthOutOfRange(let l, let a):
        return
          "header length \(l) does not fit the \(a) bytes after it (corrupt or not safetensors)"
      case .headerNotJSON(let r): return "header is not valid JSON: \(r)"
      case .headerNotObject: return "header is not a JSON object"
      case .malformedTensorEntry(let t, let r): return "tensor \(t): \(r)"
      case .unsupportedDType(let t, let d):
        return "tensor \(t) has dtype \(d); only F32 is supported"
      case .shapeMismatchesData(let t, let s, let b):
        return "tensor \(t): shape \(s) does not match its \(b) data bytes"
      case .overlappingTensors(let a, let b):
        return "tensors \(a) and \(b) overlap in the data section"
      case .gapInData(let after, let o):
        return "unused bytes at data offset \(o)" + (after.map { " after tensor \($0)" } ?? "")
      case .tensorOutsideData(let t, let e, let d):
        return "tensor \(t) ends at byte \(e), past the \(d)-byte data section"
      case .metadataNotStrings(let r): return "__metadata__ must map strings to strings: \(r)"
      case .missingMetadata(let k): return "missing metadata entry \"\(k)\""
      case .malformedMetadata(let k, let r): return "metadata entry \"\(k)\" is malformed: \(r)"
      case .wrongFormat(let f):
        return "not a leamoji model (format \"\(f)\", expected \"leamoji-cnn\")"
      case .unsupportedVersion(let v):
        return "unsupported model version \"\(v)\" (this leamoji reads version 1)"
      case .invalidLayers(let r): return "layer description is invalid: \(r)"
      case .missingTensor(let n): return "missing tensor \(n)"
      case .unexpectedTensor(let n): return "tensor \(n) belongs to no layer"
      case .tensorShapeMismatch(let n, let e, let f):
        return "tensor \(n) has shape \(f), the layers need \(e)"
      case .nonFiniteWeights(let t): return "tensor \(t) contains NaN or infinite values"
      case .writeFailed(let r): return "cannot write the file: \(r)"
      }
    }
  }

  public var description: String {
    let line = "\(path): \(problem.message)"
    return line.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}
