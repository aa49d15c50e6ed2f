import Testing

@testable import LeamojiIntensity

@Suite("Sound meter")
struct SoundMeterTests {
  func measure(_ signal: [Float], window: Int = 16_000) -> [SoundSecond] {
    var meter = SoundMeter()
    return Signals.windows(signal, size: window).map { meter.measure($0) }
  }

  @Test("a burst after silence rises by tens of LU in its second, and in no other")
  func burstRise() {
    // 3.5 s of silence, 0.3 s of loud noise, then silence again.
    let signal =
      Signals.silence(3.5) + Signals.noise(amplitude: 0.3, seconds: 0.3) + Signals.silence(1.2)
    let seconds = measure(signal)
    #expect(seconds.count == 5)
    #expect(seconds[3].rise > 40, "\(seconds[3].rise)")
    for k in [0, 1, 2, 4] { #expect(seconds[k].rise <= 0, "second \(k): \(seconds[k].rise)") }
    // 300 ms of noise: the best 400 ms holds all of it, the second 30 % of it.
    #expect(seconds[3].peakMomentary > seconds[3].loudness + 3.5)
    #expect(seconds[4].loudness == -70)
  }

  @Test("a 60 Hz tone is nearly all low; a 2 kHz tone nearly none")
  func lowShare() {
    let low = measure(Signals.sine(60, amplitude: 0.3, seconds: 2))
    let high = measure(Signals.sine(2_000, amplitude: 0.3, seconds: 2))
    #expect(low[1].lowShare > 0.99, "\(low[1].lowShare)")
    #expect(high[1].lowShare < 0.001, "\(high[1].lowShare)")
  }

  @Test("clicks every 250 ms give 4 onsets a second; steady noise none")
  func clickOnsets() {
    var signal = Signals.noise(amplitude: 0.001, seconds: 4)
    for click in stride(from: 1_000, to: signal.count, by: 4_000) {
      for i in 0..<16 { signal[click + i] += Float(i.isMultiple(of: 2) ? 0.5 : -0.5) }
    }
    let seconds = measure(signal)
    for second in seconds.dropFirst() { #expect(second.onsets == 4, "\(second)") }
    let noise = measure(Signals.noise(amplitude: 0.1, seconds: 6))
    #expect(noise.dropFirst().allSatisfy { $0.onsets == 0 }, "\(noise.map(\.onsets))")
    #expect(noise.dropFirst().allSatisfy { $0.flux > 50 })
  }

  @Test("features do not depend on where the stream is cut into windows")
  func windowCuts() {
    var signal =
      Signals.noise(amplitude: 0.05, seconds: 1.3) + Signals.sine(70, amplitude: 0.2, seconds: 1.1)
      + Signals.silence(0.8) + Signals.noise(amplitude: 0.4, seconds: 0.8, seed: 5)
    for click in stride(from: 500, to: signal.count, by: 3_100) { signal[click] += 0.7 }
    let whole = measure(signal)
    let halves = measure(signal, window: 8_000)
    #expect(whole.count == 4 && halves.count == 8)
    for (k, second) in whole.enumerated() {
      let (a, b) = (halves[2 * k], halves[2 * k + 1])
      let mean = (a.meanSquare + b.meanSquare) / 2
      #expect(abs(second.meanSquare - mean) <= 1e-12 * mean)
      #expect(second.peakMomentary == max(a.peakMomentary, b.peakMomentary))
      #expect(second.rise == max(a.rise, b.rise))
      #expect(second.onsets == a.onsets + b.onsets)
    }
    // Uneven pieces: the same onsets in all, the same energy.
    var meter = SoundMeter()
    var start = 0
    var pieces: [SoundSecond] = []
    for size in [1, 255, 257, 4_000, 10_007, 511, 20_000, 28_969] {
      pieces.append(meter.measure(Array(signal[start..<start + size])))
      start += size
    }
    #expect(start == signal.count)
    #expect(pieces.map(\.onsets).reduce(0, +) == whole.map(\.onsets).reduce(0, +))
    #expect(pieces.map(\.peakMomentary).max() == whole.map(\.peakMomentary).max())
  }

  @Test("the same input gives the same bits")
  func deterministic() {
    let signal =
      Signals.noise(amplitude: 0.2, seconds: 2) + Signals.sine(440, amplitude: 0.1, seconds: 1)
    #expect(measure(signal) == measure(signal))
  }

  @Test("without the spectrum: the loudness features are the same bits, the spectral ones 0")
  func withoutSpectrum() {
    let signal =
      Signals.silence(1.5) + Signals.noise(amplitude: 0.3, seconds: 0.5)
      + Signals.sine(60, amplitude: 0.2, seconds: 1)
    var loudnessOnly = SoundMeter(spectrum: false)
    let cheap = Signals.windows(signal, size: 16_000).map { loudnessOnly.measure($0) }
    let full = measure(signal)
    #expect(cheap.count == full.count)
    for (a, b) in zip(cheap, full) {
      #expect(a.loudness == b.loudness && a.meanSquare == b.meanSquare)
      #expect(a.peakMomentary == b.peakMomentary && a.rise == b.rise)
      #expect(a.flux == 0 && a.onsets == 0 && a.lowShare == 0)
    }
    #expect(full.contains { $0.flux > 0 })
  }
}
