import Foundation
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiTestSupport

extension Repository {
  /// The shipped model, read once.
  static let shippedModel: LoadedModel = {
    do {
      return try ModelLocator.load(modelPath)
    } catch {
      fatalError("the shipped model does not load: \(error)")
    }
  }()

  static var shippedClassifier: Classifier { shippedModel.classifier }
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
