import ArgumentParser
import LeamojiCommandLine

/// `leamoji-lab train`: `leamoji train` with the workshop's options, the ones the shipped
/// models are made with (docs/model.md).
struct LabTrain: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "train",
    abstract: "Train a model with the workshop's options too: network shapes, experts, thresholds.",
    discussion: """
      Everything leamoji train does (see leamoji train --help), and:

      With --backbone, --hidden N puts a hidden layer in the head, --fine-tune N trains the \
      backbone's last N layers with weights too (from the features before them, cached the \
      same way), and --balance shows every label as often as the most frequent one each \
      epoch. --init on such a model trains its head further.

      --experts PRIMARY,SECONDARY joins two heads trained on the same backbone (a linear one, \
      e.g. for real footage, and another, e.g. for generated scenes) with a gate: the folder \
      then holds Primary/ and Secondary/ pictures, the head trained on them decides per \
      picture which expert answers, and the model written holds both experts and the gate \
      (plain linear and ReLU layers). --init on such a model trains its primary expert.

      The CNN trained from scratch: --input-size (64, 96 or 128 pixels), --widths (channels of \
      each conv block) or --depth (blocks), --batch-norm (batch normalisation after each \
      convolution) and --dropout P (before the classifier, in training only). The file \
      records them all, so the model is rebuilt from the file alone, also in PyTorch \
      (docs/model-file.md).

      The card's check fields (--evaluation, --scary-threshold and its -high and -low) are \
      usually set after the model was checked, with leamoji-lab card; given here, the file is \
      the same bytes as training without them and carding after.

      Examples:
        leamoji-lab train "Training Data" --input-size 96 --batch-norm \\
          --widths 16,32,64 --dropout 0.2 --output bigger.safetensors
        leamoji-lab train "Training Data" --backbone efficientnet-lite0 --l2 1 \\
          --output real.safetensors
        leamoji-lab train "Training Data" --backbone efficientnet-lite0 --hidden 64 \\
          --output generated.safetensors
        leamoji-lab train domains/ --backbone efficientnet-lite0 \\
          --experts real.safetensors,generated.safetensors --output both.safetensors
      """
  )

  @OptionGroup var options: TrainingArguments
  @OptionGroup var lab: LabTrainingArguments
  @OptionGroup var check: CardCheckArguments

  /// The workshop's choices from both groups.
  var choices: LabChoices {
    var choices = lab.choices
    check.apply(to: &choices)
    return choices
  }

  func validate() throws { try options.check(choices) }

  func run() throws { try options.run(choices) }
}

/// The options only the workshop's `train` has.
struct LabTrainingArguments: ParsableArguments {
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
      "L2 penalty on the weights (0: none). Heads on a backbone trained on a few hundred real pictures did best on the real check set with 1 to 3 (docs/model-trials.md).",
      valueName: "λ"))
  var l2: Float = 0

  @Option(
    name: .customLong("input-size"),
    help: "Input size in pixels, square: 64, 96 or 128 (default 64, or the --init model's).")
  var inputSize: Int?

  /// `--size`, its older name (still accepted, not shown).
  @Option(name: .customLong("size"), help: .hidden)
  var legacySize: Int?

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

  var choices: LabChoices {
    var choices = LabChoices()
    choices.hidden = hidden
    choices.fineTune = fineTune
    choices.experts = experts
    choices.balance = balance
    choices.l2 = l2
    choices.inputSize = inputSize ?? legacySize
    choices.widths = widths
    choices.depth = depth
    choices.batchNorm = batchNorm
    choices.dropout = dropout
    return choices
  }
}
