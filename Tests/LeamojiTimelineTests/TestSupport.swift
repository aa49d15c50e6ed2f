import Foundation
import LeamojiTimeline

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct ScratchFolder {
  let path: String

  init(_ label: String = "timeline") throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leamoji-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  func file(_ name: String) -> String { path + "/" + name }

  /// Every name in the folder, hidden ones included, sorted.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  func write(_ text: String, to name: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
  }

  func bytes(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: file(name)))
  }

  func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

  func remove() {
    chmod(path, 0o755)
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The result of running an external program.
struct ProcessOutput {
  var status: Int32
  var stdout: String
  var stderr: String
}

enum ExternalTool {
  /// Runs `tool` (looked up in PATH) with `arguments`; throws a readable error when it is missing.
  static func run(_ tool: String, _ arguments: [String]) throws -> ProcessOutput {
    guard let executable = find(tool) else { throw MissingTool(name: tool) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes to the end before waiting, so a chatty tool cannot block on a full pipe.
    let errData = LockedData()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errData.set(err.fileHandleForReading.readDataToEndOfFile())
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return ProcessOutput(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData.get(), as: UTF8.self))
  }

  static func find(_ tool: String) -> String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    for folder in paths + ["/usr/bin", "/usr/local/bin"] {
      let candidate = "\(folder)/\(tool)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  struct MissingTool: Error, CustomStringConvertible {
    var name: String
    var description: String {
      "\(name) is not installed (the subtitle tests check files with FFmpeg's own tools: apt-get install ffmpeg)"
    }
  }
}

/// Bytes handed from a reader thread to the test thread.
final class LockedData: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  func set(_ value: Data) { lock.withLock { data = value } }
  func get() -> Data { lock.withLock { data } }
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
