import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

/// `leamoji train --backbone` (and `--init` on a model made that way): features once, a head in
/// seconds, one model file with backbone and head.
extension Train {
  /// Trains a head on the features of `backboneFile` (a pretrained network such as
  /// EfficientNet-Lite0), or, with `base`, on the backbone of that model, starting from its
  /// head when the labels are the same.
  func runHead(backboneFile: String?, base: BaseModel?) throws {
    let backbone: Classifier
    let backboneRecord: String
    // The SHA-256 of the file whose layers compute the features: the pretrained backbone, or
    // the --init model (its layers before the cut may have been fine-tuned: not the backbone's).
    let featureSource: String
    var initialHead: HeadTraining.Parts? = nil
    var hiddenUnits = hidden
    var emoji = Classifier.emojiEntry(adding: try customEmoji())
    if let base, let parts = HeadTraining.split(base.classifier) {
      backbone = parts.backbone
      backboneRecord = base.classifier.card.training?.backbone ?? base.record
      featureSource = base.sha256
      hiddenUnits = parts.hidden
      emoji = parts.emoji.merging(try customEmoji()) { _, new in new }
      if try scanLabels(trainingData).sorted() == base.classifier.labelNames.sorted() {
        initialHead = parts
      }
    } else {
      let file = backboneFile ?? ""
      let model: LoadedModel
      do {
        model = try ModelLocator.load(file)
      } catch {
        throw CommandFailure(error)
      }
      guard model.classifier.isBackbone else {
        throw CommandFailure(
          "\(file): not a pretrained backbone (a MobileNet-style network ending in a linear layer, such as Models/efficientnet-lite0.safetensors)",
          status: .badInput)
      }
      backbone = model.classifier
      backboneRecord = "\(PathText.lastComponent(file)) sha256:\(model.sha256)"
      featureSource = model.sha256
    }
    let cut: HeadTraining.Cut
    do {
      cut = try HeadTraining.cut(backbone, fineTune: fineTune)
    } catch {
      throw CommandFailure("\(backboneFile ?? self.`init`!): \(error)", status: .usage)
    }
    let cache = featureCacheFor(sha256: featureSource, suffix: cut.cacheSuffix)
    // The base model's label order when its head is kept, else the folder's.
    let order = initialHead == nil ? nil : base?.classifier.labelNames
    let all = try loadFeatures(
      trainingData, backbone: cut.extractor, labels: order, cache: cache)
    var training = all
    var held: FeatureSet? = nil
    if let validation {
      held = try loadFeatures(
        validation, backbone: cut.extractor, labels: all.labelNames, cache: cache)
    } else if validationSplit > 0 {
      (training, held) = Trainer.split(all, validationFraction: validationSplit, seed: seed)
      if held?.count == 0 { held = nil }
    }
    if !json {
      Console.print(
        "Training a head on \(training.count) images (\(all.labelNames.joined(separator: ", "))), validating on \(held?.count ?? 0), backbone \(backboneRecord.split(separator: " ")[0])"
      )
    }
    var options = trainingOptions()
    options.balanceLabels = balance
    let result: TrainingResult
    do {
      result = try HeadTraining.train(
        training: training, validation: held, cut: cut, hidden: hiddenUnits,
        options: options, emoji: emoji, initialHead: initialHead,
        onEpoch: { printEpoch($0, of: epochs) })
    } catch {
      throw CommandFailure("training failed: \(error)", status: .failure)
    }
    printKept(result, validated: held != nil)
    var withBackbone = trainingRecord(result, initFrom: base?.record)
    withBackbone.backbone = backboneRecord
    withBackbone.hiddenUnits = hiddenUnits
    if fineTune > 0 { withBackbone.fineTunedLayers = fineTune }
    let validationMatrix = try held.flatMap { set throws -> ConfusionMatrix? in
      test != nil
        ? nil
        : try HeadTraining.confusionMatrix(
          of: result.classifier, cut: cut, hidden: hiddenUnits, on: set, threads: threads)
    }
    try finish(
      result, trainingData: ModelCard.TrainingData(features: all, root: trainingData),
      record: withBackbone, held: validationMatrix, createdText: try creationDate())
  }

  /// The feature cache of the model file with SHA-256 `sha256` (its first 32 digits, then the
  /// cut's `suffix`), or nil with `--feature-cache none` or no home folder.
  func featureCacheFor(sha256: String, suffix: String) -> FeatureCache? {
    if featureCache == "none" { return nil }
    guard let root = featureCache ?? FeatureCache.defaultRoot() else { return nil }
    return FeatureCache(root: root, backbone: String(sha256.prefix(32)) + suffix)
  }

  /// The features of a labelled folder, with progress and a warning for skipped files.
  func loadFeatures(
    _ path: String, backbone: Classifier, labels: [String]?, cache: FeatureCache?
  ) throws -> FeatureSet {
    do {
      let folder = try LabelledFolder(scanning: path, minimumLabels: labels == nil ? 2 : 1)
      let progress = ProgressBar(label: "features of \(path)", total: folder.items.count)
      let (set, skipped) = try FeatureSet.extract(
        folder, labelNames: labels, backbone: backbone, cache: cache,
        flip: augmentations.contains(.flip), threads: threads, decode: ImageFiles.decoder,
        progress: { done, _ in progress.update(done) })
      progress.finish()
      if let first = skipped.first {
        Console.warning(
          "\(path): skipped \(skipped.count) unreadable file(s), e.g. \(first.reason)")
      }
      if set.count == 0 {
        throw CommandFailure("\(path): no image could be read", status: .badInput)
      }
      return set
    } catch let error as DatasetError {
      throw CommandFailure(error)
    } catch let error as ClassifierError {
      throw CommandFailure("\(path): \(error)", status: .badInput)
    }
  }
}
