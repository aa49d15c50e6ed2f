import FoundationEssentials
import LeamojiCore
import LeamojiNN

/// What a model file says about itself, like Create ML's model metadata: who made it and why,
/// under which licence, when, from which data, how it was trained and how well it did.
///
/// Every field is optional: files written before the card existed have none, and they load as
/// before (`leamoji model` prints what is known). The card lives in the safetensors
/// `__metadata__` next to the network's entries, one key per part (see docs/model-file.md):
/// `author`, `description`, `license`, `model_version`, `created`, `evaluation` and
/// `scary_threshold` (a decimal number) as plain strings and `training_data`, `training`,
/// `accuracy` as JSON objects.
public struct ModelCard: Codable, Equatable, Sendable {
  /// Who made the model.
  public var author: String?
  /// What the model is for, in a sentence or two.
  public var description: String?
  /// The model's licence, e.g. `MIT` or `CC-BY-4.0`.
  public var license: String?
  /// The model's own version (not the file format's `version`), e.g. `1.2`.
  public var modelVersion: String?
  /// When it was made, as ISO 8601 UTC (`2026-11-23T17:00:00Z`).
  public var created: String?
  /// The images it was trained on.
  public var trainingData: TrainingData?
  /// How it was trained.
  public var training: TrainingRecord?
  /// How well it did.
  public var accuracy: Accuracy?
  /// What it was checked on beyond its own images, and the figures (free text).
  public var evaluation: String?
  /// The scary probability from which `analyze` calls a second scary by default, as its makers
  /// tuned it on their check set; nil: the most probable label.
  public var scaryThreshold: Double?
  /// The thresholds of `--sensitivity high` and `low`, tuned with `scaryThreshold`; nil: half
  /// of it and half-way to 1.
  public var scaryThresholdHigh: Double?
  public var scaryThresholdLow: Double?
  /// How the timeline joins the picture with sound and pace; nil: `FusionSettings.standard`.
  public var fusion: FusionSettings?

  /// The training images: how many per label, and a digest that changes when any file name
  /// does (SHA-256 of the sorted `label-folder/file` paths, one per line).
  public struct TrainingData: Codable, Equatable, Sendable {
    public var counts: [String: Int]
    public var files: Int
    public var sha256: String

    public init(counts: [String: Int], files: Int, sha256: String) {
      self.counts = counts
      self.files = files
      self.sha256 = sha256
    }

    /// The summary of `images`, whose paths lie under `root` (the paths are taken relative to
    /// it, so moving the folder does not change the digest).
    public init(images: ImageSet, root: String) {
      self.init(
        paths: images.paths, labels: images.labels, labelNames: images.labelNames, root: root)
    }

    /// The same summary of the images behind a feature set (`train --backbone`).
    public init(features: FeatureSet, root: String) {
      self.init(
        paths: features.paths, labels: features.labels, labelNames: features.labelNames,
        root: root)
    }

    init(paths: [String], labels: [Int], labelNames: [String], root: String) {
      let prefix = root.hasSuffix("/") ? root : root + "/"
      let relative = paths.map {
        $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0
      }
      var counts: [String: Int] = [:]
      for label in labels { counts[labelNames[label], default: 0] += 1 }
      self.init(
        counts: counts, files: paths.count,
        sha256: SHA256.hex(Array(relative.sorted().joined(separator: "\n").utf8)))
    }
  }

