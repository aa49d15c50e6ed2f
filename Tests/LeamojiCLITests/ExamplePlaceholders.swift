import Foundation
import LeamojiTestSupport

#if canImport(Glibc)
  import Glibc
#endif

// MARK: - Placeholders

/// What stands in for the files the examples name but the repository does not ship.
///
/// An example runs in a folder holding copies of the bundled files (`SampleVideos/` with the three
/// videos and their `.truth.json`, `Models/leamoji.safetensors`), plus whatever earlier examples
/// of the same help text or README block wrote. Just before an example runs, each input it names
/// (positional files, `--model`, `--test`, `--validation`, timeline's `--data`; see
/// `ExampleInputs.rules`) that is not there is looked up here by its path (without `./` or a
/// trailing `/`; for a glob such as `movies/*.mp4` that matches nothing, its folder `movies`) and
/// made. A name that is in none of these places fails the test with the line that uses it: add it
/// here.
///
/// | placeholder | stands for |
/// | --- | --- |
/// | `movie.mkv`, `film.mkv` | `SampleVideos/night-walk.mp4` remuxed into Matroska (`ffmpeg -c copy`) |
/// | `movie.mp4`, `film.mp4` | a copy of `SampleVideos/night-walk.mp4` |
/// | `movies` | a folder with copies of the three sample videos |
/// | `Training Data`, `my-data`, `frames-sorted` | `Happy/`, `Neutral/`, `Scary/` with 5 frames each of meadow-storm and party-cellar |
/// | `Testing Data`, `my-test`, `my-frames` | the same with 3 frames each of night-walk |
/// | `domains` | `Primary/` and `Secondary/`: the happy and the scary frames of `Training Data` |
/// | `frames` | the 24 frames of night-walk, `000000.png` … `000023.png` |
/// | `frames/000042.png` | one frame of night-walk (second 10, scary) under that name |
/// | `my-model.safetensors` | a copy of the shipped `Models/leamoji.safetensors` |
/// | `MovieData.json`, `site/MovieData.json` | the three sample videos analysed with the shipped model (the golden file `Fixtures/golden/sample-videos.MovieData.json`) |
/// | `parts`, `a.json`, `b.json` | fragments: `parts/<sample>.part.json` with one sample video's entry each; `a.json` and `b.json` the first two of them |
///
/// The frames are made once per test run with `leamoji frames --size 160x90` and sorted into the
/// labelled folders by the samples' `SampleVideos/*.truth.json` (the mood of every second), so the
/// training examples train on a few real, correctly labelled images in about a second, without
/// changing their options.
struct Placeholder: Sendable {
  let names: [String]
  let standsFor: String
  let make: @Sendable (_ destination: URL) throws -> Void

  static let table: [Placeholder] = [
    Placeholder(
      names: ["movie.mkv", "film.mkv"],
      standsFor: "SampleVideos/night-walk.mp4 remuxed into Matroska"
    ) { try ExampleAssets.copy(ExampleAssets.matroska.get(), to: $0) },
    Placeholder(
      names: ["movie.mp4", "film.mp4"], standsFor: "a copy of SampleVideos/night-walk.mp4"
    ) { try ExampleAssets.copy(ExampleAssets.sampleVideo("night-walk"), to: $0) },
    Placeholder(names: ["movies"], standsFor: "a folder with the three sample videos") {
      destination in
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
      for name in ExampleAssets.sampleNames {
        try ExampleAssets.copy(
          ExampleAssets.sampleVideo(name),
          to: destination.appendingPathComponent("\(name).mp4"))
      }
    },
    Placeholder(
      names: ["Training Data", "my-data", "frames-sorted"],
      standsFor: "Happy/, Neutral/, Scary/ with 5 frames each of meadow-storm and party-cellar"
    ) { try ExampleAssets.copy(ExampleAssets.trainingSet.get(), to: $0) },
    Placeholder(
      names: ["Testing Data", "my-test", "my-frames"],
      standsFor: "Happy/, Neutral/, Scary/ with 3 frames each of night-walk"
    ) { try ExampleAssets.copy(ExampleAssets.testingSet.get(), to: $0) },
    Placeholder(
      names: ["domains"],
      standsFor: "Primary/ and Secondary/: Training Data's happy and scary frames"
    ) { destination in
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
      for (label, domain) in [("Happy", "Primary"), ("Scary", "Secondary")] {
        try ExampleAssets.copy(
          ExampleAssets.trainingSet.get().appendingPathComponent(label),
          to: destination.appendingPathComponent(domain))
      }
    },
    Placeholder(names: ["frames"], standsFor: "the 24 frames of night-walk") {
      try ExampleAssets.copy(
        ExampleAssets.frames.get().appendingPathComponent("night-walk"), to: $0)
    },
    Placeholder(
      names: ["frames/000042.png"], standsFor: "one frame of night-walk (second 10, scary)"
    ) {
      try ExampleAssets.copy(
        ExampleAssets.frames.get().appendingPathComponent("night-walk/000010.png"), to: $0)
    },
    Placeholder(
      names: ["my-model.safetensors"], standsFor: "a copy of Models/leamoji.safetensors"
    ) {
      try ExampleAssets.copy(
        Repository.root.appendingPathComponent("Models/leamoji.safetensors"), to: $0)
    },
    Placeholder(
      names: ["MovieData.json", "site/MovieData.json"],
      standsFor: "the three sample videos analysed with the shipped model"
    ) { try ExampleAssets.copy(ExampleAssets.timelineFile.get(), to: $0) },
    Placeholder(
      names: ["parts"], standsFor: "parts/<sample>.part.json, one sample video's entry each"
    ) { try ExampleAssets.copy(ExampleAssets.fragments.get(), to: $0) },
    Placeholder(names: ["a.json"], standsFor: "the meadow-storm fragment") {
      try ExampleAssets.copy(
        ExampleAssets.fragments.get().appendingPathComponent("meadow-storm.part.json"), to: $0)
    },
    Placeholder(names: ["b.json"], standsFor: "the night-walk fragment") {
      try ExampleAssets.copy(
        ExampleAssets.fragments.get().appendingPathComponent("night-walk.part.json"), to: $0)
    },
  ]

