import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// The options of `leamoji train`: the data, the training loop, teaching an existing model
/// (`--init`), a head on the shipped backbone, the card's authorship and the output. The lab's
/// `leamoji-lab train` takes these too, with the workshop's own (`LabChoices`) beside them.
public struct TrainingArguments: ParsableArguments {
  public init() {}

  @Argument(help: "Folder with one subfolder of images per label.", completion: .directory)
  var trainingData: String

  @Option(help: "Folder laid out the same way, scored once at the end.", completion: .directory)
  var test: String?

  @Option(
    help: "Validation folder (instead of holding out part of the training data).",
    completion: .directory)
  var validation: String?

  @Option(help: "Share of each label held out for validation when --validation is not given.")
  var validationSplit: Double = 0.1

  @Option(help: "Passes over the training data.")
  var epochs = 12

  @Option(help: "Images per training step.")
  var batchSize = 32

  @Option(
    help:
      "Learning rate, decaying along a cosine to 5 % (default 0.003 with AdamW; 0.1 when an --init head is taught by gradient descent)."
  )
  var learningRate: Float?

  @Option(help: "Seed for initialisation, shuffling, augmentation and the validation split.")
  var seed: UInt64 = 42

  @Option(
    name: .customLong("l2-sp"),
    help: ArgumentHelp(
      "With --init on a model with a head: how strongly the retrained head is held near the model's own (an L2 penalty toward its weights; default 10: a logit moves by about 0.1 at most; 0: free, for a look the model cannot read at all).",
      valueName: "λ"))
  var l2SP: Float?

  @Option(
    help: ArgumentHelp(
      "Augmentations: a comma-separated list of flip, crop, exposure, noise, or none (default flip,crop; with a backbone flip).",
      valueName: "list"))
  var augment: String?

  @Option(
    help: ArgumentHelp(
      "Train a head on this pretrained backbone's features (a name in Models/, or a file).",
      valueName: "name"))
  var backbone: String?

  @Option(
    help: ArgumentHelp(
      "Where backbone features are cached ('none': not at all; default ~/.cache/leamoji/features).",
      valueName: "dir"),
    completion: .directory)
  var featureCache: String?

  @Option(
    help: "Fine-tune this model instead of starting afresh ('default': the model analyze uses).",
    completion: .file(extensions: ["safetensors"]))
  var `init`: String?

  @Option(help: "With --init: keep the first N layers with weights unchanged.")
  var freeze = 0

  @OptionGroup var card: CardTextArguments

  @Flag(help: "Print each epoch as a JSON line and a final JSON object.")
  var json = false

  @Option(help: "Emoji for a label, as label=emoji (repeatable).")
  var emoji: [String] = []

  @Option(help: "Where to write the model.", completion: .file(extensions: ["safetensors"]))
  var output = "leamoji.safetensors"

  @Flag(help: "Replace the output file if it exists.")
  var overwrite = false

  @Option(help: "Threads for training (the model does not depend on it).")
  var threads = Classifier.defaultThreads

  /// True when training goes through backbone features: --backbone (or --init on a model
  /// trained that way, decided once the model is read).
  var usesBackbone: Bool { backbone != nil }

  /// The augmentations asked for, or the default for the kind of training.
  var augmentations: Augmentation {
    if let augment { return Augmentation(parsing: augment) ?? [] }
    return usesBackbone ? [.flip] : [.flip, .crop]
  }

