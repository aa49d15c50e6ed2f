/// What the fuzzer mutates.
enum Target: String, CaseIterable {
  case video, image, model

  /// The commands run on this target's mutants; case rounds go through them in turn.
  var commands: [Command] {
    switch self {
    case .video: [.analyze, .analyzeNoPoster, .frames]
    case .image: [.classify, .analyzeNoPoster]
    case .model: [.classifyWithModel]
    }
  }

  var fileExtension: String {
    switch self {
    case .video: "mp4"
    case .image: "png"
    case .model: "safetensors"
    }
  }
}

/// A leamoji command line to run on a mutant.
enum Command: String {
  /// `analyze <mutant> --output <folder>/MovieData.json --model <seed model>` (poster written).
  case analyze
  /// The same with `--no-poster`.
  case analyzeNoPoster = "analyze-no-poster"
  /// `frames <mutant> --out <folder>/frames`: every sample as a PNG at the display size
  /// (sample aspect ratio and rotation applied), so mutated sizes reach the scaler and encoder.
  case frames
  /// `classify <mutant> --model <seed model>`.
  case classify
  /// `classify <seed image> --model <mutant>`.
  case classifyWithModel = "classify-model"

  /// The arguments for leamoji, with the mutant at `input` and outputs under `outputFolder`.
  func arguments(input: String, outputFolder: String, seeds: SeedSet) -> [String] {
    switch self {
    case .analyze:
      ["analyze", input, "--output", outputFolder + "/MovieData.json", "--model", seeds.modelPath]
    case .analyzeNoPoster:
      [
        "analyze", input, "--output", outputFolder + "/MovieData.json", "--model", seeds.modelPath,
        "--no-poster",
      ]
    case .frames: ["frames", input, "--out", outputFolder + "/frames"]
    case .classify: ["classify", input, "--model", seeds.modelPath]
    case .classifyWithModel: ["classify", seeds.imagePath, "--model", input]
    }
  }
}
