import FoundationEssentials

/// A leamoji model file, read up to its network: a safetensors container whose `__metadata__`
/// says how to build the network (`format`, `version`, `input`, `layers`) and whose tensors are
/// the network's parameters, named as in PyTorch (`conv1.weight`).
///
/// Every other metadata entry belongs to the caller (the classifier keeps its labels, input
/// normalisation and emoji there); `json(_:as:)` reads them and reports their problems in the
/// same `ModelFileError` terms. Reading goes step by step — `open`, then the entries in the
/// caller's order, then `network` — so that a file with several problems is always reported
/// for the same first one.
public struct ModelFile: Sendable {
  /// The `format` metadata value of leamoji model files.
  public static let format = "leamoji-cnn"
  /// The model file version of networks made only of the first layer types (conv2d, relu,
  /// maxpool2d, globalavgpool, flatten, linear): such files are still written as version 1,
  /// byte for byte as before.
  public static let version = "1"
  /// The version of files whose network has a batch norm or dropout (`batchnorm2d`,
  /// `dropout` layers and their buffers); version 1 readers refuse them with a clear
  /// "unsupported version".
  public static let version2 = "2"
  /// The version of files whose network has MobileNet-style layers (grouped or "same"-padded
  /// `conv2d`, `relu6`, `residual`).
  public static let version3 = "3"
  /// Every version this code reads.
  public static let readableVersions: Set<String> = [version, version2, version3]
  /// The version text for a network made of `specs`: its layers' highest required version.
  static func version(for specs: [LayerSpec]) -> String {
    String(specs.map(\.requiredVersion).max() ?? 1)
  }

  /// The file as the caller named it; every error names it.
  public let path: String
  /// The container: tensors and metadata strings.
  public let contents: SafetensorsFile

  /// Reads the file at `path` and checks its structure, format and version.
  /// - Throws: `ModelFileError` naming `path` as given: `fileNotFound`, `unreadable`, and the
  ///   problems of `open(_:path:)`.
  public static func open(path: String) throws(ModelFileError) -> ModelFile {
    try open(readBytes(path: path), path: path)
  }

  /// The bytes of the file at `path`, unchecked.
  /// - Throws: `ModelFileError` naming `path` as given: `fileNotFound`, `unreadable`.
  public static func readBytes(path: String) throws(ModelFileError) -> [UInt8] {
    do {
      return try SafetensorsFile.readBytes(URL(fileURLWithPath: path))
    } catch {
      throw ModelFileError(path: path, problem: error.problem)
    }
  }

  /// Checks the bytes of a model file: its safetensors structure, then `format` and `version`.
  /// Never traps, whatever the bytes.
  /// - Throws: `ModelFileError`: every structural problem of `SafetensorsFile.decode`, then
  ///   `missingMetadata`, `wrongFormat`, `unsupportedVersion`.
  public static func open(_ bytes: [UInt8], path: String) throws(ModelFileError) -> ModelFile {
    let file = ModelFile(path: path, contents: try SafetensorsFile.decode(bytes, path: path))
    let format = try file.entry("format")
    guard format == ModelFile.format else { throw file.failure(.wrongFormat(found: format)) }
    let version = try file.entry("version")
    guard ModelFile.readableVersions.contains(version) else {
      throw file.failure(.unsupportedVersion(found: version))
    }
    return file
  }

  /// An error about this file.
  public func failure(_ problem: ModelFileError.Problem) -> ModelFileError {
    ModelFileError(path: path, problem: problem)
  }

  /// The metadata entry `key`.
  /// - Throws: `ModelFileError` `.missingMetadata` when there is none.
  public func entry(_ key: String) throws(ModelFileError) -> String {
    guard let value = contents.metadata[key] else { throw failure(.missingMetadata(key: key)) }
    return value
  }

  /// The metadata entry `key` decoded as JSON.
  /// - Throws: `ModelFileError`: `.missingMetadata`, or `.malformedMetadata` when the text is
  ///   not JSON of that type.
  public func json<T: Decodable>(_ key: String, as type: T.Type) throws(ModelFileError) -> T {
    let text = try entry(key)
    do {
      return try JSONDecoder().decode(T.self, from: Data(text.utf8))
    } catch {
      throw failure(.malformedMetadata(key: key, reason: SafetensorsFile.shortReason(error)))
    }
  }

