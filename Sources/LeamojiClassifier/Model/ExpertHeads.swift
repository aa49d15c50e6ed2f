import LeamojiCore
import LeamojiNN

/// Two heads on one backbone and a gate that chooses between them per picture, written as one
/// model of plain linear and ReLU layers (`train --experts`).
///
/// Why: a head good at real footage (a linear one, strongly regularised) and one good at
/// leamoji's generated scenes pull against each other when they are one head. Kept apart, each
/// keeps its figures; the gate (a linear head with the labels `primary` and `secondary`,
/// trained on pictures of both kinds) says which one answers. With `P` and `S` the experts'
/// logits, `d` the gate's secondary logit minus its primary one and `G = clamp((d + 2) / 4, 0,
/// 1)`, the model's logits are `P + shrink(S - P, M (1 - G))`, where `shrink(x, t)` moves `x`
/// towards 0 by `t` (stopping at 0) and `M` is `margin`: `P` where `d <= -2` (while `|S - P| <=
/// M`), `S` where `d >= 2`, and in between `P` until `G` is within `|S - P| / M` of 1.
///
/// The layers after the backbone's pooling, which any reader of linear and ReLU layers runs
/// unchanged: `fc_hidden` gives `[P, -P, H, g1, g2]` before its ReLU, where `H` are the
/// secondary's hidden units (`[S, -S]` for a linear secondary), `g1 = (d + 2) / 4` and
/// `g2 = g1 - 1`, so that `G = relu(g1) - relu(g2)`; `fc_mix` passes `relu(P)` and `relu(-P)` on
/// and gives `relu(±(S - P) - M (1 - G))`; `fc` adds them up with signs.
public enum ExpertHeads {
  /// The gate's labels: which expert answers.
  public static let primaryLabel = "primary"
  public static let secondaryLabel = "secondary"
  /// The name of the middle layer, which marks a model as two experts.
  static let mixName = "fc_mix"
  /// How far apart the experts' logits may be for the primary's to come out exactly.
  static let margin: Float = 100
  /// The gate's logit difference over which the answer passes from one expert to the other.
  static let ramp: ClosedRange<Float> = -2...2

  /// One model from a primary expert (a linear head), a secondary expert (a linear head or one
  /// with a hidden layer) and a gate, all made by `train --backbone` on the same backbone; the
  /// primary's labels, emoji and normalisation.
  /// - Throws: `.cannotCombine` when they are not such heads, their backbones or labels differ,
  ///   or the gate's labels are not `primary` and `secondary`.
  public static func combine(primary: Classifier, secondary: Classifier, gate: Classifier)
    throws(ClassifierError) -> Classifier
  {
    guard let p = HeadTraining.split(primary), p.hidden == 0 else {
      throw .cannotCombine(reason: "the primary expert must be a linear head on a backbone")
    }
    guard let s = HeadTraining.split(secondary) else {
      throw .cannotCombine(reason: "the secondary expert is not a head on a backbone")
    }
    guard let g = HeadTraining.split(gate), g.hidden == 0,
      let gp = gate.labelNames.firstIndex(of: primaryLabel),
      let gs = gate.labelNames.firstIndex(of: secondaryLabel), gate.labelNames.count == 2
    else {
      throw .cannotCombine(
        reason:
          "the gate must be a linear head with the labels \(primaryLabel) and \(secondaryLabel)")
    }
    guard sameBackbone(p.backbone, s.backbone), sameBackbone(p.backbone, g.backbone) else {
      throw .cannotCombine(reason: "the experts and the gate are not on the same backbone")
    }
    guard secondary.labelNames == primary.labelNames else {
      throw .cannotCombine(
        reason: "the experts' labels differ: \(primary.labelNames) and \(secondary.labelNames)")
    }
    let classes = primary.labelNames.count
    let width = p.head["fc.weight"]!.shape[1]
    let pw = p.head["fc.weight"]!.data
    let pb = p.head["fc.bias"]!.data
    let sec = SecondaryUnits(s, classes: classes)
    // The gate's logit difference d, scaled to g1 = (d + 2) / 4.
    let gw = g.head["fc.weight"]!.data
    let gb = g.head["fc.bias"]!.data
    let slope = 1 / (ramp.upperBound - ramp.lowerBound)
    let gateRow = (0..<width).map { slope * (gw[gs * width + $0] - gw[gp * width + $0]) }
    let g1 = slope * (gb[gs] - gb[gp] - ramp.lowerBound)
    // fc_hidden: P, -P, the secondary's units, g1, g2 = g1 - 1.
    let hiddenWidth = 2 * classes + sec.units + 2
    let tensors: [String: Tensor] = [
      "fc_hidden.weight": Tensor(
        shape: [hiddenWidth, width], data: pw + pw.map { -$0 } + sec.weight + gateRow + gateRow),
      "fc_hidden.bias": Tensor(
        shape: [hiddenWidth], data: pb + pb.map { -$0 } + sec.bias + [g1, g1 - 1]),
      "fc.weight": Tensor(shape: [classes, 4 * classes], data: sumWeights(classes: classes)),
      "fc.bias": Tensor(shape: [classes], data: [Float](repeating: 0, count: classes)),
    ].merging(mixTensors(classes: classes, secondary: sec)) { a, _ in a }
    let head: [LayerSpec] = [
      .linear(name: HeadTraining.hiddenName, inFeatures: width, outFeatures: hiddenWidth), .relu,
      .linear(name: mixName, inFeatures: hiddenWidth, outFeatures: 4 * classes), .relu,
      .linear(name: HeadTraining.outputName, inFeatures: 4 * classes, outFeatures: classes),
    ]
    return try assemble(primary, head: head, tensors: tensors, emoji: p.emoji)
  }

