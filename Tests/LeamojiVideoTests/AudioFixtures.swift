import Foundation
import LeamojiTestSupport

/// Small videos with known sound, made with the ffmpeg CLI (kept in the fixture cache between
/// runs): a 64x36 test picture at 10 frames a second beside audio from lavfi sources.
enum AudioFixtures {
  /// A video of `seconds` seconds with one audio input per entry of `audio` (each a list of
  /// ffmpeg input arguments, e.g. `["-f", "lavfi", "-i", "sine=f=440:d=6"]`), mapped in order,
  /// written as `.ext` with `codecArguments` for the audio (e.g. `["-c:a", "aac"]`); the
  /// video starts `videoOffset` seconds after the file's zero.
  static func video(
    _ name: String, seconds: Int, audio: [[String]], codecArguments: [String],
    ext: String = "mkv", videoOffset: Double? = nil
  ) throws -> String {
    let url = FixtureStore.shared.scratchURL("\(name).\(ext)")
    var arguments = videoOffset.map { ["-itsoffset", "\($0)"] } ?? []
    arguments += ["-f", "lavfi", "-i", "testsrc2=size=64x36:rate=10:duration=\(seconds)"]
    for input in audio { arguments += input }
    arguments += ["-map", "0:v"]
    for index in audio.indices { arguments += ["-map", "\(index + 1):a"] }
    arguments += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10"] + codecArguments
    try FFmpegFixtures.run(arguments + [url.path])
    return url.path
  }

  /// lavfi input arguments for an `aevalsrc` expression of `t` (one channel unless `layout`).
  static func expression(
    _ expression: String, seconds: Double, rate: Int = 48_000, layout: String? = nil
  ) -> [String] {
    var source = "aevalsrc=exprs='\(expression)':s=\(rate):d=\(seconds)"
    if let layout { source += ":c=\(layout)" }
    return ["-f", "lavfi", "-i", source]
  }

  /// lavfi input arguments for a sine tone.
  static func sine(
    frequency: Int, seconds: Double, rate: Int = 48_000, offset: Double? = nil
  ) -> [String] {
    var input: [String] = []
    if let offset { input += ["-itsoffset", "\(offset)"] }
    return input + [
      "-f", "lavfi", "-i", "sine=frequency=\(frequency):sample_rate=\(rate):duration=\(seconds)",
    ]
  }
}

/// Measures of a window's samples.
extension Array where Element == Float {
  /// Root mean square.
  var rms: Double {
    guard !isEmpty else { return 0 }
    return (reduce(0) { $0 + Double($1) * Double($1) } / Double(count)).squareRoot()
  }

  /// Sign changes per second at `rate` (twice the frequency of a pure tone).
  func zeroCrossingsPerSecond(rate: Int) -> Double {
    var crossings = 0
    for i in 1..<count where (self[i - 1] < 0) != (self[i] < 0) { crossings += 1 }
    return Double(crossings) * Double(rate) / Double(count)
  }

  /// The first index whose magnitude reaches `threshold` (nil when none does).
  func firstIndex(reaching threshold: Float) -> Int? {
    firstIndex { abs($0) >= threshold }
  }
}