  /// The network's input shape from `input` (`CxHxW`, e.g. `3x64x64`), with `channels`
  /// channels and a height and width of 1 to 4096.
  /// - Throws: `ModelFileError`: `.missingMetadata` or `.malformedMetadata` for `input`.
  public func inputShape(channels: Int) throws(ModelFileError) -> [Int] {
    let text = try entry("input")
    let dims = text.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
    guard dims.count == 3, let c = dims[0], let h = dims[1], let w = dims[2], c == channels,
      (1...4096).contains(h), (1...4096).contains(w)
    else {
      throw failure(.malformedMetadata(key: "input", reason: "\"\(text)\" is not \(channels)xHxW"))
    }
    return [c, h, w]
  }

  /// The layer descriptions of `layers`, decoded but not yet checked (see `network`).
  /// - Throws: `ModelFileError`: `.missingMetadata` or `.malformedMetadata` for `layers`.
  public func layers() throws(ModelFileError) -> [LayerSpec] {
    try json("layers", as: [LayerSpec].self)
  }

  /// The network the layer descriptions build for `inputShape`, with the file's tensors as its
  /// parameters.
  /// - Throws: `ModelFileError`: `invalidLayers` (a bad description, a parameter named twice,
  ///   layers that do not chain), `missingTensor`, `tensorShapeMismatch`, `unexpectedTensor`,
  ///   `nonFiniteWeights`, in that order.
  public func network(specs: [LayerSpec], inputShape: [Int]) throws(ModelFileError) -> Network {
    for (i, spec) in specs.enumerated() {
      if let problem = spec.problem {
        throw failure(.invalidLayers(reason: "layer \(i): \(problem)"))
      }
    }
    if let stated = (try? entry("version")).flatMap({ Int($0) }),
      let newer = specs.first(where: { $0.requiredVersion > stated })
    {
      throw failure(
        .invalidLayers(reason: "\(newer) needs model file version \(newer.requiredVersion)"))
    }
    let all = specs.flatMap { $0.parameterShapes + $0.bufferShapes }
    var expected: [String: [Int]] = [:]
    for (name, shape) in all {
      guard expected.updateValue(shape, forKey: name) == nil else {
        throw failure(.invalidLayers(reason: "parameter \(name) appears twice"))
      }
    }
    let tensors = contents.tensors
    for (name, shape) in all {
      guard let t = tensors[name] else { throw failure(.missingTensor(name: name)) }
      guard t.shape == shape else {
        throw failure(.tensorShapeMismatch(name: name, expected: shape, found: t.shape))
      }
    }
    if let extra = tensors.keys.sorted().first(where: { expected[$0] == nil }) {
      throw failure(.unexpectedTensor(name: extra))
    }
    if let bad = tensors.keys.sorted().first(where: { !tensors[$0]!.isFinite }) {
      throw failure(.nonFiniteWeights(tensor: bad))
    }
    do {
      return try Network(specs: specs, inputShape: inputShape, parameters: tensors)
    } catch {
      throw failure(.invalidLayers(reason: error.description))
    }
  }

  // MARK: Writing

  /// The container of a model file: the network's parameters, and `metadata` (the caller's
  /// entries) with `format`, `version`, `input` and `layers` added. Its `encoded()` bytes are
  /// deterministic: the same network and entries always give the same file.
  public static func contents(of network: Network, metadata: [String: String]) -> SafetensorsFile {
    var all = metadata
    all["format"] = format
    all["version"] = version(for: network.specs)
    all["input"] = network.inputShape.map(String.init).joined(separator: "x")
    all["layers"] = jsonEntry(network.specs)
    let integers = network.specs.flatMap(\.integerBufferNames)
    return SafetensorsFile(
      tensors: network.namedTensors, metadata: all, integerTensors: Set(integers))
  }

  /// A metadata entry's text: compact JSON with sorted keys and unescaped slashes.
  /// - Precondition: `value` encodes (strings, integers, finite numbers, layer descriptions).
  public static func jsonEntry<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    do {
      return String(decoding: try encoder.encode(value), as: UTF8.self)
    } catch {
      preconditionFailure("model file metadata must encode: \(error)")
    }
  }
}
