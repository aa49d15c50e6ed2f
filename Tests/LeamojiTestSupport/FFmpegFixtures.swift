import Foundation

/// Test videos and stills made with the ffmpeg command-line tool, for one test or a few.
public enum FFmpegFixtures {
  /// Runs `ffmpeg -v error -nostdin -y <arguments>`; throws when it cannot start or fails.
  public static func run(_ arguments: [String]) throws {
    let result = try ProcessRunner.run("ffmpeg", ["-v", "error", "-nostdin", "-y"] + arguments)
    guard !result.signalled, result.status == 0 else {
      throw HarnessError(
        "ffmpeg \(arguments.joined(separator: " ")) failed with status \(result.status) "
          + "(the tests need the ffmpeg command-line tool): \(result.stderr)")
    }
  }

  /// A small test video (ffmpeg's `testsrc2` pattern, H.264), `seconds` long, at `url`.
  public static func makeVideo(
    at url: URL, seconds: Int, size: String = "160x90", rate: Int = 25, extra: [String] = []
  ) throws {
    do {
      try run(
        ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-t", "\(seconds)"] + extra
          + ["-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
    } catch {
      throw HarnessError("ffmpeg could not make \(url.lastPathComponent): \(error)")
    }
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
