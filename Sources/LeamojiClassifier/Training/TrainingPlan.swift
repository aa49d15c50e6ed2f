import FoundationEssentials
import LeamojiCore

/// Everything `leamoji train` decides, and the whole run: check the output, read the starting
/// model, read the labelled folders (in the base model's label order when it keeps its head),
/// hold out the validation images, train (the whole CNN, from scratch or from `--init`, or a
/// head on a backbone's features), score the kept model, write it with its model card. The
/// front end sets the fields from its arguments, calls `run` and prints the events and the
/// outcome; images are decoded by the function it gives (the classifier never sees FFmpeg).
public struct TrainingPlan: Sendable {
  /// Where training starts.
  public enum Start: Equatable, Sendable {
    /// A fresh network (`capacity`, `inputSize`).
    case scratch
    /// An existing model (`--init`): the file at `path`, called `name` in messages (as given,
    /// e.g. `default`). A model made on a backbone trains its head again.
    case model(path: String, name: String)
    /// A head on the features of the pretrained backbone at `path` (`--backbone`).
    case backbone(path: String)
  }

  /// Where backbone features are cached.
  public enum FeatureCacheChoice: Equatable, Sendable {
    /// Not at all.
    case none
    /// `~/.cache/leamoji/features` (none without a home folder).
    case standard
    /// Under this folder.
    case folder(String)
  }

  /// The card's free-text fields (the rest of the card comes from the run).
  public struct CardText: Sendable {
    public var author: String?
    public var description: String?
    public var license: String?
    public var modelVersion: String?
    public var evaluation: String?
    public var scaryThreshold: Double?
    public var scaryThresholdHigh: Double?
    public var scaryThresholdLow: Double?

    public init() {}
  }

  /// The folder with one subfolder of images per label.
  public var trainingData: String
  public var start = Start.scratch
  /// A validation folder, instead of holding out `validationSplit` of each label.
  public var validation: String?
  public var validationSplit = 0.1
  /// A folder scored once with the kept model.
  public var test: String?
  /// Epochs, batch size, learning rate, seed, augmentations, threads, capacity, freeze, balance.
  public var options = TrainingOptions()
  /// The input size of a fresh network (default 64); with `--init`, must be the model's.
  public var inputSize: Int?
  /// Emoji for labels, by lower-cased label.
  public var emoji: [String: String] = [:]
  /// Units of a backbone head's hidden layer (0: a linear head).
  public var hidden = 0
  /// A backbone's last layers with weights that train too.
  public var fineTune = 0
  /// `train --experts`: the folder's labels are `primary` and `secondary`, the head trained on
  /// it is the gate, and the model written is the two experts and the gate in one.
  public var experts: ExpertFiles?
  public var featureCache = FeatureCacheChoice.standard
  /// Where the model is written.
  public var output = "leamoji.safetensors"
  /// Replace `output` if it exists.
  public var overwrite = false
  public var card = CardText()
  /// The card's creation date as given (ISO 8601 or seconds since 1970), else
  /// `sourceDateEpoch` (seconds since 1970), else now.
  public var created: String?
  public var sourceDateEpoch: String?
  /// Threads that decode the folders' images.
  public var decodingThreads = Classifier.defaultThreads
  /// Decodes an image file at a size.
  public let decode: ImageDecoder

  public init(trainingData: String, decode: @escaping ImageDecoder) {
    self.trainingData = trainingData
    self.decode = decode
  }

  /// Runs the plan: reads, trains, scores and writes the model, calling `events` on the way
  /// (from worker threads too, one at a time).
  /// - Throws: `TrainingError`, before anything is written.
  public func run(events: @escaping TrainingEvents = { _ in }) throws(TrainingError)
    -> TrainingOutcome
  {
    if !overwrite, FileManager.default.fileExists(atPath: output) {
      throw TrainingError(
        .cannotWrite, "\(output): already exists; choose another --output or pass --overwrite")
    }
    let createdText = try creationDate()
    let run = Run(plan: self, events: events, created: createdText)
    switch start {
    case .scratch:
      return try run.network(base: nil)
    case .backbone(let path):
      if let experts { return try run.gate(backboneFile: path, experts: experts) }
      return try run.head(backboneFile: path, base: nil)
    case .model(let path, let name):
      let base = try BaseModel(path: path, name: name)
      if let inputSize, inputSize != base.classifier.inputSize.width {
        throw TrainingError(
          .usage,
          "--input-size \(inputSize) does not fit --init: the model takes \(base.classifier.inputSize) images"
        )
      }
      let experts = ExpertHeads.isCombined(base.classifier)
      if experts || HeadTraining.split(base.classifier) != nil {
        // A model trained on a backbone's features trains on them again.
        if options.freeze != 0 {
          throw TrainingError(
            .usage, "--freeze: \(name) is a backbone with a head; only the head trains")
        }
        return try experts
          ? run.primaryExpert(of: base) : run.head(backboneFile: nil, base: base)
      }
      return try run.network(base: base)
    }
  }