  /// The training run.
  public struct TrainingRecord: Codable, Equatable, Sendable {
    public var epochs: Int
    /// The epoch kept (best validation accuracy).
    public var bestEpoch: Int
    public var seed: UInt64
    public var batchSize: Int
    public var learningRate: Float
    /// Augmentation names, e.g. `["flip","crop"]`.
    public var augmentations: [String]
    /// The model fine-tuned from (`train --init`): its file name and SHA-256.
    public var initFrom: String?
    /// Parameterised layers kept frozen while fine-tuning.
    public var frozenLayers: Int?
    /// The pretrained backbone a head was trained on (`train --backbone`): its file name and
    /// SHA-256.
    public var backbone: String?
    /// Units of the head's hidden layer (0: a linear head); with `backbone` only.
    public var hiddenUnits: Int?
    /// Layers with weights before the backbone's pooling trained with the head
    /// (`train --fine-tune N`).
    public var fineTunedLayers: Int?
    /// The L2 penalty on weights (`train --l2`); absent when none was used.
    public var l2: Float?
    /// A model of two experts and a gate (`train --experts`): the experts' file names and
    /// SHA-256s, primary first; what was trained is the gate (or, with `--init`, the primary).
    public var experts: [String]?
    /// The `--init` model's own version (its card's `model_version`), when it has one.
    public var initVersion: String?
    /// What this run trained of the `--init` model: `head`, or `primary` (its primary expert;
    /// the secondary and the gate kept bit for bit).
    public var retrained: [String]?
    /// The L2-SP penalty that held the retrained head near the `--init` model's (`train
    /// --l2-sp`); absent when none was used.
    public var l2SP: Float?
    /// The card entries taken over from the `--init` model unchanged (its thresholds and
    /// `fusion`: how probabilities become warnings, which this run does not learn).
    public var carried: [String]?

    enum CodingKeys: String, CodingKey {
      case epochs, seed, augmentations, backbone, l2, experts, retrained, carried
      case initVersion = "init_version"
      case l2SP = "l2_sp"
      case bestEpoch = "best_epoch"
      case batchSize = "batch_size"
      case learningRate = "learning_rate"
      case initFrom = "init"
      case frozenLayers = "frozen_layers"
      case hiddenUnits = "hidden_units"
      case fineTunedLayers = "fine_tuned_layers"
    }

    public init(
      epochs: Int, bestEpoch: Int, seed: UInt64, batchSize: Int, learningRate: Float,
      augmentations: [String], initFrom: String? = nil, frozenLayers: Int? = nil
    ) {
      self.epochs = epochs
      self.bestEpoch = bestEpoch
      self.seed = seed
      self.batchSize = batchSize
      self.learningRate = learningRate
      self.augmentations = augmentations
      self.initFrom = initFrom
      self.frozenLayers = frozenLayers
    }
  }

  /// Final accuracies (fractions) of the kept epoch; `test` only when a test folder was scored.
  public struct Accuracy: Codable, Equatable, Sendable {
    public var training: Double?
    public var validation: Double?
    public var test: Double?

    public init(training: Double? = nil, validation: Double? = nil, test: Double? = nil) {
      self.training = training
      self.validation = validation
      self.test = test
    }
  }

  enum CodingKeys: String, CodingKey {
    case author, description, license, created, training, accuracy, evaluation
    case modelVersion = "model_version"
    case trainingData = "training_data"
    case scaryThreshold = "scary_threshold"
    case scaryThresholdHigh = "scary_threshold_high"
    case scaryThresholdLow = "scary_threshold_low"
    case fusion
  }

  public init(
    author: String? = nil, description: String? = nil, license: String? = nil,
    modelVersion: String? = nil, created: String? = nil, trainingData: TrainingData? = nil,
    training: TrainingRecord? = nil, accuracy: Accuracy? = nil, evaluation: String? = nil,
    scaryThreshold: Double? = nil, scaryThresholdHigh: Double? = nil,
    scaryThresholdLow: Double? = nil, fusion: FusionSettings? = nil
  ) {
    self.author = author
    self.description = description
    self.license = license
    self.modelVersion = modelVersion
    self.created = created
    self.trainingData = trainingData
    self.training = training
    self.accuracy = accuracy
    self.evaluation = evaluation
    self.scaryThreshold = scaryThreshold
    self.scaryThresholdHigh = scaryThresholdHigh
    self.scaryThresholdLow = scaryThresholdLow
    self.fusion = fusion
  }