  /// The secondary expert as hidden units (`weight`, `bias`: `units` rows) and an output layer
  /// over them (`output`, `outputBias`); a linear secondary as the pairs `S`, `-S`.
  struct SecondaryUnits {
    let weight: [Float]
    let bias: [Float]
    let output: [Float]
    let outputBias: [Float]
    let units: Int

    init(_ s: HeadTraining.Parts, classes: Int) {
      if s.hidden > 0 {
        weight = s.head["fc_hidden.weight"]!.data
        bias = s.head["fc_hidden.bias"]!.data
        output = s.head["fc.weight"]!.data
        outputBias = s.head["fc.bias"]!.data
        units = s.hidden
      } else {
        let w = s.head["fc.weight"]!.data
        let b = s.head["fc.bias"]!.data
        units = 2 * classes
        weight = w + w.map { -$0 }
        bias = b + b.map { -$0 }
        var pairs = [Float](repeating: 0, count: classes * units)
        for i in 0..<classes {
          pairs[i * units + i] = 1
          pairs[i * units + classes + i] = -1
        }
        output = pairs
        outputBias = [Float](repeating: 0, count: classes)
      }
    }
  }

  /// `fc_mix`: `relu(P)` and `relu(-P)` passed on, then `±(S - P) - M + M g1 - M g2` per label.
  static func mixTensors(classes: Int, secondary sec: SecondaryUnits) -> [String: Tensor] {
    let inputs = 2 * classes + sec.units + 2
    var w = [Float](repeating: 0, count: 4 * classes * inputs)
    var b = [Float](repeating: 0, count: 4 * classes)
    for i in 0..<classes {
      w[i * inputs + i] = 1
      w[(classes + i) * inputs + classes + i] = 1
      for (sign, row) in [(Float(1), 2 * classes + i), (Float(-1), 3 * classes + i)] {
        let at = row * inputs
        for k in 0..<sec.units { w[at + 2 * classes + k] = sign * sec.output[i * sec.units + k] }
        w[at + i] = -sign
        w[at + classes + i] = sign
        w[at + 2 * classes + sec.units] = margin
        w[at + 2 * classes + sec.units + 1] = -margin
        b[row] = sign * sec.outputBias[i] - margin
      }
    }
    return [
      "fc_mix.weight": Tensor(shape: [4 * classes, inputs], data: w),
      "fc_mix.bias": Tensor(shape: [4 * classes], data: b),
    ]
  }

  /// `fc`: `relu(P) - relu(-P) + relu(S - P - ...) - relu(P - S - ...)` per label.
  static func sumWeights(classes: Int) -> [Float] {
    var w = [Float](repeating: 0, count: classes * 4 * classes)
    for i in 0..<classes {
      for (block, sign) in [(0, Float(1)), (1, -1), (2, 1), (3, -1)] {
        w[i * 4 * classes + block * classes + i] = sign
      }
    }
    return w
  }

  /// Whether `model` was made by `combine` (its head is `fc_hidden`, ReLU, `fc_mix`, ReLU, `fc`).
  public static func isCombined(_ model: Classifier) -> Bool {
    layout(model) != nil
  }

