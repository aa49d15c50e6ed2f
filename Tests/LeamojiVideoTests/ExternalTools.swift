import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a fixture could not be made or inspected. These are test-environment failures, not
/// findings about LeamojiVideo.
enum FixtureError: Error, CustomStringConvertible {
  case toolMissing(String)
  case toolFailed(tool: String, status: Int32, arguments: [String], stderr: String)
  case badOutput(String)

  var description: String {
    switch self {
    case .toolMissing(let name):
      return "\(name) was not found on PATH; the LeamojiVideo tests need the ffmpeg and ffprobe "
        + "command-line tools (Debian/Ubuntu: apt-get install ffmpeg; CI installs them)"
    case .toolFailed(let tool, let status, let arguments, let stderr):
      return "\(tool) exited with status \(status): \(tool) \(arguments.joined(separator: " "))\n"
        + stderr
    case .badOutput(let message):
      return message
    }
  }
}

/// Runs the ffmpeg and ffprobe command-line tools. Output goes to files (never to pipes that we
/// read while feeding stdin), so a chatty tool cannot dead-lock the test process.
enum ExternalTools {
  /// Absolute path of `name` from `PATH`.
  static func locate(_ name: String) throws -> URL {
    let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for directory in searchPath.split(separator: ":") where !directory.isEmpty {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw FixtureError.toolMissing(name)
  }

  /// What a tool wrote.
  struct Output {
    var stdout: Data
    var stderr: String
  }

  /// Runs `tool` with `arguments`; `feed` (if given) writes the tool's stdin. Returns what it
  /// wrote. Throws when the tool is missing, exits non-zero, or `feed` fails.
  @discardableResult
  static func run(
    _ tool: String, _ arguments: [String], in directory: URL,
    feed: ((FileHandle) throws -> Void)? = nil
  ) throws -> Output {
    ignoreSIGPIPE
    let process = Process()
    process.executableURL = try locate(tool)
    process.arguments = arguments
    let token = UUID().uuidString
    let outURL = directory.appendingPathComponent(".\(tool)-\(token).out")
    let errURL = directory.appendingPathComponent(".\(tool)-\(token).err")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: outURL)
      try? FileManager.default.removeItem(at: errURL)
    }
    let outHandle = try FileHandle(forWritingTo: outURL)
    let errHandle = try FileHandle(forWritingTo: errURL)
    defer {
      try? outHandle.close()
      try? errHandle.close()
    }
    process.standardOutput = outHandle
    process.standardError = errHandle
    let input = feed == nil ? nil : Pipe()
    process.standardInput = input ?? FileHandle.nullDevice
    try process.run()
    var feedError: Error?
    if let feed, let input {
      do { try feed(input.fileHandleForWriting) } catch { feedError = error }
      try? input.fileHandleForWriting.close()
    }
    process.waitUntilExit()
    let status = process.terminationStatus
    if status != 0 || process.terminationReason != .exit {
      let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
      throw FixtureError.toolFailed(
        tool: tool, status: status, arguments: arguments, stderr: String(stderr.suffix(2000)))
    }
    if let feedError { throw feedError }
    return Output(
      stdout: try Data(contentsOf: outURL),
      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
  }

  /// Set once: writing to a pipe whose reader died must be an error, not a signal that kills the
  /// whole test process.
  private static let ignoreSIGPIPE: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
  }()
}

/// How the installed ffmpeg CLI writes a display rotation (a display matrix) while copying a
/// stream. FFmpeg 7 has the input option `-display_rotation` and accepts the old `rotate` stream
/// tag silently without writing anything; FFmpeg 5.1 has only the tag. Both take the degrees
/// the picture turns anticlockwise on display, and give the same file.
enum RotationOption: Sendable, Equatable {
  /// `-display_rotation:v:0 N` before the input.
  case displayRotation
  /// `-metadata:s:v:0 rotate=N` on the output.
  case rotateTag

  /// Asks the installed ffmpeg (`ffmpeg -h full` lists its options).
  static func detect(in directory: URL) throws -> RotationOption {
    let help = try ExternalTools.run("ffmpeg", ["-hide_banner", "-h", "full"], in: directory)
    return String(decoding: help.stdout, as: UTF8.self).contains("-display_rotation")
      ? .displayRotation : .rotateTag
  }

  /// The options for a stream copy that shows the picture turned `degrees` anticlockwise.
  func remux(degrees: Int) -> (input: [String], output: [String]) {
    switch self {
    case .displayRotation: return (["-display_rotation:v:0", "\(degrees)"], [])
    case .rotateTag: return ([], ["-metadata:s:v:0", "rotate=\(degrees)"])
    }
  }
}

extension ExternalTools {
  /// The first line of `tool -version`, e.g. "ffmpeg version 5.1.6-0+deb12u1 Copyright ...",
  /// up to the copyright; nil when the tool cannot say.
  static func versionLine(_ tool: String, in directory: URL) -> String? {
    guard let output = try? run(tool, ["-version"], in: directory),
      let line = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").first
    else { return nil }
    return String(line.split(separator: " Copyright").first ?? line)
  }
}
