import LeamojiNN

/// Why a model file cannot be read or written (one line naming the file). The type belongs to
/// the network's file layer; it is named here so that users of the classifier need nothing else.
public typealias ModelFileError = LeamojiNN.ModelFileError

/// Classifier ⇄ model file. The network's layer (`ModelFile`) keeps `format`, `version`,
/// `input`, `layers` and the parameters; the classifier adds its own metadata entries, each a
/// JSON text: `labels` (names in output order), `mean` and `std` (the input normalisation) and
/// `emoji` (label name → emoji); and the model card's entries (`ModelCard`), when known.
extension Classifier {
  /// Reads and fully checks the model file at `path`.
  /// - Throws: `ModelFileError` naming `path` as given, one case per problem (see `decode`).
  public init(contentsOf path: String) throws(ModelFileError) {
    self = try Classifier.decode(ModelFile.open(path: path))
  }

  /// Reads the model file at `path` once and keeps its bytes, so that what is said about the
  /// file (its SHA-256 in MovieData.json) is about the very bytes the classifier was built from.
  /// - Throws: `ModelFileError` as `init(contentsOf:)`.
  public static func read(path: String) throws(ModelFileError) -> (
    classifier: Classifier, bytes: [UInt8]
  ) {
    let bytes = try ModelFile.readBytes(path: path)
    return (try decode(bytes, path: path), bytes)
  }

  /// Checks model file bytes and builds the classifier. Never traps, whatever the bytes.
  /// - Throws: `ModelFileError`: the structural, format and version problems of
  ///   `ModelFile.open`, then `missingMetadata` / `malformedMetadata` for `labels`, `input`,
  ///   `mean`, `std`, `layers` and `emoji` in that order, then the layer and tensor problems of
  ///   `ModelFile.network`, then a label count that is not the network's output count, then a
  ///   malformed model card entry (`created`, `training_data`, `training`, `accuracy`).
  public static func decode(_ bytes: [UInt8], path: String) throws(ModelFileError) -> Classifier {
    try decode(ModelFile.open(bytes, path: path))
  }

  private static func decode(_ file: ModelFile) throws(ModelFileError) -> Classifier {
    let labels = try file.json("labels", as: [String].self)
    guard !labels.isEmpty, Set(labels).count == labels.count, labels.allSatisfy({ !$0.isEmpty })
    else {
      throw file.failure(.malformedMetadata(key: "labels", reason: "need unique, non-empty labels"))
    }
    let inputShape = try file.inputShape(channels: 3)
    func statistics(_ key: String, positive: Bool) throws(ModelFileError) -> [Float] {
      let values = try file.json(key, as: [Double].self).map { Float($0) }
      guard values.count == 3, values.allSatisfy({ $0.isFinite && (!positive || $0 > 0) }) else {
        let kind = positive ? "finite positive" : "finite"
        throw file.failure(
          .malformedMetadata(key: key, reason: "need 3 \(kind) numbers, got \(values)"))
      }
      return values
    }
    let mean = try statistics("mean", positive: false)
    let std = try statistics("std", positive: true)
    let specs = try file.layers()
    let emoji = try file.json("emoji", as: [String: String].self)
    let network = try file.network(specs: specs, inputShape: inputShape)
    guard labels.count == network.classCount else {
      throw file.failure(
        .malformedMetadata(
          key: "labels",
          reason: "\(labels.count) labels but the network has \(network.classCount) outputs"))
    }
    let card = try ModelCard.read(from: file)
    do {
      return try Classifier(
        network: network, labelNames: labels,
        normalisation: InputNormalisation(mean: mean, std: std), emoji: emoji
      ).with(card: card)
    } catch {
      throw file.failure(.invalidLayers(reason: error.description))
    }
  }

  /// The model file's container: parameters by PyTorch name, metadata strings.
  public var fileContents: SafetensorsFile {
    var metadata = card.metadataEntries
    metadata["labels"] = ModelFile.jsonEntry(labelNames)
    metadata["mean"] = ModelFile.jsonEntry(normalisation.mean)
    metadata["std"] = ModelFile.jsonEntry(normalisation.std)
    metadata["emoji"] = ModelFile.jsonEntry(emojiEntry)
    return ModelFile.contents(of: network, metadata: metadata)
  }

  /// The model file's bytes. Deterministic: the same classifier always gives the same bytes,
  /// and a file that leamoji wrote, read and encoded again, gives its own bytes back.
  public func encoded() -> [UInt8] { fileContents.encoded() }
}