  /// Takes `base`'s decision settings (its three scary thresholds, unless this card sets any
  /// of its own, and its `fusion`): they say how the labels' probabilities become warnings,
  /// which retraining a head does not learn, so a model taught from `base` (`train --init`)
  /// keeps them. The entries taken are listed in `training.carried`.
  mutating func carryDecisions(from base: ModelCard) {
    var carried: [String] = []
    if scaryThreshold == nil, scaryThresholdHigh == nil, scaryThresholdLow == nil {
      scaryThreshold = base.scaryThreshold
      scaryThresholdHigh = base.scaryThresholdHigh
      scaryThresholdLow = base.scaryThresholdLow
      if base.scaryThreshold != nil { carried.append("scary_threshold") }
      if base.scaryThresholdHigh != nil { carried.append("scary_threshold_high") }
      if base.scaryThresholdLow != nil { carried.append("scary_threshold_low") }
    }
    if fusion == nil, let given = base.fusion {
      fusion = given
      carried.append("fusion")
    }
    if !carried.isEmpty { training?.carried = carried }
  }

  /// Whether `p` can be a card's `scaryThreshold` (strictly between 0 and 1).
  public static func isThreshold(_ p: Double) -> Bool { p > 0 && p < 1 }

  /// The scary thresholds of `analyze --sensitivity high` and `low` on a card whose tuned one is
  /// `normal` and that sets no others: half of it, and half-way from it to 1.
  public static func sensitivityDefaults(normal: Double) -> (high: Double, low: Double) {
    (normal / 2, (1 + normal) / 2)
  }

  /// Why a card cannot hold these scary thresholds, worded for the options that set them
  /// (`--scary-threshold`, `-high`, `-low`: `train` and `leamoji-lab card`), or nil: one outside
  /// (0, 1), a high or low one without the normal one, or not high ≤ normal ≤ low, an unset one
  /// taken as `analyze --sensitivity` takes it (half of the normal one, half-way from it to 1).
  public static func thresholdsProblem(normal: Double?, high: Double?, low: Double?) -> String? {
    if let problem = thresholdRangeProblem(normal: normal, high: high, low: low) { return problem }
    guard high != nil || low != nil else { return nil }
    guard let normal else {
      return "--scary-threshold-high and --scary-threshold-low go with --scary-threshold"
    }
    let defaults = sensitivityDefaults(normal: normal)
    let high = high ?? defaults.high
    let low = low ?? defaults.low
    guard high <= normal, normal <= low else {
      return
        "--scary-threshold-high \(high), --scary-threshold \(normal) and --scary-threshold-low \(low) must be probabilities between 0 and 1, in that order"
    }
    return nil
  }

  /// Why one of these scary thresholds, each on its own, cannot be a card's (outside (0, 1)),
  /// worded for its option, or nil.
  public static func thresholdRangeProblem(normal: Double?, high: Double?, low: Double?) -> String?
  {
    for (name, value) in [
      ("--scary-threshold", normal), ("--scary-threshold-high", high),
      ("--scary-threshold-low", low),
    ] {
      if let value, !isThreshold(value) {
        return "\(name) takes a probability between 0 and 1 (got \(value))"
      }
    }
    return nil
  }

  /// What `--created` takes (`train`, `leamoji-lab card`), for the line that refuses a date
  /// `date(parsing:)` does not read.
  public static let createdExpected =
    "--created takes an ISO 8601 date such as 2026-11-23 or 2026-11-23T17:00:00Z, or seconds since 1970"

  /// Whether nothing is known (a file from before the card).
  public var isEmpty: Bool { self == ModelCard() }

  /// The metadata keys the card uses.
  public static let keys = [
    "author", "description", "license", "model_version", "created", "training_data", "training",
    "accuracy", "evaluation", "scary_threshold", "scary_threshold_high", "scary_threshold_low",
    "fusion",
  ]

  /// The card's metadata entries (absent fields are absent keys).
  var metadataEntries: [String: String] {
    var entries: [String: String] = [:]
    entries["author"] = author
    entries["description"] = description
    entries["license"] = license
    entries["model_version"] = modelVersion
    entries["created"] = created
    entries["evaluation"] = evaluation
    entries["scary_threshold"] = scaryThreshold.map { "\($0)" }
    entries["scary_threshold_high"] = scaryThresholdHigh.map { "\($0)" }
    entries["scary_threshold_low"] = scaryThresholdLow.map { "\($0)" }
    if let trainingData { entries["training_data"] = ModelFile.jsonEntry(trainingData) }
    if let training { entries["training"] = ModelFile.jsonEntry(training) }
    if let accuracy { entries["accuracy"] = ModelFile.jsonEntry(accuracy) }
    if let fusion { entries["fusion"] = ModelFile.jsonEntry(fusion) }
    return entries
  }

