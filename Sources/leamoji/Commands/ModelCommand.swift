import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCommandLine
import LeamojiCore

/// `leamoji model`: what a model file says about itself — its labels, input and size, and its
/// model card (author, description, licence, version, date, training data, training and
/// accuracy). Files from before the card print what is known.
struct Model: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Show a model file's labels, input and model card.",
    discussion: """
      Without MODEL, shows the model analyze would use ($LEAMOJI_MODEL, else the shipped \
      Models/leamoji.safetensors). Entries a file does not record (files written before model \
      cards record none) show as "not recorded"; in JSON they are absent.

      Examples:
        leamoji model
        leamoji model Models/leamoji.safetensors --json
      """
  )

  @Argument(
    help: "The model file (default: $LEAMOJI_MODEL, else the shipped model).",
    completion: .file(extensions: ["safetensors"]))
  var model: String?

  @Flag(help: "Print the result as one JSON object.")
  var json = false

  struct Report: Encodable {
    let file: String
    let sha256: String
    let labels: [String]
    let emoji: [String]
    let input: String
    let parameters: Int
    let layersWithWeights: Int
    let card: ModelCard

    enum CodingKeys: String, CodingKey {
      case file, sha256, labels, emoji, input, parameters, card
      case layersWithWeights = "layers_with_weights"
    }
  }

  func run() throws {
    let path = ModelLocator.resolve(model)
    let model: LoadedModel
    do {
      model = try ModelLocator.load(path)
    } catch {
      throw CommandFailure(error)
    }
    let classifier = model.classifier
    let input = "3x\(classifier.inputSize.height)x\(classifier.inputSize.width)"
    let report = Report(
      file: path, sha256: model.sha256, labels: classifier.labelNames,
      emoji: classifier.labels.map(\.emoji), input: input, parameters: classifier.parameterCount,
      layersWithWeights: classifier.layersWithWeights,
      card: classifier.card)
    if json {
      Console.printJSON(jsonText(report))
      return
    }
    lines(report).forEach { Console.print($0) }
  }

  /// The report as text, one `name: value` line per entry.
  func lines(_ r: Report) -> [String] {
    let card = r.card
    let missing = "not recorded"
    var out = [
      "File:          \(r.file)",
      "SHA-256:       \(r.sha256)",
      "Labels:        "
        + zip(r.emoji, r.labels).map { "\($0) \($1)" }.joined(separator: ", "),
      "Input:         \(r.input) RGB, \(r.layersWithWeights) layers with weights, \(r.parameters) parameters",
      "Author:        \(card.author ?? missing)",
      "Description:   \(card.description ?? missing)",
      "License:       \(card.license ?? missing)",
      "Version:       \(card.modelVersion ?? missing)",
      "Created:       \(card.created ?? missing)",
    ]
    if let data = card.trainingData {
      let counts = r.labels.compactMap { label in data.counts[label].map { "\(label) \($0)" } }
      let others = data.counts.keys.filter { !r.labels.contains($0) }.sorted().map {
        "\($0) \(data.counts[$0]!)"
      }
      out.append(
        "Training data: \(data.files) images (\((counts + others).joined(separator: ", "))), file list sha256 \(data.sha256)"
      )
    } else {
      out.append("Training data: \(missing)")
    }
    // A model of two experts records what its last training trained: the gate, or (--init)
    // the primary expert.
    let trainedGate = card.training.map { $0.experts != nil && $0.initFrom == nil } ?? false
    if let t = card.training {
      out.append(
        "Training:      \(t.epochs) epochs (kept \(t.bestEpoch)), seed \(t.seed), batch \(t.batchSize), "
          + "learning rate \(t.learningRate), augmentations "
          + (t.augmentations.isEmpty ? "none" : t.augmentations.joined(separator: ", "))
          + (t.l2.map { ", L2 penalty \($0)" } ?? ""))
      if let base = t.initFrom {
        // A taught head (since 2.5's successors) says what it retrained and kept.
        let taught = [
          t.initVersion.map { "version \($0)" },
          t.retrained.map { "retrained: \($0.joined(separator: ", "))" },
          t.l2SP.map { "held near it by L2-SP \($0)" },
          t.carried.map { "carried: \($0.joined(separator: ", "))" },
        ].compactMap { $0 }
        out.append(
          "Fine-tuned:    from \(base), "
            + (taught.isEmpty
              ? "\(t.frozenLayers ?? 0) layers frozen" : taught.joined(separator: "; ")))
      }
      if let backbone = t.backbone {
        let units = t.hiddenUnits ?? 0
        out.append(
          "Backbone:      \(backbone), head "
            + (trainedGate
              ? "two experts and a gate"
              : units == 0 ? "linear" : "with \(units) hidden units")
            + (t.fineTunedLayers.map { ", its last \($0) layers fine-tuned" } ?? ""))
      }
      if let experts = t.experts, experts.count == 2 {
        out.append(
          "Experts:       primary \(experts[0]), secondary \(experts[1]), a gate choosing per picture (--init trains the primary)"
        )
      }
    } else {
      out.append("Training:      \(missing)")
    }
    if let a = card.accuracy {
      let parts = [("training", a.training), ("validation", a.validation), ("test", a.test)]
        .compactMap { name, value in value.map { "\(name) \(percent($0))" } }
      let of =
        card.training?.experts == nil
        ? "" : trainedGate ? " (the gate: which expert answers)" : " (the primary expert)"
      out.append(
        "Accuracy:      " + (parts.isEmpty ? missing : parts.joined(separator: ", ") + of))
    } else {
      out.append("Accuracy:      \(missing)")
    }
    if let p = card.scaryThreshold {
      let tuned = [("high", card.scaryThresholdHigh), ("low", card.scaryThresholdLow)]
        .compactMap { name, value in value.map { "\(name) \(percent($0))" } }
      out.append(
        "Scary from:    p(scary) \(percent(p)) (analyze --sensitivity normal"
          + (tuned.isEmpty ? "" : "; " + tuned.joined(separator: ", ")) + ")")
    }
    let fusion = card.fusion ?? .standard
    out.append(
      CFormat.string(
        "Sound:         intensity %g to %+g LU around the film's level, weight %g, margin %g, picture from %g; sudden from a %g dB rise with a %g change of picture",
        fusion.quietLU, fusion.loudLU, fusion.soundWeight, fusion.soundMargin,
        fusion.pictureFloor, fusion.suddenRiseDB, fusion.suddenChange)
        + (card.fusion == nil ? " (leamoji's standard settings)" : ""))
    if let evaluation = card.evaluation {
      out.append("Checked:       \(evaluation)")
    }
    if card.isEmpty {
      out.append("(This file has no model card: it was written before leamoji recorded one.)")
    }
    return out
  }
}
