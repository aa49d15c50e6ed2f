import FoundationEssentials
import LeamojiCore
import LeamojiNN

/// Transfer learning as Create ML does it: a small head (one linear layer, or one hidden layer
/// and a linear one) trained on a frozen pretrained backbone's pooled features, then put in
/// place of the backbone's own last layer, so the model file holds backbone and head together
/// and runs like any other model.
///
/// The features are computed once per image (`FeatureSet.extract`), so an epoch is a pass over a
/// few hundred rows of 1280 floats: seconds, where training through the backbone would take
/// hours on two cores.
public enum HeadTraining {
  /// A model made by `train --backbone`, taken apart: the backbone (a classifier whose
  /// `features` are the head's input), the head's parameters and layout, the model's emoji.
  public struct Parts: Sendable {
    public let backbone: Classifier
    let head: [String: Tensor]
    /// Units of the head's hidden layer; 0 for a linear head.
    public let hidden: Int
    /// The model file's `emoji` entry.
    public let emoji: [String: String]
  }

  /// Where training starts in a backbone: at its pooled features (a head alone), or `fineTune`
  /// layers with weights before the pooling (those layers train too, from the backbone's
  /// weights; a residual block counts as one layer). The features are the activations at the
  /// cut, computed once per image, so only the part after the cut runs while training.
  public struct Cut: Sendable {
    /// The backbone: global average pooling, then a linear last layer.
    public let backbone: Classifier
    /// Layers with weights before the pooling that train too.
    public let fineTune: Int
    /// The classifier whose `features` are the activations at the cut (the backbone itself
    /// for a head alone).
    public let extractor: Classifier
    /// The first top-level layer that trains, and the pooling layer.
    let start: Int
    let pool: Int
    /// The backbone's layers that train (empty for a head alone) and their input's shape.
    var tail: [LayerSpec] { Array(backbone.network.specs[start..<(pool + 1)]) }
    var inputShape: [Int] { backbone.network.shapes[start] }
    /// Floats of the pooled features, the head's input.
    var pooledWidth: Int { backbone.network.shapes[pool + 1].reduce(1, *) }
    /// Added to the feature cache's name, so activations at another cut never mix.
    public var cacheSuffix: String { fineTune == 0 ? "" : "-layer\(start)" }
  }

  /// The cut of `backbone` for `fineTune` layers (0: a head alone).
  /// - Throws: `.cannotFineTune` when the backbone has no pooling before a last linear layer,
  ///   or fewer layers with weights than asked.
  public static func cut(_ backbone: Classifier, fineTune: Int) throws(ClassifierError) -> Cut {
    let specs = backbone.network.specs
    guard case .linear = specs.last, let pool = specs.lastIndex(of: .globalAvgPool),
      pool == specs.count - 2
    else {
      throw .cannotFineTune(
        reason: "the backbone does not end in global average pooling and a linear layer")
    }
    let weighted = (0..<pool).filter { !specs[$0].parameterShapes.isEmpty }
    guard fineTune >= 0, fineTune <= weighted.count else {
      throw .cannotFineTune(
        reason: "--fine-tune must be 0 to \(weighted.count): the backbone has "
          + "\(weighted.count) layers with weights before its pooling")
    }
    if fineTune == 0 {
      return Cut(backbone: backbone, fineTune: 0, extractor: backbone, start: pool + 1, pool: pool)
    }
    let start = weighted[weighted.count - fineTune]
    let extractor: Classifier
    do {
      extractor = try truncated(backbone, keeping: start)
    } catch let error as ClassifierError {
      throw error
    } catch {
      throw .cannotFineTune(reason: "\(error)")
    }
    return Cut(
      backbone: backbone, fineTune: fineTune, extractor: extractor, start: start, pool: pool)
  }