  /// The creation date for the card: `created`, else `sourceDateEpoch`, else now.
  func creationDate() throws(TrainingError) -> String {
    if let created {
      guard let date = ModelCard.date(parsing: created) else {
        throw TrainingError(.usage, ModelCard.createdExpected)
      }
      return ModelCard.timestamp(date)
    }
    if let epoch = sourceDateEpoch, !epoch.isEmpty {
      guard let date = ModelCard.date(parsing: epoch) else {
        throw TrainingError(
          .usage, "SOURCE_DATE_EPOCH=\(epoch) is not a number of seconds since 1970")
      }
      return ModelCard.timestamp(date)
    }
    return ModelCard.timestamp(Date())
  }

  /// The feature cache of the model file with SHA-256 `sha256` (its first 32 digits, then the
  /// cut's `suffix`), or nil when there is none.
  func featureCacheFor(sha256: String, suffix: String) -> FeatureCache? {
    let root: String
    switch featureCache {
    case .none: return nil
    case .folder(let folder): root = folder
    case .standard:
      guard let standard = FeatureCache.defaultRoot() else { return nil }
      root = standard
    }
    return FeatureCache(root: root, backbone: String(sha256.prefix(32)) + suffix)
  }
}

/// The two expert models of `train --experts`.
public struct ExpertFiles: Equatable, Sendable {
  /// The linear head that answers for pictures the gate calls `primary` (real footage).
  public var primary: String
  /// The head that answers for pictures the gate calls `secondary` (generated scenes).
  public var secondary: String

  public init(primary: String, secondary: String) {
    self.primary = primary
    self.secondary = secondary
  }
}

/// What a run reports on the way.
public enum TrainingEvent: Sendable {
  /// What is being read: the images of a folder, or their features with a backbone.
  public enum Reading: Equatable, Sendable {
    case images
    case features
  }

  /// A folder's reading begins: `total` files.
  case readingStarted(Reading, folder: String, total: Int)
  /// `done` of its files are read.
  case reading(Reading, folder: String, done: Int)
  /// The folder is read.
  case readingFinished(Reading, folder: String)
  /// Files of `folder` that could not be read: how many, and the first one's reason.
  case skipped(folder: String, count: Int, example: String)
  /// Training begins.
  case started(TrainingStart)
  /// `done` of `total` batches of epoch `epoch` are trained (whole-network training only).
  case batch(epoch: Int, epochs: Int, done: Int, total: Int)
  /// An epoch ended.
  case epoch(EpochReport, epochs: Int)
  /// Training ended and this epoch is kept: the one with the best validation accuracy when
  /// `validated`, else the last.
  case kept(epoch: Int, validated: Bool)
  /// The kept model was scored on the test folder's `images` images.
  case tested(ConfusionMatrix, images: Int)
}

/// The handler of a run's events.
public typealias TrainingEvents = @Sendable (TrainingEvent) -> Void

/// What training starts with, as the front end announces it.
public struct TrainingStart: Equatable, Sendable {
  /// Images trained on and held out for validation.
  public let trainingImages: Int
  public let validationImages: Int
  public let labels: [String]
  /// The `--init` model's file name when the whole network is fine-tuned.
  public let fineTuning: String?
  /// The backbone's file name when a head is trained.
  public let backbone: String?
}

/// What a finished run wrote, for the front end to print.
public struct TrainingOutcome: Sendable {
  /// The model file written.
  public let output: String
  /// The model as written, card included.
  public let classifier: Classifier
  public let keptEpoch: Int
  public let card: ModelCard
  /// Where the per-label scores come from (`test` or `validation`), and the scores; nil when
  /// there were neither test nor validation images.
  public let scoredOn: String?
  public let score: ConfusionMatrix?
  /// With `--init` and a test folder: the `--init` model and the one written, each at its
  /// card's threshold, on the test images.
  public internal(set) var check: TeachingCheck? = nil
  /// With `--init` on a model of two experts: how its gate shares out the training pictures.
  public internal(set) var routing: GateRouting? = nil
}

/// An `--init` model as read: the classifier, its card's `init` entry (file name and SHA-256),
/// the file's SHA-256 and the name it was given by.
struct BaseModel {
  let classifier: Classifier
  let record: String
  let sha256: String
  let name: String

  init(classifier: Classifier, record: String, sha256: String, name: String) {
    self.classifier = classifier
    self.record = record
    self.sha256 = sha256
    self.name = name
  }

  init(path: String, name: String) throws(TrainingError) {
    let (classifier, bytes): (Classifier, [UInt8])
    do {
      (classifier, bytes) = try Classifier.read(path: path)
    } catch {
      throw TrainingError(error)
    }
    self.classifier = classifier
    self.sha256 = SHA256.hex(bytes)
    self.record = "\(PathText.lastComponent(path)) sha256:\(sha256)"
    self.name = name
  }
}
