import Foundation
import LeamojiTestSupport

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

/// Runs the ffmpeg and ffprobe command-line tools (with the shared `ProcessRunner`, whose output
/// goes to files, so a chatty tool cannot dead-lock the test process).
enum ExternalTools {
  /// Absolute path of `name` from `PATH`.
  static func locate(_ name: String) throws -> URL {
    guard let path = ProcessRunner.locate(name) else { throw FixtureError.toolMissing(name) }
    return URL(fileURLWithPath: path)
  }

  /// What a tool wrote.
  struct Output {
    var stdout: Data
    var stderr: String
  }

  /// Runs `tool` with `arguments` in `directory`, `stdin` (if given) fed to it. Returns what it
  /// wrote. Throws when the tool is missing or exits non-zero.
  @discardableResult
  static func run(
    _ tool: String, _ arguments: [String], in directory: URL, stdin: Data? = nil
  ) throws -> Output {
    let result = try ProcessRunner.run(
      try locate(tool).path, arguments, in: directory, stdin: stdin)
    if result.status != 0 || result.signalled {
      throw FixtureError.toolFailed(
        tool: tool, status: result.status, arguments: arguments,
        stderr: String(result.stderr.suffix(2000)))
    }
    return Output(stdout: result.stdoutData, stderr: result.stderr)
  }
}

extension ExternalTools {
  /// Runs the ffmpeg CLI with `arguments` (`stdin`, if given, fed to it) to write `output`, one of
  /// the arguments; or, when an earlier test run did the same, copies what it wrote from the
  /// `FixtureCache` (`FFmpegFixtures.cached`). Throws as `run` does.
  static func ffmpegFile(
    _ arguments: [String], output: URL, in directory: URL, stdin: Data? = nil
  ) throws {
    try FFmpegFixtures.cached(arguments, output: output, stdin: stdin) {
      try run("ffmpeg", arguments, in: directory, stdin: stdin)
    }
  }
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
