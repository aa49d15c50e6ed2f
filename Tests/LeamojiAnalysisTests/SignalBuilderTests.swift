import LeamojiClassifier
import LeamojiCore
import LeamojiIntensity
import LeamojiTimeline
import Testing

@testable import LeamojiAnalysis

@Suite("Signals from sound and pace")
struct SignalBuilderTests {
  /// One second of a 440 Hz tone at `amplitude` (0 for silence), from `start` to the end.
  static func second(amplitude: Double, from start: Double = 0) -> [Float] {
    (0..<16_000).map { n in
      let t = Double(n) / 16_000
      return t < start ? 0 : Float(amplitude * PortableMath.sin(2 * Double.pi * 440 * t))
    }
  }

  static func measure(_ windows: [[Float]]) -> [SoundSecond] {
    var meter = SoundMeter()
    return windows.map { meter.measure($0) }
  }

  /// Intensity from -12 LU (0) to +4 LU (1) around the film's level; sudden from a 15 dB rise
  /// with a 0.35 change of picture.
  let settings = FusionSettings(
    soundWeight: 0.5, soundMargin: 0.1, pictureFloor: 0.1, quietLU: -12, loudLU: 4,
    suddenRiseDB: 15, suddenChange: 0.35)

  @Test("intensity follows loudness relative to the film's own level, whatever the film's level")
  func intensityIsRelative() {
    let pace = Array(repeating: PaceSecond(motion: 0, change: 0), count: 6)
    for gain in [1.0, 0.1] {  // the same film mastered 20 dB lower
      let windows = [0.05, 0.05, 0.05, 0.05, 0.3, 0.005].map { Self.second(amplitude: $0 * gain) }
      let signals = SignalBuilder.signals(
        sound: Self.measure(windows), pace: pace, interval: 1, settings: settings)
      let intensity = signals.map(\.intensity)
      // The film's level is an energy mean: the loud second lifts it 9 dB over the quiet
      // ones, which sit at -9 LU: (-9 + 12) / 16 = 0.19.
      #expect(intensity[4] == 1, "6.6 LU over the film's level: as loud as it gets")
      #expect(abs(intensity[0] - 0.19) < 0.02)
      #expect(intensity[5] == 0, "29 LU under the film's level: nothing")
      #expect(signals.allSatisfy { !$0.sudden })
    }
  }

  @Test(
    "a scream after quiet with a cut is sudden; without the cut, or after loud sound, it is not")
  func sudden() {
    let windows =
      Array(repeating: Self.second(amplitude: 0.02), count: 4)
      + [Self.second(amplitude: 0.5, from: 0.5), Self.second(amplitude: 0.02)]
    let sound = Self.measure(windows)
    var pace = Array(repeating: PaceSecond(motion: 0.01, change: 0.05), count: 6)
    #expect(
      SignalBuilder.signals(sound: sound, pace: pace, interval: 1, settings: settings).allSatisfy {
        !$0.sudden
      })
    pace[5] = PaceSecond(motion: 0.4, change: 0.8)  // the picture after the scream's second
    let signals = SignalBuilder.signals(sound: sound, pace: pace, interval: 1, settings: settings)
    #expect(signals.map(\.sudden) == [false, false, false, false, true, false])
    let loud = Self.measure(
      Array(repeating: Self.second(amplitude: 0.4), count: 4)
        + [Self.second(amplitude: 0.5), Self.second(amplitude: 0.4)])
    #expect(
      SignalBuilder.signals(sound: loud, pace: pace, interval: 1, settings: settings).allSatisfy {
        !$0.sudden
      })
  }

  @Test("the first two seconds are never sudden: the rise has no history there")
  func noSuddenStart() {
    let sound = Self.measure(
      [Self.second(amplitude: 0.5, from: 0.5), Self.second(amplitude: 0.5)]
        + Array(repeating: Self.second(amplitude: 0.02), count: 3))
    let pace = Array(repeating: PaceSecond(motion: 1, change: 1), count: 5)
    #expect(sound[0].rise >= 15)
    #expect(
      SignalBuilder.signals(sound: sound, pace: pace, interval: 1, settings: settings).allSatisfy {
        !$0.sudden
      })
  }

  @Test("a silent film has no intensity and no sudden second")
  func silentFilm() {
    let sound = Self.measure(Array(repeating: Self.second(amplitude: 0), count: 3))
    let pace = Array(repeating: PaceSecond(motion: 1, change: 1), count: 3)
    #expect(
      SignalBuilder.signals(sound: sound, pace: pace, interval: 1, settings: settings)
        == Array(repeating: SecondSignals(intensity: 0, sudden: false), count: 3))
  }
}