  /// `model`'s first `count` top-level layers (flattened when they end in maps) and a
  /// placeholder 2-way last layer (zeros, never used: only `features`, its input, is asked of
  /// it): a classifier whose features are the activations after those layers.
  static func truncated(_ model: Classifier, keeping count: Int) throws -> Classifier {
    let kept = Array(model.network.specs[..<count])
    let shape = model.network.shapes[count]
    let width = shape.reduce(1, *)
    let names = Set(kept.flatMap { ($0.parameterShapes + $0.bufferShapes).map(\.name) })
    var parameters = model.network.namedTensors.filter { names.contains($0.key) }
    parameters[outputName + ".weight"] = Tensor(shape: [2, width])
    parameters[outputName + ".bias"] = Tensor(shape: [2])
    let network = try Network(
      specs: kept + (shape.count > 1 ? [.flatten] : [])
        + [.linear(name: outputName, inFeatures: width, outFeatures: 2)],
      inputShape: model.network.inputShape, parameters: parameters)
    return try Classifier(
      network: network, labelNames: ["a", "b"], normalisation: model.normalisation)
  }

  /// The name of the head's output layer (the backbone's last layer is replaced by it) and of
  /// its hidden layer.
  static let outputName = "fc"
  static let hiddenName = "fc_hidden"

  /// Trains a head on `training` for `backbone` (the classifier whose `features` made the sets)
  /// and returns the combined classifier of the best epoch by validation accuracy (ties: lower
  /// validation loss; the last epoch without validation). Each epoch shuffles the rows and, when
  /// the sets hold flipped features, takes each image's flipped row for half of the images
  /// (chosen by the seed). AdamW with a cosine decay, as `Trainer`. The same sets, options and
  /// seed give the same weights with any number of threads.
  /// - Parameters:
  ///   - hidden: units of a hidden ReLU layer; 0 for a linear head.
  ///   - initialHead: an existing model's parts whose head (same labels, same layout) training
  ///     starts from (`train --init` on a backbone model), held near it by the L2-SP penalty
  ///     (`l2SP`); nil starts fresh.
  /// - Throws: `ClassifierError` for sets that do not fit the backbone or each other.
  public static func train(
    training: FeatureSet, validation: FeatureSet?, cut: Cut, hidden: Int,
    options: TrainingOptions, emoji: [String: String],
    initialHead: Parts? = nil,
    onEpoch: (EpochReport) -> Void = { _ in }
  ) throws(ClassifierError) -> TrainingResult {
    let width = training.width
    let classes = training.labelNames.count
    guard classes >= 2 else { throw .badLabels(reason: "a head needs two labels or more") }
    if let validation, validation.width != width || validation.labelNames != training.labelNames {
      throw .badLabels(reason: "the validation features do not match the training features")
    }
    guard width == cut.inputShape.reduce(1, *) else {
      throw .badLabels(reason: "the features do not fit the backbone's cut")
    }
    var head = try tailNetwork(cut: cut, hidden: hidden, classes: classes, seed: options.seed)
    if let initialHead {
      var parameters = head.namedTensors
      parameters.merge(initialHead.head) { _, given in given }
      do {
        head = try Network(specs: head.specs, inputShape: head.inputShape, parameters: parameters)
      } catch {
        throw .network(error)
      }
    }
    // A head taught from an existing one trains by gradient descent with the L2-SP penalty
    // toward its start (see `SGD`); any other by AdamW.
    if initialHead != nil, l2SP(options) > 0 {
      let scale = featureScale(training)
      // The step, shortened when the pull would overshoot (rate · λ above 1: the momentum's
      // descent diverges from about 3.8).
      let rate = options.teachingRate / (scale * max(1, options.teachingRate * l2SP(options)))
      var sgd = SGD(learningRate: rate, momentum: teachingMomentum, weightDecay: options.l2)
      sgd.anchor = head.parameters.flatMap(\.data)
      sgd.pull = l2SP(options) * scale
      return try epochs(
        TrainingSession(network: head, optimizer: sgd, seed: options.seed), rate: rate,
        training: training, validation: validation, cut: cut, options: options, emoji: emoji,
        onEpoch: onEpoch)
    }
    let adam = AdamW(
      learningRate: options.learningRate, weightDecay: options.weightDecay, l2: options.l2)
    return try epochs(
      TrainingSession(network: head, optimizer: adam, seed: options.seed),
      rate: options.learningRate, training: training, validation: validation, cut: cut,
      options: options, emoji: emoji, onEpoch: onEpoch)
  }

