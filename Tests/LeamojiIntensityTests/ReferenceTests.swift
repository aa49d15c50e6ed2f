import Foundation
import LeamojiIntensity
import LeamojiTestSupport
import Testing

/// Compares every feature of every second of the committed fixture with the NumPy reference
/// (scripts/intensity_reference.py): with the committed intensity-expected.json always, and with
/// a fresh run of the script when Python has NumPy.
@Suite("NumPy reference")
struct ReferenceTests {
  struct Expected: Decodable {
    struct Pace: Decodable {
      var motion: Double
      var change: Double
      var isCut: Bool
    }
    var windowSamples: Int
    var sound: [SoundSecond]
    var filmLevel: Double?
    var relativeLoudness: [Double?]
    var pictures: [String]
    var pace: [Pace]
  }

  /// What the Swift module measures on the fixture.
  struct Measured {
    var sound: [SoundSecond]
    var pace: [PaceSecond]
  }

  static func measure(_ expected: Expected) throws -> Measured {
    var meter = SoundMeter()
    let signal = try Signals.pcm("intensity-input.pcm")
    let sound = Signals.windows(signal, size: expected.windowSamples).map { meter.measure($0) }
    var pace = PaceMeter()
    let pictures = try expected.pictures.map { try pace.measure(Signals.ppm($0)) }
    return Measured(sound: sound, pace: pictures)
  }

  /// Within 1e-4 (relative above 1); `meanSquare`, a small number, relative 1e-4.
  static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-4 * max(1, abs(b)) }

  static func compare(_ measured: Measured, _ expected: Expected) {
    #expect(measured.sound.count == expected.sound.count)
    for (k, (m, e)) in zip(measured.sound, expected.sound).enumerated() {
      let pairs: [(String, Double, Double)] = [
        ("loudness", m.loudness, e.loudness), ("peakMomentary", m.peakMomentary, e.peakMomentary),
        ("rise", m.rise, e.rise), ("flux", m.flux, e.flux), ("lowShare", m.lowShare, e.lowShare),
      ]
      for (name, a, b) in pairs { #expect(close(a, b), "second \(k) \(name): \(a) vs \(b)") }
      #expect(abs(m.meanSquare - e.meanSquare) <= 1e-4 * e.meanSquare, "second \(k) meanSquare")
      #expect(m.onsets == e.onsets, "second \(k) onsets")
    }
    let level = FilmLevel.integratedLoudness(of: measured.sound)
    #expect((level == nil) == (expected.filmLevel == nil))
    if let level, let filmLevel = expected.filmLevel {
      #expect(close(level, filmLevel), "film level \(level) vs \(filmLevel)")
      for (second, relative) in zip(measured.sound, expected.relativeLoudness) {
        let r = FilmLevel.relativeLoudness(of: second, filmLevel: level)
        #expect(
          close(r, relative ?? .nan), "relative loudness \(r) vs \(String(describing: relative))")
      }
    }
    #expect(measured.pace.count == expected.pace.count)
    for (n, (m, e)) in zip(measured.pace, expected.pace).enumerated() {
      #expect(close(m.motion, e.motion) && close(m.change, e.change), "picture \(n): \(m) vs \(e)")
      #expect(m.isCut == e.isCut, "picture \(n) cut")
    }
  }

  static func expected(at url: URL) throws -> Expected {
    try JSONDecoder().decode(Expected.self, from: Data(contentsOf: url))
  }

  @Test("every feature of every second matches the committed reference output")
  func committed() throws {
    let expected = try Self.expected(
      at: Signals.fixtures.appendingPathComponent("intensity-expected.json"))
    #expect(expected.sound.count == 6 && expected.pace.count == 4)
    Self.compare(try Self.measure(expected), expected)
  }

  @Test("…and the reference run afresh, when Python has NumPy")
  func fresh() throws {
    guard (try? ProcessRunner.run("python3", ["-c", "import numpy"], timeout: 60))?.status == 0
    else { return }
    let folder = try ScratchFolder("intensity")
    defer { folder.remove() }
    let out = folder.file("expected.json")
    let run = try ProcessRunner.run(
      "python3",
      [
        Repository.path("scripts/intensity_reference.py"), "--fixtures", Signals.fixtures.path,
        "--out", out,
      ], timeout: 120)
    #expect(run.status == 0, "\(run.stderr)")
    let expected = try Self.expected(at: URL(fileURLWithPath: out))
    Self.compare(try Self.measure(expected), expected)
  }
}
