import Foundation

/// Test videos and stills made with the ffmpeg command-line tool, for one test or a few.
public enum FFmpegFixtures {
  /// Runs `ffmpeg -v error -nostdin -y <arguments>`, whose last argument is the file it writes;
  /// throws when it cannot start or fails. When an earlier run made that file with the same
  /// arguments, its bytes are copied from `FixtureCache.shared` instead (`cached`).
  public static func run(_ arguments: [String]) throws {
    let full = ["-v", "error", "-nostdin", "-y"] + arguments
    let make = {
      let result = try ProcessRunner.run("ffmpeg", full)
      guard !result.signalled, result.status == 0 else {
        throw HarnessError(
          "ffmpeg \(arguments.joined(separator: " ")) failed with status \(result.status) "
            + "(the tests need the ffmpeg command-line tool): \(result.stderr)")
      }
    }
    guard let output = arguments.last, output.hasPrefix("/") else { return try make() }
    try cached(full, output: URL(fileURLWithPath: output), make: make)
  }

  /// Puts at `output` the file that `make`, running the ffmpeg CLI with `arguments` (and
  /// `stdin`, if given), writes there: copied from `FixtureCache.shared` when an earlier run
  /// made it, else made and kept there. Without a `cacheKey`, simply `make`.
  public static func cached(
    _ arguments: [String], output: URL, stdin: Data? = nil, make: () throws -> Void
  ) throws {
    guard let key = cacheKey(arguments, output: output, stdin: stdin) else { return try make() }
    try FixtureCache.shared.file(output, key: key, make: make)
  }

  /// Everything that determines the bytes `ffmpeg <arguments>` writes to `output`, as the parts
  /// of a `FixtureCache` key: the first line of `ffmpeg -version`, the bytes on standard input
  /// (their size and checksum), then every argument as it is, except that the output is named
  /// by its extension only (the muxer's choice; the name is often random) and an existing input
  /// file by its extension, size and checksum, so that a key does not depend on scratch paths.
  /// Nil when the bytes cannot be known from these: no `ffmpeg -version`, an output name that is
  /// a pattern (`%d`), or another absolute path that is not an existing file (a second output, a
  /// folder) or a temporary path inside an argument (a filter reading a scratch file).
  public static func cacheKey(_ arguments: [String], output: URL, stdin: Data? = nil)
    -> [String]?
  {
    guard let version = try? versionLine.get(), !output.lastPathComponent.contains("%"),
      arguments.contains(output.path)
    else { return nil }
    var key = ["ffmpeg", version]
    if let stdin { key.append("standard input: \(Self.describe(stdin))") }
    let temporary = FileManager.default.temporaryDirectory.path
    for argument in arguments {
      if argument == output.path {
        key.append("output: a .\(output.pathExtension) file")
      } else if argument.hasPrefix("/") {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder),
          !isFolder.boolValue, let bytes = try? Data(contentsOf: URL(fileURLWithPath: argument))
        else { return nil }
        let name = URL(fileURLWithPath: argument).pathExtension
        key.append("input: a .\(name) file, \(Self.describe(bytes))")
      } else if argument.contains(temporary + "/") {
        return nil
      } else {
        key.append(argument)
      }
    }
    return key
  }

  private static func describe(_ bytes: Data) -> String {
    "\(bytes.count) bytes, checksum \(String(FixtureCache.checksum(bytes), radix: 16))"
  }

  /// The first line of `ffmpeg -version` (e.g. "ffmpeg version 5.1.6-0+deb12u1 Copyright (c)
  /// 2000-2024 the FFmpeg developers"), asked once per test process.
  public static let versionLine: Result<String, any Error> = Result {
    let result = try ProcessRunner.run("ffmpeg", ["-version"])
    guard result.status == 0, let line = result.stdout.split(separator: "\n").first else {
      throw HarnessError("ffmpeg -version failed with status \(result.status): \(result.stderr)")
    }
    return String(line)
  }

  /// A small test video (ffmpeg's `testsrc2` pattern, H.264), `seconds` long, at `url`: a copy
  /// of the one made for these parameters once per test run (`video`), or taken from the
  /// `FixtureCache` when an earlier run made it.
  public static func makeVideo(
    at url: URL, seconds: Int, size: String = "160x90", rate: Int = 25, extra: [String] = []
  ) throws {
    let made = try video(seconds: seconds, size: size, rate: rate, extra: extra)
    do {
      try FileManager.default.copyItem(at: made, to: url)
    } catch {
      throw HarnessError("could not copy \(made.path) to \(url.path): \(error)")
    }
  }

  /// The test video for these parameters, made on first use in a folder shared by the whole
  /// test run (removed when the run ends). Read it; a test that changes, renames or names the
  /// file itself takes a copy (`makeVideo`).
  public static func video(
    seconds: Int, size: String = "160x90", rate: Int = 25, extra: [String] = []
  ) throws -> URL {
    let key = VideoKey(seconds: seconds, size: size, rate: rate, extra: extra)
    return try videos.value(key) {
      let url = try videoFolder.get().appendingPathComponent(
        "\(UUID().uuidString.prefix(8))-\(seconds)s-\(size).mp4")
      do {
        try run(
          ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-t", "\(seconds)"] + extra
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
      } catch {
        throw HarnessError("ffmpeg could not make a \(seconds) s \(size) test video: \(error)")
      }
      return url
    }
  }

  /// What makes one test video.
  private struct VideoKey: Hashable, Sendable {
    let seconds: Int
    let size: String
    let rate: Int
    let extra: [String]
  }

  private static let videos = OncePerRun<VideoKey, URL>()

  /// The run's folder of test videos, removed at exit.
  private static let videoFolder: Result<URL, any Error> = Result {
    try ScratchFolder.removedAtExit("ffmpeg-fixtures")
  }

  /// Width and height of a PNG, read from its header.
  public static func pngSize(_ url: URL) throws -> (Int, Int) {
    let data = try Data(contentsOf: url)
    guard data.count > 24, data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
      throw HarnessError("not a PNG: \(url.path)")
    }
    func be32(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
  }
}
