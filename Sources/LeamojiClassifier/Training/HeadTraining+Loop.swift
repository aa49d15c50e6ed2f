import FoundationEssentials
import LeamojiCore
import LeamojiNN

extension HeadTraining {
  /// The momentum of the gradient descent that teaches an existing head (`train --init`).
  static let teachingMomentum: Float = 0.9

  /// The mean squared length of `set`'s rows, plus 1 for the bias: how much a change of the
  /// head's weights moves its logits. Teaching divides its step by it and multiplies the
  /// L2-SP penalty by it, so that the rate and `l2SP` mean the same on any backbone: held by
  /// `l2SP` λ, a logit moves by about 1/λ at most.
  static func featureScale(_ set: FeatureSet) -> Float {
    guard set.count > 0 else { return 1 }
    var sum = 0.0
    for x in set.features { sum += Double(x) * Double(x) }
    return Float(sum / Double(set.count) + 1)
  }

  /// `train`'s epochs with `session`'s optimiser, its step `rate` decaying along a cosine: each
  /// epoch shuffles the rows (balanced when asked), takes each image's flipped row for half of
  /// the images when the set has them, and checks the head on `validation`; the best epoch's
  /// head is kept, put on `cut`'s backbone.
  static func epochs<O: Optimizer>(
    _ session: TrainingSession<O>, rate: Float, training: FeatureSet, validation: FeatureSet?,
    cut: Cut, options: TrainingOptions, emoji: [String: String],
    onEpoch: (EpochReport) -> Void
  ) throws(ClassifierError) -> TrainingResult {
    let width = training.width
    let classes = training.labelNames.count
    var order = Array(0..<training.count)
    let members = (0..<classes).map { label in
      training.labels.indices.filter { training.labels[$0] == label }
    }
    let batchSize = max(1, options.batchSize)
    var best: (epoch: Int, score: (Double, Float), snapshot: ParameterSnapshot)? = nil
    var reports: [EpochReport] = []
    for epoch in 1...max(1, options.epochs) {
      let started = Date()
      let epochSeed = Trainer.epochSeed(options.seed, epoch: epoch)
      var rng = SplitMix64(seed: epochSeed)
      if options.balanceLabels { order = balancedOrder(members, using: &rng) }
      Trainer.shuffle(&order, using: &rng)
      session.optimizer.learningRate = Trainer.learningRate(
        rate, epoch: epoch, of: options.epochs)
      var lossSum = 0.0
      var correct = 0
      var start = 0
      while start < order.count {
        let rows = Array(order[start..<min(order.count, start + batchSize)])
        var data: [Float] = []
        data.reserveCapacity(rows.count * width)
        for i in rows {
          let source =
            training.flipped != nil && rng.next() & 1 == 1 ? training.flipped! : training.features
          data += source[(i * width)..<((i + 1) * width)]
        }
        let result: BatchResult
        do {
          result = try session.step(
            Tensor(shape: [rows.count] + cut.inputShape, data: data),
            labels: rows.map { training.labels[$0] },
            threads: options.threads)
        } catch {
          throw .network(error)
        }
        lossSum += Double(result.meanLoss) * Double(result.count)
        correct += result.correct
        start += rows.count
      }
      let network = session.network
      let validated = try validation.map { set throws(ClassifierError) in
        try score(network, on: set, threads: options.threads)
      }
      let epochScore = validated.map { ($0.accuracy, -$0.meanLoss) } ?? (Double(epoch), 0)
      let improved = best == nil || epochScore > best!.score
      if improved { best = (epoch, epochScore, network.snapshot()) }
      let report = EpochReport(
        epoch: epoch, loss: Float(lossSum / Double(max(1, order.count))),
        trainingAccuracy: Double(correct) / Double(max(1, order.count)),
        validationAccuracy: validated?.accuracy, validationLoss: validated?.meanLoss,
        seconds: Date().timeIntervalSince(started), isBest: improved)
      reports.append(report)
      onEpoch(report)
    }
    var head = session.network
    do {
      try head.restore(best!.snapshot)
    } catch {
      throw .network(error)
    }
    let classifier = try combine(
      cut: cut, trained: head, labelNames: training.labelNames, emoji: emoji)
    return TrainingResult(classifier: classifier, bestEpoch: best!.epoch, reports: reports)
  }
}
