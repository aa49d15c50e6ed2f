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

  /// The shipped classifier, read once.
  static let shippedClassifier: Classifier = {
    do {
      return try ModelLocator.load(modelPath)
    } catch {
      fatalError("the shipped model does not load: \(error)")
    }
  }()

  /// A new empty folder under the system's temporary folder.
  static func scratchFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("leamoji-analysis-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
