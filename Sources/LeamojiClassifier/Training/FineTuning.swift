import LeamojiCore
import LeamojiNN

/// Starting training from an existing model (`train --init`) and keeping its first layers
/// fixed (`--freeze N`): how a user teaches leamoji their own films with a few hundred
/// labelled frames, reusing what the shipped model learned about pictures.
enum FineTuning {
  /// The classifier training starts from: `base`'s layers, weights and normalisation; its head
  /// (the last layer, which must be linear) replaced by a freshly initialised one when
  /// `labelNames` are not `base`'s labels in its order.
  static func start(
    from base: Classifier, labelNames: [String], size: PixelSize, seed: UInt64,
    customEmoji: [String: String]
  ) throws(ClassifierError) -> Classifier {
    guard size == base.inputSize else { throw .imageSize(found: size, expected: base.inputSize) }
    var emoji = base.emojiEntry
    emoji.merge(customEmoji) { _, new in new }
    // Labels the base model has no emoji for get the standard ones when they are standard.
    for label in Label.standard where emoji[label.name] == nil { emoji[label.name] = label.emoji }
    guard labelNames != base.labelNames else {
      return try Classifier(
        network: base.network, labelNames: labelNames, normalisation: base.normalisation,
        emoji: emoji)
    }
    var specs = base.network.specs
    guard case .linear(let name, let inFeatures, _) = specs.last else {
      throw .cannotFineTune(reason: "the model's last layer is not a linear head")
    }
    specs[specs.count - 1] = .linear(
      name: name, inFeatures: inFeatures, outFeatures: labelNames.count)
    let network: Network
    do {
      let fresh = try Network(specs: specs, inputShape: base.network.inputShape, seed: seed)
      var parameters = base.network.namedTensors  // buffers (batch norm statistics) too
      for (key, value) in fresh.namedParameters where key.hasPrefix(name + ".") {
        parameters[key] = value
      }
      network = try Network(
        specs: specs, inputShape: base.network.inputShape, parameters: parameters)
    } catch {
      throw .network(error)
    }
    return try Classifier(
      network: network, labelNames: labelNames, normalisation: base.normalisation, emoji: emoji)
  }

  /// How many parameter tensors (in network order) belong to the first `layers` parameterised
  /// layers.
  /// - Throws: `.cannotFineTune` when `layers` is negative or leaves no layer to train.
  static func frozenParameterCount(_ network: Network, layers: Int) throws(ClassifierError) -> Int {
    let parameterised = network.layers.filter { !$0.parameters.isEmpty }
    guard layers >= 0, layers < parameterised.count else {
      throw .cannotFineTune(
        reason: "--freeze must be 0 to \(parameterised.count - 1): the model has "
          + "\(parameterised.count) layers with weights and the last one must train")
    }
    return parameterised.prefix(layers).reduce(0) { $0 + $1.parameters.count }
  }
}
