// swift-tools-version:6.0
import PackageDescription

// The network's kernels run about 20 times slower unoptimised, and the test suite runs the real
// network in thousands of leamoji processes; they are compiled with -O in debug builds too, as is
// Core's SHA-256, which every process runs over the whole model file (13 MB for the default), the
// classifier's per-pixel input rendering (every image it classifies or trains on) and the scene
// generator (the tests draw hundreds of scenes): together they were a quarter of the fast tests.
let optimisedEvenInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]
// LeamojiNN is also compiled whole-module in debug builds, so its kernels inline helpers from
// other files of the module (GEMM's packing and register tiles) as a release build does;
// `-num-threads` keeps one object file per source file, which debug builds' indexing expects.
let kernelsOptimisedEvenInDebug: [SwiftSetting] = [
  .unsafeFlags(
    ["-O", "-whole-module-optimization", "-num-threads", "2"], .when(configuration: .debug))
]

// The network's matrix kernels are written with 8-lane vectors and fused multiply-adds. On
// x86-64 LeamojiNN alone is compiled for AVX2 + FMA (Haswell and later, every AMD Zen), which
// doubles the vector width and fuses each multiply-add; `leamoji` checks the CPU at start and
// exits with a clear message on a CPU without them (docs/network-kernels.md). Setting
// LEAMOJI_BASELINE_CPU=1 when building gives a baseline x86-64 build (SSE, no FMA: slower).
// On arm64, NEON always has FMA.
#if arch(x86_64)
  let baselineCPU = Context.environment["LEAMOJI_BASELINE_CPU"] == "1"
  let kernelTarget: [SwiftSetting] =
    baselineCPU ? [] : [.unsafeFlags(["-target-cpu", "haswell"]), .define("LEAMOJI_FMA")]
  let cpuCheck: [SwiftSetting] = baselineCPU ? [] : [.define("LEAMOJI_KERNELS_NEED_AVX2_FMA")]
#else
  let kernelTarget: [SwiftSetting] = [.define("LEAMOJI_FMA")]
  let cpuCheck: [SwiftSetting] = []
#endif