  /// The card in `file`'s metadata.
  /// - Throws: `ModelFileError.malformedMetadata` for a JSON part that does not decode, or a
  ///   `created` that is not ISO 8601.
  static func read(from file: ModelFile) throws(ModelFileError) -> ModelCard {
    let metadata = file.contents.metadata
    func json<T: Decodable>(_ key: String, _ type: T.Type) throws(ModelFileError) -> T? {
      metadata[key] == nil ? nil : try file.json(key, as: type)
    }
    var card = ModelCard(
      author: metadata["author"], description: metadata["description"],
      license: metadata["license"], modelVersion: metadata["model_version"],
      created: metadata["created"], evaluation: metadata["evaluation"])
    if let created = card.created, ModelCard.date(parsing: created) == nil {
      throw file.failure(
        .malformedMetadata(key: "created", reason: "\"\(created)\" is not an ISO 8601 date"))
    }
    func threshold(_ key: String) throws(ModelFileError) -> Double? {
      guard let text = metadata[key] else { return nil }
      guard let p = Double(text), isThreshold(p) else {
        throw file.failure(
          .malformedMetadata(
            key: key, reason: "\"\(text)\" is not a probability between 0 and 1"))
      }
      return p
    }
    card.scaryThreshold = try threshold("scary_threshold")
    card.scaryThresholdHigh = try threshold("scary_threshold_high")
    card.scaryThresholdLow = try threshold("scary_threshold_low")
    card.trainingData = try json("training_data", TrainingData.self)
    card.training = try json("training", TrainingRecord.self)
    card.accuracy = try json("accuracy", Accuracy.self)
    card.fusion = try json("fusion", FusionSettings.self)
    if let fusion = card.fusion, !fusion.isValid {
      throw file.failure(
        .malformedMetadata(
          key: "fusion",
          reason: "numbers out of range (weight 0–1, loud_lu above quiet_lu, rise and change > 0)"
        ))
    }
    return card
  }

  // MARK: Dates

  /// `date` as the card writes it: ISO 8601 UTC to the second, e.g. `2026-11-23T17:00:00Z`.
  public static func timestamp(_ date: Date) -> String {
    Date.ISO8601FormatStyle(timeZone: .gmt).format(date)
  }

  /// A date given as `2026-11-23`, `2026-11-23T17:00:00Z` (any ISO 8601 offset) or as seconds
  /// since 1970 (as `SOURCE_DATE_EPOCH` holds); nil when it is none of these.
  public static func date(parsing text: String) -> Date? {
    if !text.isEmpty, text.allSatisfy(\.isNumber), let seconds = Int64(text) {
      return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
    if let date = utcSecond(text) { return date }
    if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
    return try? Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().parse(text)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` with a real day and time (what `timestamp` writes, so what every
  /// model file holds), read directly: the quick path for every command that loads a model
  /// (Foundation's `ISO8601DateFormatter`, used before, loaded 5 MB of ICU calendar data). Nil
  /// for anything else (and for years before 1600, where calendars part), which
  /// `Date.ISO8601FormatStyle` then reads.
  static func utcSecond(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    guard bytes.count == 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84, bytes[13] == 58,
      bytes[16] == 58, bytes[19] == 90
    else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for byte in bytes[start..<start + count] {
        guard (48...57).contains(byte) else { return nil }
        value = value * 10 + Int(byte - 48)
      }
      return value
    }
    guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      year >= 1600, (1...12).contains(month), hour < 24, minute < 60, second < 60
    else { return nil }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...monthDays[month - 1]).contains(day) else { return nil }
    // Days from 1970-01-01 to the date (proleptic Gregorian; Howard Hinnant's days_from_civil).
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    let days = era * 146_097 + dayOfEra - 719_468
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }
}