  static func named(_ name: String) -> Placeholder? {
    table.first { $0.names.contains(name) }
  }
}

/// The files placeholders are copied from, each made once per test run (lazily, so a test that
/// needs none makes none) in one folder removed when the test process exits.
enum ExampleAssets {
  static let sampleNames = Repository.sampleNames

  static let folder: URL = {
    let url =
      (try? ScratchFolder.url("example-assets"))
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("leamoji-example-assets")
    atexit { try? FileManager.default.removeItem(at: ExampleAssets.folder) }
    return url
  }()

  static func sampleVideo(_ name: String) -> URL {
    URL(fileURLWithPath: Repository.sampleVideo(name))
  }

  /// `frames/<sample>/NNNNNN.png`: every second of each sample video, from `leamoji frames`.
  static let frames: Result<URL, any Error> = Result {
    let root = folder.appendingPathComponent("frames")
    for name in sampleNames {
      let result = try CLI.leamoji(
        [
          "frames", sampleVideo(name).path, "--out", root.appendingPathComponent(name).path,
          "--size", "160x90",
        ], timeout: 60)
      guard result.status == 0 else {
        throw HarnessError("leamoji frames \(name).mp4 failed: \(result.stderr)")
      }
    }
    return root
  }

  /// The mood of every second of a sample video, from its `.truth.json`.
  static func truth(_ name: String) throws -> [String] {
    let url = Repository.root.appendingPathComponent(
      "SampleVideos/\(name).truth.json")
    guard
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
      let labels = object["labels"] as? [String]
    else { throw HarnessError("no labels in \(url.path)") }
    return labels
  }

  /// A labelled folder: `perLabel` frames for each of happy, neutral and scary from `videos`,
  /// spread evenly over the seconds that have the label.
  static func labelledSet(_ name: String, from videos: [String], perLabel: Int) throws -> URL {
    let root = folder.appendingPathComponent(name)
    let frameFolder = try frames.get()
    var secondsByLabel: [String: [(video: String, second: Int)]] = [:]
    for video in videos {
      for (second, label) in try truth(video).enumerated() {
        secondsByLabel[label, default: []].append((video, second))
      }
    }
    for label in ["happy", "neutral", "scary"] {
      let candidates = secondsByLabel[label] ?? []
      guard candidates.count >= perLabel else {
        throw HarnessError("only \(candidates.count) \(label) seconds in \(videos)")
      }
      let labelFolder = root.appendingPathComponent(label.capitalized)
      try FileManager.default.createDirectory(at: labelFolder, withIntermediateDirectories: true)
      for index in 0..<perLabel {
        let pick = candidates[index * candidates.count / perLabel]
        let file = String(format: "%06d.png", pick.second)
        try copy(
          frameFolder.appendingPathComponent("\(pick.video)/\(file)"),
          to: labelFolder.appendingPathComponent("\(pick.video)-\(file)"))
      }
    }
    return root
  }

  static let trainingSet: Result<URL, any Error> = Result {
    try labelledSet("training", from: ["meadow-storm", "party-cellar"], perLabel: 5)
  }

  static let testingSet: Result<URL, any Error> = Result {
    try labelledSet("testing", from: ["night-walk"], perLabel: 3)
  }

  static let matroska: Result<URL, any Error> = Result {
    let url = folder.appendingPathComponent("night-walk.mkv")
    let result = try ProcessRunner.run(
      "ffmpeg", ["-v", "error", "-i", sampleVideo("night-walk").path, "-c", "copy", url.path],
      timeout: 60)
    guard result.status == 0 else { throw HarnessError("ffmpeg remux failed: \(result.stderr)") }
    return url
  }

  /// The sample videos' timeline: the committed golden file, which the golden tests check is
  /// exactly what `leamoji analyze SampleVideos/*.mp4 --frames --no-poster` writes (so no
  /// example test analyses the three videos again to make it).
  static let timelineFile: Result<URL, any Error> = .success(Repository.sampleCatalogue)

  /// `fragments/<sample>.part.json`: each sample video's entry of `timelineFile` alone.
  static let fragments: Result<URL, any Error> = Result {
    let root = folder.appendingPathComponent("fragments")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let data = try Data(contentsOf: timelineFile.get())
    guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      throw HarnessError("the timeline file is not an array of objects")
    }
    for entry in entries {
      let id = entry["id"] as? String ?? "entry"
      try JSONSerialization.data(withJSONObject: [entry], options: [.sortedKeys]).write(
        to: root.appendingPathComponent("\(id).part.json"))
    }
    return root
  }

  static func copy(_ source: URL, to destination: URL) throws {
    try FileManager.default.createDirectory(
      at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: destination)
  }
}
