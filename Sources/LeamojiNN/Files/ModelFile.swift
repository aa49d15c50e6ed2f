import Foundation

/// Model ⇄ safetensors file: parameters as tensors, everything else as `__metadata__` strings
/// (`format`, `version`, `labels`, `input`, `mean`, `std`, `layers`, `emoji`).
extension Model {
  /// The model as a safetensors container (parameters by PyTorch name, metadata strings).
  public var safetensors: SafetensorsFile {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    func json<T: Encodable>(_ value: T) -> String {
      // Strings, finite floats, integers and layer specs always encode.
      String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
    let s = network.inputShape
    return SafetensorsFile(
      tensors: network.namedParameters,
      metadata: [
        "format": Model.format,
        "version": Model.version,
        "labels": json(labels),
        "input": "\(s[0])x\(s[1])x\(s[2])",
        "mean": json(mean),
        "std": json(std),
        "layers": json(network.specs),
        "emoji": json(emoji),
      ])
  }

  /// The model file's bytes (deterministic: the same model always gives the same bytes).
  public func encoded() -> [UInt8] { safetensors.encoded() }

  /// Writes the model file atomically.
  /// - Throws: `ModelFileError` (`.writeFailed`) naming the file.
  public func write(to url: URL) throws(ModelFileError) { try safetensors.write(to: url) }

  /// Reads and fully validates a model file.
  /// - Throws: `ModelFileError` naming `url.path`, one case per problem (see `decode`).
  public static func read(from url: URL) throws(ModelFileError) -> Model {
    try decode(SafetensorsFile.readBytes(url), path: url.path)
  }

  /// Validates model file bytes and builds the model. Never traps, whatever the bytes.
  /// - Throws: `ModelFileError`: every structural problem of `SafetensorsFile.decode`, then
  ///   `wrongFormat`, `unsupportedVersion`, `missingMetadata` / `malformedMetadata` for each
  ///   entry, `invalidLayers`, `missingTensor`, `tensorShapeMismatch`, `unexpectedTensor`,
  ///   `nonFiniteWeights`.
  public static func decode(_ bytes: [UInt8], path: String) throws(ModelFileError) -> Model {
    let file = try SafetensorsFile.decode(bytes, path: path)
    func fail(_ p: ModelFileError.Problem) -> ModelFileError { ModelFileError(path: path, problem: p) }
    func entry(_ key: String) throws(ModelFileError) -> String {
      guard let v = file.metadata[key] else { throw fail(.missingMetadata(key: key)) }
      return v
    }
    func parse<T: Decodable>(_ key: String, as type: T.Type) throws(ModelFileError) -> T {
      let text = try entry(key)
      do {
        return try JSONDecoder().decode(T.self, from: Data(text.utf8))
      } catch {
        throw fail(.malformedMetadata(key: key, reason: SafetensorsFile.shortReason(error)))
      }
    }

    let format = try entry("format")
    guard format == Model.format else { throw fail(.wrongFormat(found: format)) }
    let version = try entry("version")
    guard version == Model.version else { throw fail(.unsupportedVersion(found: version)) }

    let labels = try parse("labels", as: [String].self)
    guard !labels.isEmpty, Set(labels).count == labels.count, labels.allSatisfy({ !$0.isEmpty }) else {
      throw fail(.malformedMetadata(key: "labels", reason: "need unique, non-empty labels"))
    }
    let inputText = try entry("input")
    let dims = inputText.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
    guard dims.count == 3, let c = dims[0], let h = dims[1], let w = dims[2], c == 3,
      (1...4096).contains(h), (1...4096).contains(w)
    else { throw fail(.malformedMetadata(key: "input", reason: "\"\(inputText)\" is not 3xHxW")) }

    func statistics(_ key: String, positive: Bool) throws(ModelFileError) -> [Float] {
      let values = try parse(key, as: [Double].self).map { Float($0) }
      guard values.count == 3, values.allSatisfy({ $0.isFinite && (!positive || $0 > 0) }) else {
        throw fail(.malformedMetadata(
          key: key, reason: "need 3 finite\(positive ? " positive" : "") numbers, got \(values)"))
      }
      return values
    }
    let mean = try statistics("mean", positive: false)
    let std = try statistics("std", positive: true)
    let specs = try parse("layers", as: [LayerSpec].self)
    let emoji = try parse("emoji", as: [String: String].self)

    for (i, spec) in specs.enumerated() {
      if let problem = spec.problem { throw fail(.invalidLayers(reason: "layer \(i): \(problem)")) }
    }
    var expected: [String: [Int]] = [:]
    for (name, shape) in specs.flatMap(\.parameterShapes) {
      guard expected.updateValue(shape, forKey: name) == nil else {
        throw fail(.invalidLayers(reason: "parameter \(name) appears twice"))
      }
    }
    for (name, shape) in specs.flatMap(\.parameterShapes) {
      guard let t = file.tensors[name] else { throw fail(.missingTensor(name: name)) }
      guard t.shape == shape else { throw fail(.tensorShapeMismatch(name: name, expected: shape, found: t.shape)) }
    }
    if let extra = file.tensors.keys.sorted().first(where: { expected[$0] == nil }) {
      throw fail(.unexpectedTensor(name: extra))
    }
    if let bad = file.tensors.keys.sorted().first(where: { !file.tensors[$0]!.isFinite }) {
      throw fail(.nonFiniteWeights(tensor: bad))
    }

    let network: Network
    do {
      network = try Network(specs: specs, inputShape: [c, h, w], parameters: file.tensors)
    } catch {
      throw fail(.invalidLayers(reason: error.description))
    }
    guard labels.count == network.classCount else {
      throw fail(.malformedMetadata(
        key: "labels", reason: "\(labels.count) labels but the network has \(network.classCount) outputs"))
    }
    do {
      return try Model(network: network, labels: labels, mean: mean, std: std, emoji: emoji)
    } catch {
      throw fail(.invalidLayers(reason: error.description))
    }
  }
}
