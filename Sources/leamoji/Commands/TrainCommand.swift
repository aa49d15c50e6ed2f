import ArgumentParser
import LeamojiCommandLine

/// `leamoji train`: trains the classifier on labelled image folders, as Create ML's image
/// classifier, or teaches an existing model (`--init`). The workshop's options (network shapes,
/// experts, thresholds) are `leamoji-lab train`'s.
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

      --backbone efficientnet-lite0 trains, instead of a small CNN from scratch, a linear head \
      on the features of a network pretrained on a million photos (shipped in Models/), as \
      Create ML does: each image's features are computed once and cached by the file's \
      SHA-256 (--feature-cache), so the head trains in seconds and a second run starts at \
      once. The model file holds backbone and head together; the only augmentation is flip.

      The model file carries a model card (see leamoji model): --author, --description, \
      --license, --version, the creation date (--created, else $SOURCE_DATE_EPOCH, else now), \
      the training data's per-label counts and digest, the options and the final accuracies. \
      The same data, options, --seed and date give a byte-identical model file.

      The model's workshop, leamoji-lab train (make lab), takes these options and more: the \
      CNN's shape, a hidden layer or fine-tuned layers on a backbone, two experts with a gate, \
      and the card's scary thresholds.

      Examples:
        leamoji train "Training Data" --test "Testing Data" \\
          --output my-model.safetensors --author "Ada" --license MIT
        leamoji train frames-sorted/ --epochs 20 --augment flip,crop,exposure \\
          --emoji angry=😡
        leamoji train "Training Data" --init default --epochs 4 \\
          --output tuned.safetensors --json
        leamoji train "Training Data" --backbone efficientnet-lite0 \\
          --output real.safetensors
      """
  )

  @OptionGroup var options: TrainingArguments

  func validate() throws { try options.check(LabChoices()) }

  func run() throws { try options.run(LabChoices()) }
}