  /// The L2-SP strength a head started from an existing head trains with (`options.l2SP`,
  /// else the default); `train` applies it only when there is such a head.
  public static func l2SP(_ options: TrainingOptions) -> Float {
    options.l2SP ?? TrainingOptions.defaultL2SP
  }

  /// The confusion matrix of `model` (made by `train` with `cut`) on a feature set of the
  /// cut: the trained part run on the (unflipped) features, as the whole model would on the
  /// images.
  public static func confusionMatrix(
    of model: Classifier, cut: Cut, hidden: Int, on set: FeatureSet, threads: Int
  ) throws(ClassifierError) -> ConfusionMatrix {
    let shape = try tailNetwork(
      cut: cut, hidden: hidden, classes: model.labelNames.count, seed: 0)
    let trained = try part(of: model, specs: shape.specs, inputShape: shape.inputShape)
    var matrix = ConfusionMatrix(labels: model.labelNames)
    for (i, row) in try logitRows(of: trained, on: set, shape: cut.inputShape, threads: threads)
      .enumerated()
    {
      let best = row.indices.max { row[$0] < row[$1] || (row[$0] == row[$1] && $0 > $1) }!
      matrix.add(truth: set.labels[i], prediction: best)
    }
    return matrix
  }

  /// The part of `model` made of the layers `specs`, with `model`'s own weights for them.
  static func part(of model: Classifier, specs: [LayerSpec], inputShape: [Int])
    throws(ClassifierError) -> Network
  {
    let names = Set(specs.flatMap { ($0.parameterShapes + $0.bufferShapes).map(\.name) })
    do {
      return try Network(
        specs: specs, inputShape: inputShape,
        parameters: model.network.namedTensors.filter { names.contains($0.key) })
    } catch {
      throw .network(error)
    }
  }

  /// `network`'s logits for every row of `set`'s (unflipped) features, each row a
  /// `shape`-shaped sample, in batches of `Classifier.batchSize`.
  static func logitRows(of network: Network, on set: FeatureSet, shape: [Int], threads: Int)
    throws(ClassifierError) -> [[Float]]
  {
    var rows: [[Float]] = []
    var start = 0
    while start < set.count {
      let end = min(set.count, start + Classifier.batchSize)
      let logits: Tensor
      do {
        logits = try network.logits(batch(set, start..<end, shape: shape), threads: threads)
      } catch {
        throw .network(error)
      }
      for i in 0..<(end - start) { rows.append(logits.slice(i).data) }
      start = end
    }
    return rows
  }

  /// Rows `range` of `set`'s (unflipped) features as a batch of `shape`-shaped samples.
  static func batch(_ set: FeatureSet, _ range: Range<Int>, shape: [Int]) -> Tensor {
    Tensor(
      shape: [range.count] + shape,
      data: Array(set.features[(range.lowerBound * set.width)..<(range.upperBound * set.width)]))
  }

  /// The part that trains: the backbone's layers after the cut with the backbone's weights,
  /// then a fresh head (seeded).
  static func tailNetwork(cut: Cut, hidden: Int, classes: Int, seed: UInt64)
    throws(ClassifierError) -> Network
  {
    let specs = cut.tail + headSpecs(width: cut.pooledWidth, hidden: hidden, classes: classes)
    do {
      let fresh = try Network(specs: specs, inputShape: cut.inputShape, seed: seed)
      guard !cut.tail.isEmpty else { return fresh }
      let names = Set(cut.tail.flatMap { ($0.parameterShapes + $0.bufferShapes).map(\.name) })
      var parameters = fresh.namedTensors
      parameters.merge(cut.backbone.network.namedTensors.filter { names.contains($0.key) }) {
        _, backbone in backbone
      }
      return try Network(specs: specs, inputShape: cut.inputShape, parameters: parameters)
    } catch {
      throw .network(error)
    }
  }

  /// One epoch's rows when labels are balanced: each label's images (`members[label]`) in a
  /// shuffled cycle, as many as the most frequent label has; every image at least once.
  static func balancedOrder(_ members: [[Int]], using rng: inout SplitMix64) -> [Int] {
    let most = members.map(\.count).max() ?? 0
    var order: [Int] = []
    for var group in members where !group.isEmpty {
      Trainer.shuffle(&group, using: &rng)
      order += (0..<most).map { group[$0 % group.count] }
    }
    return order
  }

