import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// `leamoji train`: trains the CNN on labelled image folders, as Create ML's image classifier.
struct Train: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Train the mood classifier on labelled image folders.",
    discussion: """
      <Training Data> holds one subfolder per label (Happy/, Neutral/, Scary/, ...); labels are \
      the folder names in lower case. A share of each label is held out for validation (or give \
      --validation DIR); the epoch with the best validation accuracy is kept. With --test, the \
      kept model is scored on a separate folder with a confusion matrix. Training ends with \
      each label's precision and recall (on --test, else on the validation images).

      --init MODEL fine-tunes an existing model (--init default: the one analyze uses, normally the shipped model): the same \
      layers and weights, a new head when the labels differ, and --freeze N keeps the first N \
      layers with weights (conv1, conv2, ...) as they are. A few hundred labelled frames of \
      your own films are enough to teach it their look. The new model keeps the base's \
      thresholds and fusion settings (its card lists them under carried). On a model with a \
      head, a folder with some of its labels (Scary/ and Neutral/ frames of one film) teaches \
      that head, held near its weights by --l2-sp so that what it knew is kept; with --test, \
      the base and the taught model are scored side by side.

      --backbone efficientnet-lite0 trains, instead of the whole CNN, a small head on the \
      features of a network pretrained on a million photos (shipped in Models/), as Create ML \
      does: each image's features are computed once and cached by the file's SHA-256 \
      (--feature-cache), so the head trains in seconds and a second run starts at once. The \
      model file holds backbone and head together. --hidden N puts a hidden layer in the head, \
      --fine-tune N trains the backbone's last N layers with weights too (from the features \
      before them, cached the same way); the only augmentation is flip. --init on such a \
      model trains its head further.

      --experts PRIMARY,SECONDARY joins two heads trained on the same backbone (a linear one, \
      e.g. for real footage, and another, e.g. for generated scenes) with a gate: the folder \
      then holds Primary/ and Secondary/ pictures, the head trained on them decides per \
      picture which expert answers, and the model written holds both experts and the gate \
      (plain linear and ReLU layers). --init on such a model trains its primary expert.

      The network: --input-size (64, 96 or 128 pixels), --widths (channels of each conv \
      block) or --depth (blocks), --batch-norm (batch normalisation after each convolution) and \
      --dropout P (before the classifier, in training only). The file records them all, so \
      the model is rebuilt from the file alone, also in PyTorch (docs/model-file.md).

      The model file carries a model card (see leamoji model): --author, --description, \
      --license, --version, the creation date (--created, else $SOURCE_DATE_EPOCH, else now), \
      the training data's per-label counts and digest, the options and the final accuracies. \
      The same data, options, --seed and date give a byte-identical model file.

      Examples:
        leamoji train "Training Data" --test "Testing Data" \\
          --output my-model.safetensors --author "Ada" --license MIT
        leamoji train frames-sorted/ --epochs 20 --augment flip,crop,exposure \\
          --emoji angry=😡
        leamoji train "Training Data" --init default --epochs 4 \\
          --output tuned.safetensors --json
        leamoji train "Training Data" --input-size 96 --batch-norm \\
          --widths 16,32,64 --dropout 0.2 --output bigger.safetensors
        leamoji train "Training Data" --backbone efficientnet-lite0 \\
          --output real.safetensors
        leamoji train "Training Data" --backbone efficientnet-lite0 --hidden 64 \\
          --output generated.safetensors
        leamoji train domains/ --backbone efficientnet-lite0 \\
          --experts real.safetensors,generated.safetensors --output both.safetensors
      """
  )

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
    help: ArgumentHelp(
      "L2 penalty on the weights (0: none). Heads on a backbone trained on a few hundred real pictures did best on the real check set with 1 to 3 (docs/model.md).",
      valueName: "λ"))
  var l2: Float = 0

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

  /// The augmentations asked for, or the default for the kind of training.
  var augmentations: Augmentation {
    if let augment { return Augmentation(parsing: augment) ?? [] }
    return usesBackbone ? [.flip] : [.flip, .crop]
  }

  @Option(
    help: ArgumentHelp(
      "Train a head on this pretrained backbone's features (a name in Models/, or a file).",
      valueName: "name"))
  var backbone: String?

  @Option(help: "With a backbone: units of the head's hidden layer (0: a linear head).")
  var hidden = 0

  @Option(
    help: "With a backbone: also train its last N layers with weights before the pooling.")
  var fineTune = 0

  @Option(
    help: ArgumentHelp(
      "With a backbone: join these two heads on it (a linear primary, a secondary) with a gate trained on the folder's Primary/ and Secondary/ pictures.",
      valueName: "primary,secondary"),
    completion: .file(extensions: ["safetensors"]))
  var experts: String?

  @Flag(help: "With a backbone: show every label as often as the most frequent one each epoch.")
  var balance = false

  @Option(
    help: ArgumentHelp(
      "Where backbone features are cached ('none': not at all; default ~/.cache/leamoji/features).",
      valueName: "dir"),
    completion: .directory)
  var featureCache: String?

  /// True when training goes through backbone features: --backbone (or --init on a model
  /// trained that way, decided once the model is read).
  var usesBackbone: Bool { backbone != nil }

  @Option(
    name: .customLong("input-size"),
    help: "Input size in pixels, square: 64, 96 or 128 (default 64, or the --init model's).")
  var inputSize: Int?

  /// `--size`, its older name (still accepted, not shown).
  @Option(name: .customLong("size"), help: .hidden)
  var legacySize: Int?

  /// The input size asked for, by either name.
  var size: Int? { inputSize ?? legacySize }

  @Option(
    help: ArgumentHelp(
      "Channels of each conv block, comma-separated (default 16,32,64).", valueName: "list"))
  var widths: String?

  @Option(help: "Number of conv blocks (default 3; widths 16, 32, 64, 128, ... unless given).")
  var depth: Int?

  @Flag(help: "Batch normalisation after each convolution.")
  var batchNorm = false

  @Option(help: "Dropout probability before the classifier, 0 (none) to 0.9.")
  var dropout: Double = 0

  @Option(
    help: "Fine-tune this model instead of starting afresh ('default': the model analyze uses).",
    completion: .file(extensions: ["safetensors"]))
  var `init`: String?

  @Option(help: "With --init: keep the first N layers with weights unchanged.")
  var freeze = 0

  @Option(help: "Model card: who made the model.")
  var author: String?

  @Option(help: "Model card: what the model is for.")
  var description: String?

  @Option(help: "Model card: the model's licence (e.g. MIT, CC-BY-4.0).")
  var license: String?

  @Option(name: .customLong("version"), help: "Model card: the model's version (e.g. 1.0).")
  var modelVersion: String?

  @Option(
    help:
      "Model card: creation date, ISO 8601 or seconds since 1970 (default $SOURCE_DATE_EPOCH, else now)."
  )
  var created: String?

  @Option(help: "Model card: what the model was checked on and how it did (free text).")
  var evaluation: String?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability from which analyze calls a second scary by default (tuned on a check set).",
      valueName: "p"))
  var scaryThreshold: Double?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability for analyze --sensitivity high (default half of --scary-threshold).",
      valueName: "p"))
  var scaryThresholdHigh: Double?

  @Option(
    help: ArgumentHelp(
      "Model card: the scary probability for analyze --sensitivity low (default half-way from --scary-threshold to 1).",
      valueName: "p"))
  var scaryThresholdLow: Double?

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

  func validate() throws {
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
    if let size, !(size >= 8 && size <= 512 && size % 8 == 0) {
      throw ValidationError(
        "--input-size must be a multiple of 8 from 8 to 512, e.g. 64, 96 or 128 (got \(size))")
    }
    let capacity = try self.capacity()
    if self.`init` != nil, capacity != NetworkCapacity() {
      throw ValidationError(
        "--widths, --depth, --batch-norm and --dropout make a new network: not with --init")
    }
    guard freeze >= 0, freeze <= 1000 else { throw ValidationError("--freeze must be 0 or more") }
    if freeze > 0, self.`init` == nil {
      throw ValidationError("--freeze keeps layers of an existing model: give --init MODEL too")
    }
    if let created, ModelCard.date(parsing: created) == nil {
      throw ValidationError(
        "--created takes an ISO 8601 date such as 2026-11-23 or 2026-11-23T17:00:00Z, or seconds since 1970"
      )
    }
    if let scaryThreshold, !ModelCard.isThreshold(scaryThreshold) {
      throw ValidationError(
        "--scary-threshold takes a probability between 0 and 1 (got \(scaryThreshold))")
    }
    if scaryThresholdHigh != nil || scaryThresholdLow != nil {
      guard let normal = scaryThreshold else {
        throw ValidationError(
          "--scary-threshold-high and --scary-threshold-low go with --scary-threshold")
      }
      let high = scaryThresholdHigh ?? normal / 2
      let low = scaryThresholdLow ?? (1 + normal) / 2
      guard ModelCard.isThreshold(high), ModelCard.isThreshold(low), high <= normal, normal <= low
      else {
        throw ValidationError(
          "--scary-threshold-high \(high), --scary-threshold \(normal) and --scary-threshold-low \(low) must be probabilities between 0 and 1, in that order"
        )
      }
    }
    if let augment, Augmentation(parsing: augment) == nil {
      throw ValidationError(
        "--augment takes a comma-separated list of flip, crop, exposure, noise, or none")
    }
    guard hidden >= 0, hidden <= 4096 else { throw ValidationError("--hidden must be 0 to 4096") }
    if backbone != nil {
      if self.`init` != nil {
        throw ValidationError(
          "--backbone starts a new model: not with --init (which keeps its own)")
      }
      if size != nil || capacity != NetworkCapacity() || freeze != 0 {
        throw ValidationError(
          "--input-size, --widths, --depth, --batch-norm, --dropout and --freeze shape the CNN: not with --backbone"
        )
      }
      if !augmentations.subtracting([.flip]).isEmpty {
        throw ValidationError(
          "with --backbone the only augmentation is flip (features are computed once per image)")
      }
    } else if hidden != 0 {
      throw ValidationError("--hidden shapes a backbone's head: give --backbone too")
    } else if balance, self.`init` == nil {
      throw ValidationError("--balance applies to a backbone's head: give --backbone too")
    }
    if experts != nil {
      guard backbone != nil else { throw ValidationError("--experts needs --backbone too") }
      _ = try expertFiles()
    }
    guard fineTune >= 0, fineTune <= 100 else {
      throw ValidationError("--fine-tune must be 0 to 100")
    }
    if fineTune > 0, backbone == nil, self.`init` == nil {
      throw ValidationError("--fine-tune trains a backbone's last layers: give --backbone too")
    }
    guard threads >= 1, threads <= 256 else { throw ValidationError("--threads must be 1 to 256") }
    guard l2.isFinite, l2 >= 0, l2 <= 1000 else {
      throw ValidationError("--l2 must be 0 to 1000 (got \(l2))")
    }
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

  /// The two files `--experts` names.
  func expertFiles() throws -> ExpertFiles? {
    guard let experts else { return nil }
    let files = experts.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    guard files.count == 2, !files[0].isEmpty, !files[1].isEmpty else {
      throw ValidationError("--experts takes two model files: PRIMARY,SECONDARY")
    }
    return ExpertFiles(primary: files[0], secondary: files[1])
  }

  /// The network `--widths`, `--depth`, `--batch-norm` and `--dropout` ask for.
  func capacity() throws -> NetworkCapacity {
    var widths = NetworkCapacity().widths
    if let depth {
      guard (1...5).contains(depth) else {
        throw ValidationError("--depth must be 1 to 5 (got \(depth))")
      }
      widths = NetworkCapacity.widths(depth: depth)
    }
    if let text = self.widths {
      let parsed = text.split(separator: ",", omittingEmptySubsequences: false).map {
        Int($0.trimmingWhitespace)
      }
      guard (1...5).contains(parsed.count), parsed.allSatisfy({ ($0 ?? 0) >= 1 && $0! <= 512 })
      else {
        throw ValidationError(
          "--widths takes 1 to 5 comma-separated channel counts from 1 to 512, e.g. 16,32,64 (got '\(text)')"
        )
      }
      if let depth, depth != parsed.count {
        throw ValidationError("--depth \(depth) but --widths gives \(parsed.count) blocks")
      }
      widths = parsed.map { $0! }
    }
    guard dropout.isFinite, dropout >= 0, dropout <= 0.9 else {
      throw ValidationError("--dropout must be 0 to 0.9 (got \(dropout))")
    }
    return NetworkCapacity(widths: widths, batchNorm: batchNorm, dropout: dropout)
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