  /// Checks the options together with the workshop's (`LabChoices()` for `leamoji train`).
  public func check(_ lab: LabChoices) throws {
    guard epochs >= 1, epochs <= 10_000 else {
      throw ValidationError("--epochs must be 1 to 10000")
    }
    guard batchSize >= 1, batchSize <= 4096 else {
      throw ValidationError("--batch-size must be 1 to 4096")
    }
    if let learningRate, !(learningRate > 0 && learningRate < 10 && learningRate.isFinite) {
      throw ValidationError("--learning-rate must be positive and small")
    }
    guard validationSplit >= 0, validationSplit < 1 else {
      throw ValidationError("--validation-split must be in [0, 1)")
    }
    let capacity = try lab.capacity()
    if self.`init` != nil, capacity != NetworkCapacity() {
      throw ValidationError(
        "--widths, --depth, --batch-norm and --dropout make a new network: not with --init")
    }
    guard freeze >= 0, freeze <= 1000 else { throw ValidationError("--freeze must be 0 or more") }
    if freeze > 0, self.`init` == nil {
      throw ValidationError("--freeze keeps layers of an existing model: give --init MODEL too")
    }
    try card.check()
    try lab.check()
    if let augment, Augmentation(parsing: augment) == nil {
      throw ValidationError(
        "--augment takes a comma-separated list of flip, crop, exposure, noise, or none")
    }
    if backbone != nil {
      if self.`init` != nil {
        throw ValidationError(
          "--backbone starts a new model: not with --init (which keeps its own)")
      }
      if lab.inputSize != nil || capacity != NetworkCapacity() || freeze != 0 {
        throw ValidationError(
          "--input-size, --widths, --depth, --batch-norm, --dropout and --freeze shape the CNN: not with --backbone"
        )
      }
      if !augmentations.subtracting([.flip]).isEmpty {
        throw ValidationError(
          "with --backbone the only augmentation is flip (features are computed once per image)")
      }
    } else if lab.hidden != 0 {
      throw ValidationError("--hidden shapes a backbone's head: give --backbone too")
    } else if lab.balance, self.`init` == nil {
      throw ValidationError("--balance applies to a backbone's head: give --backbone too")
    }
    if lab.experts != nil {
      guard backbone != nil else { throw ValidationError("--experts needs --backbone too") }
      _ = try lab.expertFiles()
    }
    if lab.fineTune > 0, backbone == nil, self.`init` == nil {
      throw ValidationError("--fine-tune trains a backbone's last layers: give --backbone too")
    }
    guard threads >= 1, threads <= 256 else { throw ValidationError("--threads must be 1 to 256") }
    if let l2SP {
      guard l2SP.isFinite, l2SP >= 0, l2SP <= 1000 else {
        throw ValidationError("--l2-sp must be 0 to 1000 (got \(l2SP))")
      }
      guard self.`init` != nil else {
        throw ValidationError(
          "--l2-sp holds a head near an existing model's: give --init MODEL too")
      }
    }
    _ = try customEmoji()
  }

  /// The `--emoji` entries by lower-cased label (later entries win); the standard labels keep
  /// their own emoji unless given here.
  func customEmoji() throws -> [String: String] {
    var map: [String: String] = [:]
    for entry in emoji {
      let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw ValidationError("--emoji takes label=emoji, e.g. angry=😡 (got '\(entry)')")
      }
      map[parts[0].lowercased()] = parts[1]
    }
    return map
  }
}

/// The model card's authorship: who made the model, for what, under which licence, which
/// version and when. `leamoji train` writes them; `leamoji-lab card` sets them on a model.
public struct CardTextArguments: ParsableArguments {
  public init() {}

  @Option(help: "Model card: who made the model.")
  public var author: String?

  @Option(help: "Model card: what the model is for.")
  public var description: String?

  @Option(help: "Model card: the model's licence (e.g. MIT, CC-BY-4.0).")
  public var license: String?

  @Option(name: .customLong("version"), help: "Model card: the model's version (e.g. 1.0).")
  public var modelVersion: String?

  @Option(
    help:
      "Model card: creation date, ISO 8601 or seconds since 1970 (when training: default $SOURCE_DATE_EPOCH, else now)."
  )
  public var created: String?

  /// Throws a usage error for a date that is not one.
  public func check() throws {
    if let created, ModelCard.date(parsing: created) == nil {
      throw ValidationError(ModelCard.createdExpected)
    }
  }
}