  /// The primary expert of a combined model as a model of its own: the backbone and its linear
  /// head, with the model's labels, emoji and card. Nil for other models.
  public static func primary(of model: Classifier) -> Classifier? {
    guard let width = layout(model)?.width else { return nil }
    let classes = model.labelNames.count
    let hidden = model.network.namedParameters
    let w = Array(hidden["fc_hidden.weight"]!.data[..<(classes * width)])
    let b = Array(hidden["fc_hidden.bias"]!.data[..<classes])
    let head: [LayerSpec] = [
      .linear(name: HeadTraining.outputName, inFeatures: width, outFeatures: classes)
    ]
    let tensors = [
      "fc.weight": Tensor(shape: [classes, width], data: w),
      "fc.bias": Tensor(shape: [classes], data: b),
    ]
    return try? assemble(model, head: head, tensors: tensors, emoji: model.emojiEntry)
      .with(card: model.card)
  }

  /// `model` (a combined one) with its primary expert's weights taken from `primary` (a linear
  /// head on the same backbone, with the same labels in the same order); the secondary expert
  /// and the gate unchanged, bit for bit.
  public static func replacingPrimary(of model: Classifier, with primary: Classifier)
    throws(ClassifierError) -> Classifier
  {
    guard let (pool, width) = layout(model), let p = HeadTraining.split(primary), p.hidden == 0,
      primary.labelNames == model.labelNames
    else {
      throw .cannotCombine(reason: "not a combined model and a linear head with its labels")
    }
    let classes = model.labelNames.count
    var tensors = model.network.namedParameters.filter {
      [HeadTraining.hiddenName, mixName, HeadTraining.outputName].contains(
        String($0.key.split(separator: ".")[0]))
    }
    let pw = p.head["fc.weight"]!.data
    let pb = p.head["fc.bias"]!.data
    tensors["fc_hidden.weight"]!.data.replaceSubrange(
      0..<(2 * classes * width), with: pw + pw.map { -$0 })
    tensors["fc_hidden.bias"]!.data.replaceSubrange(0..<(2 * classes), with: pb + pb.map { -$0 })
    let head = Array(model.network.specs[(pool + 1)...])
    return try assemble(model, head: head, tensors: tensors, emoji: primary.emojiEntry)
  }

  /// How the gate of `model` (a combined one) shares out the pictures of `set` (features of its
  /// backbone): `G` at 0 (the primary answers), between, at 1 (the secondary). Nil for other
  /// models.
  static func routing(of model: Classifier, on set: FeatureSet) -> GateRouting? {
    guard let (_, width) = layout(model), set.width == width else { return nil }
    let hidden = model.network.namedParameters
    let units = hidden["fc_hidden.bias"]!.count
    let row = units - 2
    let w = Array(hidden["fc_hidden.weight"]!.data[(row * width)..<((row + 1) * width)])
    let b = hidden["fc_hidden.bias"]!.data[row]
    var counts = [0, 0, 0]
    for i in 0..<set.count {
      var g1 = b
      for k in 0..<width { g1 += w[k] * set.features[i * width + k] }
      counts[g1 <= 0 ? 0 : g1 >= 1 ? 2 : 1] += 1
    }
    return GateRouting(primary: counts[0], between: counts[1], secondary: counts[2])
  }

  /// The pooling layer's index and the features' width when `model` is a combined one.
  static func layout(_ model: Classifier) -> (pool: Int, width: Int)? {
    let specs = model.network.specs
    let classes = model.labelNames.count
    guard let pool = specs.lastIndex(of: .globalAvgPool), specs.count == pool + 6,
      case .linear(HeadTraining.hiddenName, let width, let hidden) = specs[pool + 1],
      specs[pool + 2] == .relu,
      case .linear(mixName, hidden, 4 * classes) = specs[pool + 3], specs[pool + 4] == .relu,
      case .linear(HeadTraining.outputName, 4 * classes, classes) = specs[pool + 5],
      hidden > 2 * classes + 2
    else { return nil }
    return (pool, width)
  }

  /// `model`'s layers up to its pooling, then `head` with `tensors`.
  static func assemble(
    _ model: Classifier, head: [LayerSpec], tensors: [String: Tensor], emoji: [String: String]
  ) throws(ClassifierError) -> Classifier {
    let pool = model.network.specs.lastIndex(of: .globalAvgPool) ?? 0
    return try HeadTraining.replacingLayers(
      of: model, from: pool + 1, with: head, tensors: tensors, labelNames: model.labelNames,
      emoji: emoji)
  }

  /// The same layers, weights and input normalisation.
  static func sameBackbone(_ a: Classifier, _ b: Classifier) -> Bool {
    a.normalisation == b.normalisation && a.network.specs == b.network.specs
      && a.network.inputShape == b.network.inputShape
      && a.network.namedTensors == b.network.namedTensors
  }
}
