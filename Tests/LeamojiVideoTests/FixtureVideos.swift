import Foundation
import LeamojiCore

/// A generated video with everything the tests know about it from outside LeamojiVideo.
struct FixtureVideo: Sendable {
  var fixture: Fixture
  var path: String
  var probe: ProbedVideo
  /// Every decoded frame as the ffmpeg CLI shows it (auto-rotated, scaled to 64x64), in decoder
  /// output order.
  var framesOnScreen: [ReferenceFrame]
  /// The frame numbers those frames show (nil where one did not decode to a number).
  var indicesOnScreen: [Int?] { framesOnScreen.map(\.index) }
  /// The upright size a viewer sees (sample aspect ratio not applied).
  var uprightSize: PixelSize
}

/// Makes each fixture once per process, in a private temporary folder removed at exit (kept when
/// the environment variable `LEAMOJI_KEEP_FIXTURES` is set).
final class FixtureStore: @unchecked Sendable {
  static let shared = FixtureStore()

  let directory: URL
  private let lock = NSLock()
  private var made: [Fixture: Result<FixtureVideo, Error>] = [:]
  private var rotation: Result<RotationOption, Error>?

  private init() {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("leamoji-video-tests-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: directory)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // LEAMOJI_KEEP_FIXTURES=1 keeps the folder for a look after the run.
    if ProcessInfo.processInfo.environment["LEAMOJI_KEEP_FIXTURES"] == nil {
      fixtureDirectoryForCleanup = directory.path
    }
    atexit {
      if let path = fixtureDirectoryForCleanup {
        try? FileManager.default.removeItem(atPath: path)
      }
    }
  }

  /// A fresh path inside the fixture folder (for tests that write their own files).
  func scratchURL(_ name: String) -> URL {
    directory.appendingPathComponent("\(UUID().uuidString.prefix(8))-\(name)")
  }

  func video(_ fixture: Fixture) throws -> FixtureVideo {
    // One generation at a time: the machine has few cores, and ffmpeg uses them all anyway.
    lock.lock()
    defer { lock.unlock() }
    if let done = made[fixture] { return try done.get() }
    // A failure is kept too: every test that needs this fixture reports it, none retries it.
    let result = Result { try generate(fixture) }
    made[fixture] = result
    return try result.get()
  }

  private func generate(_ fixture: Fixture) throws -> FixtureVideo {
    let recipe = fixture.recipe
    let url = directory.appendingPathComponent(fixture.rawValue)
    let encoded =
      recipe.then == nil ? url : directory.appendingPathComponent("encoded-\(fixture.rawValue)")
    try encode(recipe: recipe, to: encoded)
    switch recipe.then {
    case nil:
      break
    case .remux(let input, let output)?:
      try ExternalTools.ffmpegFile(
        ["-v", "error", "-y"] + input + ["-i", encoded.path, "-c", "copy"] + output + [url.path],
        output: url, in: directory)
    case .truncate(let fraction)?:
      let bytes = try Data(contentsOf: encoded)
      try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: url)
    case .displayRotation(let degrees)?:
      let options = try rotationOption().remux(degrees: degrees)
      try ExternalTools.ffmpegFile(
        ["-v", "error", "-y"] + options.input + ["-i", encoded.path, "-c", "copy"]
          + options.output + [url.path],
        output: url, in: directory)
    }
    let probe = try ProbedVideo.probe(url, scratch: directory)
    if case .displayRotation(let degrees)? = recipe.then {
      try checkRotation(of: fixture, probe: probe, degrees: degrees)
    }
    let frames = try Self.framesOnScreen(of: url, in: directory)
    return FixtureVideo(
      fixture: fixture, path: url.path, probe: probe, framesOnScreen: frames,
      uprightSize: recipe.upright)
  }

  /// Pipes the pattern frames into the ffmpeg CLI (or takes the file from the `FixtureCache`
  /// when an earlier run made it from the same frames and arguments).
  func encode(recipe: Recipe, to url: URL) throws {
    let stored = recipe.upright.rotatedQuarterTurns(recipe.storedQuarterTurns)
    let arguments =
      [
        "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", stored.description,
        "-r", recipe.rate, "-i", "-",
      ]
      + recipe.extraInputs + recipe.output + [url.path]
    var frames = Data()
    for index in 0..<recipe.frameCount {
      frames.append(
        contentsOf: FrameIndexPattern.storedFrameBytes(
          index: index, upright: recipe.upright, storedQuarterTurns: recipe.storedQuarterTurns))
    }
    try ExternalTools.ffmpegFile(arguments, output: url, in: directory, stdin: frames)
  }

