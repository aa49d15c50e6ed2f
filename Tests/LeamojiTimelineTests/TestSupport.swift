import Foundation
import LeamojiTestSupport
import LeamojiTimeline

enum ExternalTool {
  /// Runs `tool` (looked up in PATH) with `arguments`; throws a readable error when it is missing.
  static func run(_ tool: String, _ arguments: [String]) throws -> ProcessResult {
    guard let executable = ProcessRunner.locate(tool) else { throw MissingTool(name: tool) }
    return try ProcessRunner.run(executable, arguments)
  }

  struct MissingTool: Error, CustomStringConvertible {
    var name: String
    var description: String {
      "\(name) is not installed (the subtitle tests check files with FFmpeg's own tools: apt-get install ffmpeg)"
    }
  }
}

/// Scores for labels happy / neutral / scary from a compact pattern: `h` = happy 0.8,
/// `n` = neutral 0.8, `s` = scary 0.8 (the other two share 0.2), one sample per `interval`.
func scores(_ pattern: String, interval: Double = 1) -> [SecondScore] {
  pattern.enumerated().map { index, letter in
    let probabilities: [Float]
    switch letter {
    case "h": probabilities = [0.8, 0.1, 0.1]
    case "n": probabilities = [0.1, 0.8, 0.1]
    case "s": probabilities = [0.1, 0.1, 0.8]
    default: fatalError("unknown pattern letter \(letter)")
    }
    return SecondScore(second: Double(index) * interval, probabilities: probabilities)
  }
}

let moodLabels = ["happy", "neutral", "scary"]

/// A small movie for document and store tests.
func sampleMovie(_ id: String, title: String? = nil, markers: [Marker]? = nil) -> Movie {
  Movie(
    id: id, title: title ?? id, description: "", duration: 20,
    markers: markers ?? [Marker(confidence: 0.9, cueAt: 0, emoji: "😀", label: "happy", second: 0)],
    model: ModelInfo(labels: moodLabels, sha256: "abc123"), poster: "\(id).jpg", seekAhead: 5)
}