let package = Package(
  name: "leamoji",
  products: [
    .executable(name: "leamoji", targets: ["leamoji"]),
    .executable(name: "leamoji-bench", targets: ["leamoji-bench"]),
    .executable(name: "leamoji-fuzz", targets: ["leamoji-fuzz"]),
    .executable(name: "leamoji-lab", targets: ["leamoji-lab"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
  ],
  targets: [
    // FFmpeg's C libraries, found with pkg-config. Only LeamojiVideo imports this.
    .systemLibrary(
      name: "CFFmpeg",
      pkgConfig: "libavformat libavcodec libswscale libswresample libavutil",
      providers: [
        .apt([
          "libavformat-dev", "libavcodec-dev", "libswscale-dev", "libswresample-dev",
          "libavutil-dev", "pkg-config",
        ])
      ]
    ),
    // Plain values shared by every module (RGB images, sizes), the one durable-file writer and the
    // one owner of termination signals. No FFmpeg.
    .target(name: "LeamojiCore", swiftSettings: optimisedEvenInDebug + cpuCheck),
    // Every FFmpeg pointer: opening media, decoding, per-second sampling, still images in and out.
    .target(name: "LeamojiVideo", dependencies: ["CFFmpeg", "LeamojiCore"]),
    // Tensors, layers, forward/backward passes, optimizers, safetensors files. Pure Swift
    // (Core for its seeded random generator and durable file writes).
    .target(
      name: "LeamojiNN", dependencies: ["LeamojiCore"],
      swiftSettings: kernelsOptimisedEvenInDebug + kernelTarget),
    // The emotion classifier around the network: labelled image folders, augmentation, the
    // training loop, evaluation. Receives image decoding as a function; never touches FFmpeg.
    .target(
      name: "LeamojiClassifier", dependencies: ["LeamojiNN", "LeamojiCore"],
      swiftSettings: optimisedEvenInDebug),
    // Markers from per-second scores, the MovieData.json document and its locked store, and
    // subtitles. Pure Swift: no FFmpeg, no terminal (Core for durable file writes and locks).
    .target(name: "LeamojiTimeline", dependencies: ["LeamojiCore"]),
    // The terminal player's parts: half-block canvas, overlay, cues, pacing, terminal session.
    // No FFmpeg, no network code.
    .target(name: "LeamojiTerminal", dependencies: ["LeamojiCore", "LeamojiTimeline"]),
    // `leamoji report`: the catalogue as a static web site (pages, CSS, JS, cache of what was
    // written). Pure Swift: thumbnails come from a function the caller gives (no FFmpeg).
    .target(
      name: "LeamojiReport", dependencies: ["LeamojiCore", "LeamojiTimeline"]),
    // The deterministic generator of mood scenes (happy / neutral / scary lighting) used to make
    // the default training data and the sample videos. Pure Swift.
    .target(
      name: "LeamojiScenes", dependencies: ["LeamojiCore"], swiftSettings: optimisedEvenInDebug),
    // Per-second intensity signals that ignore art style (issue 37): loudness, sudden rises,
    // spectral flux, onsets and rumble from 16 kHz sound; motion and cuts from pictures. Pure Swift.
    .target(
      name: "LeamojiIntensity", dependencies: ["LeamojiCore"], swiftSettings: optimisedEvenInDebug),
    // Analysing a video, for any front end: sampling, batched classification, markers, poster,
    // store update; also exporting frames and scene stills, reading images and models. Its
    // errors are one `LeamojiError` enum of four kinds of problem, which the two libraries below
    // share.
    .target(
      name: "LeamojiAnalysis",
      dependencies: [
        "LeamojiCore", "LeamojiVideo", "LeamojiNN", "LeamojiClassifier", "LeamojiTimeline",
        "LeamojiIntensity",
      ]
    ),
    // What both command-line tools share: the console (results on stdout, one-line errors on
    // stderr, made safe for a terminal), progress bars, exit statuses, and `train`'s options,
    // run and printing (`leamoji-lab train` adds the workshop's options to `leamoji train`'s),
    // and the scene generator's command (`leamoji-lab scenes`; `leamoji scenes`, hidden, for the
    // command lines of before the move).
    .target(
      name: "LeamojiCommandLine",
      dependencies: [
        "LeamojiCore", "LeamojiAnalysis", "LeamojiClassifier", "LeamojiScenes",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `label` and `review`: their sessions, journal, screens and key loop.
    .target(
      name: "LeamojiLabelling",
      dependencies: [
        "LeamojiAnalysis", "LeamojiCore", "LeamojiVideo", "LeamojiClassifier", "LeamojiTimeline",
        "LeamojiTerminal",
      ]
    ),
    // `play`: the playback session and the player's loop in the terminal.
    .target(
      name: "LeamojiPlayback",
      dependencies: [
        "LeamojiAnalysis", "LeamojiCore", "LeamojiVideo", "LeamojiTimeline", "LeamojiTerminal",
      ]
    ),
    // The command-line tool: parses arguments, prints, maps errors to exit statuses. It imports
    // neither CFFmpeg, LeamojiVideo nor LeamojiNN: the work is in LeamojiAnalysis.
    .executableTarget(
      name: "leamoji",
      dependencies: [
        "LeamojiCore", "LeamojiAnalysis", "LeamojiLabelling", "LeamojiPlayback",
        "LeamojiClassifier", "LeamojiTimeline", "LeamojiTerminal", "LeamojiReport",
        "LeamojiCommandLine",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Benchmarks that print figures (`make bench-cnn`); speed is measured here, never in tests.
    .executableTarget(
      name: "leamoji-bench",
      dependencies: [
        "LeamojiNN", "LeamojiCore", "LeamojiReport", "LeamojiTimeline",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The mutation fuzzer (`make fuzz`): mutates sample inputs and runs the built leamoji on each,
    // counting crashes, hangs and clear errors. Talks to leamoji only as a separate process.
    .executableTarget(
      name: "leamoji-fuzz",
      dependencies: [
        "LeamojiCore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The model's workshop apart from the product: setting a model file's card without
    // retraining, re-deriving timelines at other scary thresholds with the product's own
    // encoder. `leamoji-lab` is the command line over it, with `train`'s workshop options and
    // the scene generator.
    .target(
      name: "LeamojiLab",
      dependencies: ["LeamojiCore", "LeamojiNN", "LeamojiClassifier", "LeamojiTimeline"]),
    .executableTarget(
      name: "leamoji-lab",
      dependencies: [
        "LeamojiLab", "LeamojiCore", "LeamojiCommandLine", "LeamojiAnalysis", "LeamojiScenes",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // What every test target shares: the one scratch folder, the one process runner, the tmux
    // driver, the repository's paths and fixtures (sample videos, models, ffmpeg-made videos).
    // Foundation and LeamojiCore (the base every module has) only, so any test target can use it.
    .target(
      name: "LeamojiTestSupport", dependencies: ["LeamojiCore"], path: "Tests/LeamojiTestSupport"),
    .testTarget(name: "LeamojiCoreTests", dependencies: ["LeamojiCore", "LeamojiTestSupport"]),
    .testTarget(
      name: "LeamojiVideoTests",
      dependencies: ["LeamojiVideo", "LeamojiCore", "LeamojiTestSupport"]),
    // Counts a thread's heap allocations in the test executable (interposes malloc); tests use
    // it to prove the training step allocates nothing.
    .target(name: "MallocCounter", path: "Tests/MallocCounter"),
    .testTarget(
      name: "LeamojiNNTests",
      dependencies: ["LeamojiNN", "LeamojiCore", "MallocCounter", "LeamojiTestSupport"]),
    .testTarget(
      name: "LeamojiClassifierTests",
      dependencies: ["LeamojiClassifier", "LeamojiNN", "LeamojiCore", "LeamojiTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "LeamojiTimelineTests",
      dependencies: ["LeamojiTimeline", "LeamojiCore", "LeamojiTestSupport"]),
    .testTarget(
      name: "LeamojiTerminalTests",
      dependencies: ["LeamojiTerminal", "LeamojiCore", "LeamojiTimeline", "LeamojiTestSupport"]),
    // LeamojiClassifier: the shipped model is scored on held-out varied scenes (issue 12).
    .testTarget(
      name: "LeamojiScenesTests",
      dependencies: ["LeamojiScenes", "LeamojiClassifier", "LeamojiCore", "LeamojiTestSupport"]),
    .testTarget(
      name: "LeamojiIntensityTests",
      dependencies: ["LeamojiIntensity", "LeamojiCore", "LeamojiTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "LeamojiAnalysisTests",
      dependencies: [
        "LeamojiAnalysis", "LeamojiVideo", "LeamojiNN", "LeamojiClassifier", "LeamojiTimeline",
        "LeamojiCore", "LeamojiTestSupport", "LeamojiIntensity",
      ]),
    .testTarget(
      name: "LeamojiLabellingTests",
      dependencies: [
        "LeamojiLabelling", "LeamojiAnalysis", "LeamojiClassifier", "LeamojiTimeline",
        "LeamojiCore", "LeamojiTestSupport",
      ]),
    .testTarget(
      name: "LeamojiPlaybackTests",
      dependencies: ["LeamojiPlayback", "LeamojiAnalysis", "LeamojiTestSupport"]),
    .testTarget(
      name: "LeamojiReportTests",
      dependencies: [
        "LeamojiReport", "LeamojiAnalysis", "LeamojiVideo", "LeamojiTerminal", "LeamojiTimeline",
        "LeamojiCore", "LeamojiTestSupport",
      ]),
    .testTarget(
      name: "LeamojiLabTests",
      dependencies: [
        "LeamojiLab", "LeamojiClassifier", "LeamojiNN", "LeamojiTimeline", "LeamojiCore",
        "LeamojiTestSupport",
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "LeamojiCLITests", dependencies: ["LeamojiCore", "LeamojiVideo", "LeamojiTestSupport"],
      exclude: ["Fixtures"]),
  ]
)

// Every target sees only the members of the modules it imports itself, so a file cannot use a
// module's API through another import, and the dependency lists above are the truth.
for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
