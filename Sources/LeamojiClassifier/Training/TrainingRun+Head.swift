import FoundationEssentials
import LeamojiCore

/// `train --backbone` (and `--init` on a model made that way): features once, a head in
/// seconds, one model file with backbone and head.
extension Run {
  /// Trains a head on the features of `backboneFile` (a pretrained network such as
  /// EfficientNet-Lite0), or, with `base`, on the backbone of that model, starting from its
  /// head when the labels are the same.
  ///
  /// `assemble` makes the model written from the trained one (the gate into two experts and a
  /// gate, a primary expert back into its combined model); `experts` goes on the card. `whole`
  /// is the `--init` model as it answers (the combined one, when `base` is its primary expert),
  /// scored against the model written on the test folder; `retrained` names what trains.
  ///
  /// A folder whose labels are some of `base`'s (a film's scary and neutral frames, no happy
  /// ones) trains `base`'s head in its label order, held near its weights by the L2-SP
  /// penalty, so the labels it does not show are kept.
  func head(
    backboneFile: String?, base: BaseModel?,
    assemble: ((Classifier) throws(ClassifierError) -> Classifier)? = nil,
    experts: [String]? = nil, whole: Classifier? = nil, retrained: String = "head"
  ) throws(TrainingError) -> TrainingOutcome {
    let backbone: Classifier
    let backboneRecord: String
    // The SHA-256 of the file whose layers compute the features: the pretrained backbone, or
    // the --init model (its layers before the cut may have been fine-tuned: not the backbone's).
    let featureSource: String
    var initialHead: HeadTraining.Parts? = nil
    var hiddenUnits = plan.hidden
    var emoji = Classifier.emojiEntry(adding: plan.emoji)
    if let base, let parts = HeadTraining.split(base.classifier) {
      backbone = parts.backbone
      backboneRecord = base.classifier.card.training?.backbone ?? base.record
      // The backbone's own digest: a model taught from this one shares its cached features.
      featureSource = SHA256.hex(parts.backbone.encoded())
      hiddenUnits = parts.hidden
      emoji = parts.emoji.merging(plan.emoji) { _, new in new }
      if Set(try scanLabels(plan.trainingData)).isSubset(of: base.classifier.labelNames) {
        initialHead = parts
      }
    } else {
      let file = backboneFile ?? ""
      let model = try BaseModel(path: file, name: file)
      guard model.classifier.isBackbone else {
        throw TrainingError(
          .badInput,
          "\(file): not a pretrained backbone (a MobileNet-style network ending in a linear layer, such as Models/efficientnet-lite0.safetensors)"
        )
      }
      backbone = model.classifier
      backboneRecord = model.record
      featureSource = model.sha256
    }
    let cut: HeadTraining.Cut
    do {
      cut = try HeadTraining.cut(backbone, fineTune: plan.fineTune)
    } catch {
      throw TrainingError(.usage, "\(backboneFile ?? base?.name ?? ""): \(error)")
    }
    let cache = plan.featureCacheFor(sha256: featureSource, suffix: cut.cacheSuffix)
    // The base model's label order when its head is kept, else the folder's.
    let order = initialHead == nil ? nil : base?.classifier.labelNames
    let all = try loadFeatures(
      plan.trainingData, backbone: cut.extractor, labels: order, cache: cache)
    let events = self.events
    let epochs = options.epochs
    let (result, validationMatrix) = try train(
      all, fineTuning: nil, backbone: String(backboneRecord.split(separator: " ")[0]),
      validationFolder: { path throws(TrainingError) in
        try loadFeatures(path, backbone: cut.extractor, labels: all.labelNames, cache: cache)
      },
      loop: { training, held throws(ClassifierError) in
        try HeadTraining.train(
          training: training, validation: held, cut: cut, hidden: hiddenUnits,
          options: options, emoji: emoji, initialHead: initialHead,
          onEpoch: { events(.epoch($0, epochs: epochs)) })
      },
      score: { classifier, held throws(ClassifierError) in
        try HeadTraining.confusionMatrix(
          of: classifier, cut: cut, hidden: hiddenUnits, on: held, threads: options.threads)
      })
    var withBackbone = trainingRecord(result, initFrom: base?.record)
    // The features were computed once: flip is the only augmentation a head can have had.
    withBackbone.augmentations = options.augment.intersection([.flip]).list
    withBackbone.backbone = backboneRecord
    withBackbone.hiddenUnits = hiddenUnits
    if plan.fineTune > 0 { withBackbone.fineTunedLayers = plan.fineTune }
    withBackbone.experts = experts
    if base != nil { withBackbone.retrained = [retrained] }
    if initialHead != nil, HeadTraining.l2SP(options) > 0 {
      // Taught by gradient descent (`HeadTraining.train`), at its own rate.
      withBackbone.l2SP = HeadTraining.l2SP(options)
      withBackbone.learningRate = options.teachingRate
    }
    var written: Classifier? = nil
    if let assemble {
      do {
        written = try assemble(result.classifier)
      } catch {
        throw TrainingError(.badInput, "\(plan.trainingData): \(error)")
      }
    }
    // The test folder, scored on its features (cached like the training folder's).
    var tested: (matrix: ConfusionMatrix, images: Int)? = nil
    var testSet: FeatureSet? = nil
    if let test = plan.test {
      let set = try loadFeatures(
        test, backbone: cut.extractor, labels: result.classifier.labelNames, cache: cache)
      do {
        tested = (
          try HeadTraining.confusionMatrix(
            of: result.classifier, cut: cut, hidden: hiddenUnits, on: set,
            threads: options.threads), set.count
        )
      } catch {
        throw TrainingError(.failed, "\(error)")
      }
      testSet = set
    }
    let before = whole ?? base?.classifier
    let threads = options.threads
    var outcome = try finish(
      result, trainingData: ModelCard.TrainingData(features: all, root: plan.trainingData),
      record: withBackbone, held: validationMatrix, written: written, base: base, tested: tested,
      checkAgainst: { after throws(TrainingError) in
        guard let before, let testSet, cut.fineTune == 0,
          Set(before.labelNames) == Set(after.labelNames)
        else { return nil }
        do {
          return try TeachingCheck.compare(
            before: before, after: after, on: testSet, threads: threads)
        } catch {
          throw TrainingError(.failed, "\(error)")
        }
      })
    if let before { outcome.routing = ExpertHeads.routing(of: before, on: all) }
    return outcome
  }