  typealias Recipe = Fixture.Recipe

  /// How this machine's ffmpeg writes a display rotation (asked once per process).
  var installedRotationOption: RotationOption {
    get throws {
      lock.lock()
      defer { lock.unlock() }
      return try rotationOption()
    }
  }

  /// `installedRotationOption`, for callers holding the lock.
  private func rotationOption() throws -> RotationOption {
    if rotation == nil { rotation = Result { try RotationOption.detect(in: directory) } }
    return try rotation!.get()
  }

  /// A rotated fixture whose file holds no display rotation, or another one, would make the
  /// rotation tests fail far from the cause (ffmpeg 7.1 silently ignores the `rotate` tag that
  /// 5.1 writes): this stops at the cause, in every test that uses the fixture.
  private func checkRotation(of fixture: Fixture, probe: ProbedVideo, degrees: Int) throws {
    // ffprobe reports the rotation within -180...180: 270 is -90, 180 may be either sign.
    let expected = (degrees % 360 + 540) % 360 - 180
    let written = probe.displayMatrixRotation
    if let written, written == expected || (abs(expected) == 180 && abs(written) == 180) {
      return
    }
    let option =
      (try? rotationOption()).map { option in
        let arguments = option.remux(degrees: degrees)
        return (arguments.input + arguments.output).joined(separator: " ")
      } ?? "?"
    let tool = ExternalTools.versionLine("ffmpeg", in: directory) ?? "ffmpeg"
    throw FixtureError.badOutput(
      "rotated fixture \(fixture.rawValue): \(tool) wrote "
        + (written.map { "a display rotation of \($0) degrees" } ?? "no display rotation")
        + " when asked for \(expected) with \(option); the rotation tests need a fixture that "
        + "carries its display matrix (see RotationOption in ExternalTools.swift)")
  }

  /// Decodes every frame of `url` with the ffmpeg CLI (which applies the display rotation) at
  /// 64x64 and reads the number and cell levels each one shows.
  static func framesOnScreen(of url: URL, in directory: URL) throws -> [ReferenceFrame] {
    let output = try ExternalTools.run(
      "ffmpeg",
      [
        "-v", "error", "-i", url.path, "-map", "0:v:0", "-fps_mode", "passthrough", "-vf",
        "scale=64:64", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
      ], in: directory)
    let frameBytes = 64 * 64 * 3
    let data = [UInt8](output.stdout)
    guard data.count % frameBytes == 0 else {
      throw FixtureError.badOutput("ffmpeg gave a partial frame decoding \(url.path)")
    }
    return stride(from: 0, to: data.count, by: frameBytes).map { start in
      ReferenceFrame(
        RGBImage(width: 64, height: 64, pixels: Array(data[start..<start + frameBytes])))
    }
  }
}

/// One frame as the ffmpeg CLI decoded it, reduced to what the tests compare.
struct ReferenceFrame: Sendable {
  var index: Int?
  var cellLevels: [Double]

  init(_ image: RGBImage) {
    index = FrameIndexPattern.frameIndex(in: image)
    cellLevels = FrameIndexPattern.cellLevels(in: image)
  }

  /// Largest difference of a cell-centre level between this frame and `image`.
  func largestLevelDifference(from image: RGBImage) -> Double {
    zip(cellLevels, FrameIndexPattern.cellLevels(in: image)).map { abs($0 - $1) }.max() ?? 0
  }
}

/// Read by the `atexit` handler, which cannot capture context.
nonisolated(unsafe) private var fixtureDirectoryForCleanup: String?

extension PixelSize {
  /// This size after `turns` quarter turns.
  func rotatedQuarterTurns(_ turns: Int) -> PixelSize {
    turns % 2 == 0 ? self : PixelSize(width: height, height: width)
  }
}

extension Array where Element == UInt8 {
  /// Where the ASCII text `tag` (e.g. an MP4 box type) first occurs in these bytes.
  func offset(of tag: String) -> Int? {
    let needle = Array(tag.utf8)
    guard count >= needle.count else { return nil }
    return (0...(count - needle.count)).first { start in
      needle.indices.allSatisfy { self[start + $0] == needle[$0] }
    }
  }
}
