import Foundation
import Testing

@testable import LeamojiIntensity

@Suite("K-weighting and loudness")
struct KWeightingTests {
  @Test("derived at 48 kHz, both stages give BS.1770-4's published coefficients")
  func publishedCoefficients() {
    let shelf = KWeighting.shelf(sampleRate: 48_000)
    let published: [Double] = [
      1.535_124_859_586_97, -2.691_696_189_406_38, 1.198_392_810_852_85,
      -1.690_659_293_182_41, 0.732_480_774_215_85,
    ]
    let derived = [shelf.b.0, shelf.b.1, shelf.b.2, shelf.a.0, shelf.a.1]
    for (d, p) in zip(derived, published) { #expect(abs(d - p) < 1e-5, "\(d) vs \(p)") }
    let highPass = KWeighting.highPass(sampleRate: 48_000)
    let publishedHigh: [Double] = [1, -2, 1, -1.990_047_454_833_98, 0.990_072_250_366_21]
    let derivedHigh = [highPass.b.0, highPass.b.1, highPass.b.2, highPass.a.0, highPass.a.1]
    for (d, p) in zip(derivedHigh, publishedHigh) { #expect(abs(d - p) < 1e-5, "\(d) vs \(p)") }
  }

  @Test("at 16 kHz the response matches 48 kHz's well below Nyquist")
  func responseAt16kHz() {
    let k16 = KWeighting(sampleRate: 16_000)
    let k48 = KWeighting(sampleRate: 48_000)
    for hertz in [20.0, 38, 100, 500, 1_000, 1_681, 3_000] {
      let g16 = 10 * log10(k16.powerGain(atHertz: hertz, sampleRate: 16_000))
      let g48 = 10 * log10(k48.powerGain(atHertz: hertz, sampleRate: 48_000))
      // The bilinear transform squeezes the shelf towards 8 kHz: a few tenths of a dB at 3 kHz.
      #expect(abs(g16 - g48) < (hertz <= 1_000 ? 0.1 : 0.5), "\(hertz) Hz: \(g16) vs \(g48)")
    }
  }

  @Test("a 1 kHz sine at −20 dBFS reads −23.0 LUFS, as BS.1770 predicts")
  func sineLoudness() {
    var meter = SoundMeter()
    let tone = Signals.sine(1_000, amplitude: 0.1, seconds: 4)
    let seconds = Signals.windows(tone, size: 16_000).map { meter.measure($0) }
    // Mean square 0.005 (−23.01 dB), times the K-weighting's gain at 1 kHz, −0.691.
    let gain = KWeighting(sampleRate: 16_000).powerGain(atHertz: 1_000, sampleRate: 16_000)
    let predicted = -0.691 + 10 * log10(0.005 * gain)
    for second in seconds.dropFirst() {
      #expect(abs(second.loudness - predicted) < 0.01, "\(second.loudness) vs \(predicted)")
      #expect(abs(second.loudness - -23.01) < 0.1)
      #expect(abs(second.peakMomentary - second.loudness) < 0.01)
    }
    // Once the 2 s before every block are tone too, nothing rises.
    for second in seconds.dropFirst(2) { #expect(abs(second.rise) < 0.05, "\(second.rise)") }
    // The gain is +0.65 dB at 16 kHz (+0.70 dB at 48 kHz), near the 0.691 dB the offset cancels.
    #expect(abs(10 * log10(gain) - 0.651) < 0.005)
  }

  @Test("silence reads −70 LUFS, no rise, no flux, no low share")
  func silence() {
    var meter = SoundMeter()
    for _ in 0..<3 {
      let second = meter.measure(Signals.silence(1))
      #expect(
        second
          == SoundSecond(
            loudness: -70, meanSquare: 0, peakMomentary: -70, rise: 0, flux: 0, onsets: 0,
            lowShare: 0))
    }
  }
}
