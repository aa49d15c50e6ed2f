import Foundation

/// Runs the built `leamoji` binary and external tools for the CLI tests.
enum CLI {
  /// The folder holding the built products (the test runner sits next to the binary).
  static let productsFolder: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("leamoji").path) {
      url.deleteLastPathComponent()
    }
    return url
  }()

  static var binary: String { productsFolder.appendingPathComponent("leamoji").path }

  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
    /// Whether the process ended by a signal (a crash).
    let signalled: Bool
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }
  }

  /// Runs `leamoji` with `arguments` in `directory`.
  static func leamoji(_ arguments: [String], in directory: URL? = nil) throws -> Result {
    try run(binary, arguments, in: directory)
  }

  /// Starts `leamoji` with `arguments` in the background, output discarded.
  static func spawnLeamoji(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Runs any program (looked up on PATH when not absolute).
  static func run(_ program: String, _ arguments: [String], in directory: URL? = nil) throws -> Result {
    let process = Process()
    if program.hasPrefix("/") {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [program] + arguments
    }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes while the process runs so neither can fill up and block it.
    nonisolated(unsafe) var errData = Data()
    let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { usleep(1000) }
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self),
      signalled: process.terminationReason == .uncaughtSignal)
  }

  /// A new empty temporary folder.
  static func temporaryFolder(_ name: String = "cli") throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("leamoji-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Makes a small test video with the ffmpeg CLI (its test pattern), `seconds` long.
  static func makeVideo(at url: URL, seconds: Int, size: String = "160x90", rate: Int = 25) throws {
    let result = try run(
      "ffmpeg",
      ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-t", "\(seconds)",
       "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
    if result.status != 0 {
      throw HarnessError("ffmpeg could not make \(url.lastPathComponent): \(result.stderr)")
    }
  }

  /// Width and height of a PNG, read from its header.
  static func pngSize(_ url: URL) throws -> (Int, Int) {
    let data = try Data(contentsOf: url)
    guard data.count > 24, data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw HarnessError("not a PNG: \(url.path)") }
    func be32(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
  }
}

struct HarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
