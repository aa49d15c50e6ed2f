import ArgumentParser
import Foundation
import LeamojiCore

/// leamoji-bench: benchmarks that print figures. Speed is measured here, never in the tests;
/// run a release build (`make bench-cnn`).
struct LeamojiBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leamoji-bench",
    abstract: "Prints speed figures of leamoji's parts. Run a release build.",
    discussion: """
      Exit status: 0 done, 1 a benchmark failed, 64 bad usage (no benchmark named).

      Examples:
        leamoji-bench cnn                        # every core, about 2 s per figure
        leamoji-bench cnn --threads 1 --seconds 5
        leamoji-bench backbone --size 224        # the pretrained backbone (make bench-cnn)
        leamoji-bench heads-up                   # a 90-minute film's heads-up
      """,
    subcommands: [CNN.self, Backbone.self, Report.self, HeadsUp.self]
  )

  /// Without a benchmark there is nothing to measure: bad usage, as before ArgumentParser.
  func run() throws {
    throw ValidationError("name a benchmark: cnn")
  }
}

extension LeamojiBench {
  /// `leamoji-bench cnn`: the default network's speed.
  struct CNN: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "cnn",
      abstract: "The default network: inference at batch 1 and 32, training, convolution GFLOP/s.",
      discussion: """
        Also prints the forward FLOPs per image, layer by layer.

        Examples:
          leamoji-bench cnn
          leamoji-bench cnn --threads 2 --seconds 0.5   # a quick look
          leamoji-bench cnn --pytorch python3   # also PyTorch, with ratios
        """
    )

    @Option(
      help: ArgumentHelp(
        "Worker threads. (default: number of cores)", valueName: "n"))
    var threads: Int?

    @Option(
      help: ArgumentHelp(
        "How long each figure is measured, after one warm-up run.", valueName: "seconds"))
    var seconds = 2.0

    @Option(
      help: ArgumentHelp(
        "A Python interpreter with torch: also runs scripts/bench-cnn-pytorch.py on the same network and prints the ratios.",
        valueName: "python"))
    var pytorch: String?

    @Flag(help: "A batch norm after each convolution (training then measures batch norm).")
    var batchNorm = false

    @Option(help: ArgumentHelp("Dropout before the classifier (0: none).", valueName: "p"))
    var dropout = 0.0

    func validate() throws {
      guard threads.map({ $0 >= 1 }) ?? true else {
        throw ValidationError("--threads must be at least 1")
      }
      guard seconds >= 0 else { throw ValidationError("--seconds must not be negative") }
      guard (0..<1).contains(dropout) else { throw ValidationError("--dropout must be in [0, 1)") }
    }

    func run() throws {
      let workers = threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
      do {
        if let problem = CPURequirement.problem() {
          throw BenchmarkFailure(problem)
        }
        try CNNBenchmark(
          threads: workers, seconds: seconds, python: pytorch, batchNorm: batchNorm,
          dropout: dropout
        ).run()
      } catch {
        FileHandle.standardError.write(Data("leamoji-bench: \(error)\n".utf8))
        throw ExitCode.failure
      }
    }
  }
}

extension LeamojiBench {
  /// `leamoji-bench backbone`: a pretrained backbone model file's speed.
  struct Backbone: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "backbone",
      abstract: "A pretrained backbone (EfficientNet-Lite0): inference at batch 1 and 32.",
      discussion: """
        Also prints each kind of step's GFLOP/s and share of the FMA peak.

        Examples:
          leamoji-bench backbone --size 224
          leamoji-bench backbone --size 160 --peers python3   # also PyTorch and ONNX Runtime
        """
    )

    @Option(help: ArgumentHelp("The model file.", valueName: "path"))
    var model = "Models/efficientnet-lite0.safetensors"

    @Option(help: ArgumentHelp("Input height and width (224, 192 or 160).", valueName: "pixels"))
    var size = 224

    @Option(help: ArgumentHelp("Threads. (default: number of cores)", valueName: "n"))
    var threads: Int?

    @Option(
      help: ArgumentHelp(
        "How long each figure is measured, after one warm-up run.", valueName: "seconds"))
    var seconds = 3.0

    @Option(
      help: ArgumentHelp(
        "A Python interpreter with torch and onnxruntime: also runs scripts/bench-backbone-peers.py and prints the ratios.",
        valueName: "python"))
    var peers: String?

    @Option(
      help: ArgumentHelp(
        "The original .pth the peers load (Lab/scripts/convert-efficientnet-lite0.sh caches it).",
        valueName: "path"))
    var pth = ".build/weights/efficientnet-lite0-57934424.pth"

    @Flag(
      help: ArgumentHelp(
        "Also time every step alone: its mean and its shortest time per image (compare builds by the shortest on a shared machine)."
      ))
    var steps = false

    func validate() throws {
      guard threads.map({ $0 >= 1 }) ?? true else {
        throw ValidationError("--threads must be at least 1")
      }
      guard (32...1024).contains(size) else { throw ValidationError("--size must be 32...1024") }
      guard seconds >= 0 else { throw ValidationError("--seconds must not be negative") }
    }

    func run() throws {
      let workers = threads ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
      do {
        if let problem = CPURequirement.problem() { throw BenchmarkFailure(problem) }
        try BackboneBenchmark(
          model: model, size: size, threads: workers, seconds: seconds, python: peers, pth: pth,
          eachStep: steps
        ).run()
      } catch {
        FileHandle.standardError.write(Data("leamoji-bench: \(error)\n".utf8))
        throw ExitCode.failure
      }
    }
  }
}

LeamojiBench.main()
