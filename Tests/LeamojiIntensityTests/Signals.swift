import Foundation
import LeamojiCore
import LeamojiTestSupport

/// Test signals and the fixture files, for the intensity tests.
enum Signals {
  static let rate = 16_000

  /// A sine of `hertz` and peak `amplitude` (full scale = 1), `seconds` long, starting at `phase`
  /// samples.
  static func sine(_ hertz: Double, amplitude: Double, seconds: Double, from start: Int = 0)
    -> [Float]
  {
    let count = Int(seconds * Double(rate))
    return (0..<count).map {
      Float(amplitude * sin(2 * Double.pi * hertz * Double(start + $0) / Double(rate)))
    }
  }

  /// `seconds` of silence.
  static func silence(_ seconds: Double) -> [Float] {
    [Float](repeating: 0, count: Int(seconds * Double(rate)))
  }

  /// Deterministic white noise in −amplitude…amplitude.
  static func noise(amplitude: Double, seconds: Double, seed: UInt64 = 37) -> [Float] {
    var random = SplitMix64(seed: seed)
    return (0..<Int(seconds * Double(rate))).map { _ in
      Float(amplitude * (Double(random.next() >> 11) / Double(1 << 53) * 2 - 1))
    }
  }

  /// `signal` cut into consecutive windows of `size` samples (the last may be shorter).
  static func windows(_ signal: [Float], size: Int) -> [[Float]] {
    stride(from: 0, to: signal.count, by: size).map {
      Array(signal[$0..<min($0 + size, signal.count)])
    }
  }

  /// The fixtures folder of this test target.
  static let fixtures = Repository.url("Tests/LeamojiIntensityTests/Fixtures")

  /// The fixture's 16-bit little-endian PCM as samples (value / 32768).
  static func pcm(_ name: String) throws -> [Float] {
    let data = try Data(contentsOf: fixtures.appendingPathComponent(name))
    return stride(from: 0, to: data.count - 1, by: 2).map { i in
      let bits = UInt16(data[data.startIndex + i]) | UInt16(data[data.startIndex + i + 1]) << 8
      return Float(Int16(bitPattern: bits)) / 32768
    }
  }

  /// A binary PPM (P6, maximum 255, header fields one per line as the fixture script writes
  /// them) as an image.
  static func ppm(_ name: String) throws -> RGBImage {
    let data = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    var lines: [String] = []
    var start = 0
    var i = 0
    while lines.count < 3 {
      if data[i] == 10 {
        lines.append(String(decoding: data[start..<i], as: UTF8.self))
        start = i + 1
      }
      i += 1
    }
    precondition(lines[0] == "P6" && lines[2] == "255", "not a P6 PPM of depth 255")
    let size = lines[1].split(separator: " ").compactMap { Int($0) }
    return RGBImage(width: size[0], height: size[1], pixels: Array(data[start...]))
  }
}