  /// The head's layers: `fc` alone, or `fc_hidden`, ReLU, `fc`.
  static func headSpecs(width: Int, hidden: Int, classes: Int) -> [LayerSpec] {
    guard hidden > 0 else {
      return [.linear(name: outputName, inFeatures: width, outFeatures: classes)]
    }
    return [
      .linear(name: hiddenName, inFeatures: width, outFeatures: hidden), .relu,
      .linear(name: outputName, inFeatures: hidden, outFeatures: classes),
    ]
  }

  /// Accuracy and mean loss of the head on `set`'s (unflipped) features, in batches of 64.
  static func score(_ head: Network, on set: FeatureSet, threads: Int) throws(ClassifierError)
    -> BatchResult
  {
    let shape = head.inputShape
    var correct = 0
    var loss = 0.0
    var start = 0
    while start < set.count {
      let end = min(set.count, start + Classifier.batchSize)
      let result: BatchResult
      do {
        result = try head.evaluate(
          batch(set, start..<end, shape: shape), labels: Array(set.labels[start..<end]),
          threads: threads)
      } catch {
        throw .network(error)
      }
      correct += result.correct
      loss += Double(result.meanLoss) * Double(result.count)
      start = end
    }
    return BatchResult(
      meanLoss: Float(loss / Double(max(1, set.count))), correct: correct, count: set.count)
  }

  /// The backbone's layers before the cut, then the trained part (its layers after the cut,
  /// trained, and the head in place of its last layer): one network, one file.
  static func combine(
    cut: Cut, trained: Network, labelNames: [String], emoji: [String: String]
  ) throws(ClassifierError) -> Classifier {
    try replacingLayers(
      of: cut.backbone, from: cut.start, with: trained.specs, tensors: trained.namedTensors,
      labelNames: labelNames, emoji: emoji)
  }

  /// `model`'s first `start` top-level layers with their tensors, then `specs` with `tensors`:
  /// one classifier with `model`'s input and normalisation.
  static func replacingLayers(
    of model: Classifier, from start: Int, with specs: [LayerSpec], tensors: [String: Tensor],
    labelNames: [String], emoji: [String: String]
  ) throws(ClassifierError) -> Classifier {
    let kept = Array(model.network.specs[..<start])
    let names = Set(kept.flatMap { ($0.parameterShapes + $0.bufferShapes).map(\.name) })
    var parameters = model.network.namedTensors.filter { names.contains($0.key) }
    parameters.merge(tensors) { _, new in new }
    let network: Network
    do {
      network = try Network(
        specs: kept + specs, inputShape: model.network.inputShape, parameters: parameters)
    } catch {
      throw .network(error)
    }
    return try Classifier(
      network: network, labelNames: labelNames, normalisation: model.normalisation, emoji: emoji)
  }

  /// For a model made by `train --backbone`: the backbone part (the layers before the head,
  /// ending in global average pooling) as a classifier whose `features` are the head's input,
  /// the head's parameters, and its hidden units (0 for a linear head). Nil for other models.
  public static func split(_ model: Classifier) -> Parts? {
    let specs = model.network.specs
    guard let pool = specs.lastIndex(of: .globalAvgPool), model.network.splitsOneSample else {
      return nil
    }
    let headSpecs = Array(specs[(pool + 1)...])
    let hidden: Int
    switch headSpecs.count {
    case 1:
      guard case .linear(outputName, _, _) = headSpecs[0] else { return nil }
      hidden = 0
    case 3:
      guard case .linear(hiddenName, _, let units) = headSpecs[0], headSpecs[1] == .relu,
        case .linear(outputName, _, _) = headSpecs[2]
      else { return nil }
      hidden = units
    default:
      return nil
    }
    let names = Set(
      headSpecs.compactMap { spec -> String? in
        if case .linear(let name, _, _) = spec { return name }
        return nil
      })
    let head = model.network.namedParameters.filter {
      names.contains(String($0.key.split(separator: ".")[0]))
    }
    guard let backbone = try? truncated(model, keeping: pool + 1) else { return nil }
    return Parts(backbone: backbone, head: head, hidden: hidden, emoji: model.emojiEntry)
  }
}