  /// `train --experts`: trains the gate (a linear head on the folder's `primary` and
  /// `secondary` pictures) and writes the two experts and the gate as one model.
  func gate(backboneFile: String, experts: ExpertFiles) throws(TrainingError) -> TrainingOutcome {
    guard plan.hidden == 0, plan.fineTune == 0 else {
      throw TrainingError(.usage, "--experts: the gate is a linear head (no --hidden, --fine-tune)")
    }
    let labels = try scanLabels(plan.trainingData).sorted()
    guard labels == [ExpertHeads.primaryLabel, ExpertHeads.secondaryLabel] else {
      throw TrainingError(
        .badInput,
        "\(plan.trainingData): --experts trains the gate on two folders, Primary (pictures the first expert answers for) and Secondary, not \(labels.joined(separator: ", "))"
      )
    }
    let primary = try BaseModel(path: experts.primary, name: experts.primary)
    let secondary = try BaseModel(path: experts.secondary, name: experts.secondary)
    return try head(
      backboneFile: backboneFile, base: nil,
      assemble: { gate throws(ClassifierError) in
        try ExpertHeads.combine(
          primary: primary.classifier, secondary: secondary.classifier, gate: gate)
      },
      experts: [primary.record, secondary.record])
  }

  /// `train --init` on a model of two experts: trains its primary expert (from its weights,
  /// held near them) and writes the model again with the secondary expert and the gate as they
  /// were. With labels the model does not have, a new head on its backbone, as for any head
  /// model.
  func primaryExpert(of base: BaseModel) throws(TrainingError) -> TrainingOutcome {
    let combined = base.classifier
    guard plan.fineTune == 0 else {
      throw TrainingError(
        .usage,
        "--init \(base.name): a model of two experts trains its primary head only (no --fine-tune)"
      )
    }
    guard let primary = ExpertHeads.primary(of: combined) else {
      throw TrainingError(.badInput, "\(base.name): its primary expert cannot be read")
    }
    let start = BaseModel(
      classifier: primary, record: base.record, sha256: base.sha256, name: base.name)
    guard Set(try scanLabels(plan.trainingData)).isSubset(of: combined.labelNames) else {
      return try head(backboneFile: nil, base: start)
    }
    return try head(
      backboneFile: nil, base: start,
      assemble: { trained throws(ClassifierError) in
        try ExpertHeads.replacingPrimary(of: combined, with: trained)
      },
      experts: combined.card.training?.experts, whole: combined, retrained: "primary")
  }

  /// The features of a labelled folder, reporting progress and skipped files.
  func loadFeatures(
    _ path: String, backbone: Classifier, labels: [String]?, cache: FeatureCache?
  ) throws(TrainingError) -> FeatureSet {
    let folder: LabelledFolder
    do {
      folder = try LabelledFolder(scanning: path, minimumLabels: labels == nil ? 2 : 1)
    } catch {
      throw TrainingError(error)
    }
    events(.readingStarted(.features, folder: path, total: folder.items.count))
    let set: FeatureSet
    let skipped: [ImageSet.Skipped]
    do {
      (set, skipped) = try FeatureSet.extract(
        folder, labelNames: labels, backbone: backbone, cache: cache,
        flip: options.augment.contains(.flip), threads: options.threads, decode: plan.decode,
        progress: { done, _ in events(.reading(.features, folder: path, done: done)) })
    } catch {
      throw TrainingError(.badInput, "\(path): \(error)")
    }
    events(.readingFinished(.features, folder: path))
    if let first = skipped.first {
      events(.skipped(folder: path, count: skipped.count, example: first.reason))
    }
    if set.count == 0 {
      throw TrainingError(.badInput, "\(path): no image could be read")
    }
    return set
  }
}
