import Foundation
import LeamojiAnalysis
import LeamojiClassifier

/// The repository, its shipped model and sample videos, and scratch folders for the tests.
enum Repository {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let modelPath = root.appendingPathComponent("Models/leamoji.safetensors").path
  static let sampleNames = ["meadow-storm", "night-walk", "party-cellar"]

  static func sampleVideo(_ name: String) -> String {
    root.appendingPathComponent("SampleVideos/\(name).mp4").path
  }

  /// The shipped model, read once.
  static let shippedModel: LoadedModel = {
    do {
      return try ModelLocator.load(modelPath)
    } catch {
      fatalError("the shipped model does not load: \(error)")
    }
  }()

  static var shippedClassifier: Classifier { shippedModel.classifier }

  /// A new empty folder under the system's temporary folder.
  static func scratchFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("leamoji-analysis-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}

/// A sample video's ground truth (`SampleVideos/<name>.truth.json`): `labels[t]` is the mood on
/// screen at second `t`.
struct SampleTruth: Decodable {
  let duration: Double
  let labels: [String]

  static func of(_ name: String) throws -> SampleTruth {
    let url = Repository.root.appendingPathComponent("SampleVideos/\(name).truth.json")
    return try JSONDecoder().decode(SampleTruth.self, from: Data(contentsOf: url))
  }

  /// Seconds whose label is also the label of the `margin` seconds either side: well inside a
  /// shot, far from any cut.
  func clearSeconds(margin: Int = 2) -> [Int] {
    guard labels.count > 2 * margin else { return [] }
    return (margin..<(labels.count - margin)).filter { second in
      (second - margin...second + margin).allSatisfy { labels[$0] == labels[second] }
    }
  }
}

/// The ffmpeg command-line tool, for small fixtures (a video or still made for one test).
enum FFmpegTool {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Runs `ffmpeg -v error -nostdin -y <arguments>`; throws when it cannot start or fails.
  static func run(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["ffmpeg", "-v", "error", "-nostdin", "-y"] + arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw Failure(
        description: "ffmpeg \(arguments.joined(separator: " ")) failed with status "
          + "\(process.terminationStatus) (the tests need the ffmpeg command-line tool)")
    }
  }
}

/// Files in `folder` (names only, sorted); hidden files included.
func fileNames(in folder: URL) throws -> [String] {
  try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
}

/// The kind of problem a `LeamojiError` is, for comparing in tests.
enum ProblemKind: Equatable {
  case noInput, badInput, cannotWrite, unexpected
}

extension LeamojiError {
  var kind: ProblemKind {
    switch self {
    case .noInput: return .noInput
    case .badInput: return .badInput
    case .cannotWrite: return .cannotWrite
    case .unexpected: return .unexpected
    }
  }
}
