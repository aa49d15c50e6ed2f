/// Measures a film's sound one sampled second at a time: mono 16 kHz windows, in order, the
/// stream continuous across them. Filters, blocks and frames run over the stream, not the
/// window, so a feature does not depend on where the windows are cut (beyond the onsets' 3-frame
/// lag): the state between windows is kept here.
public struct SoundMeter: Sendable {
  /// The sample rate every window must have.
  public static let sampleRate = 16_000

  private var kWeighting = KWeighting(sampleRate: Double(sampleRate))
  private var blocks = LoudnessBlocks(sampleRate: sampleRate)
  private var frames = SpectralFrames(sampleRate: sampleRate)
  private var onsets = OnsetPicker()
  /// Whether the spectral features (flux, onsets, low share) are measured.
  public let measuresSpectrum: Bool

  /// - Parameter spectrum: also measure the spectral features; without them (`false`) they are
  ///   0, and the loudness features are the same bits, at about a quarter of the cost (the
  ///   STFT and its logarithms are most of it).
  public init(spectrum: Bool = true) {
    measuresSpectrum = spectrum
  }

  /// The features of the next window (any length; normally 16 000 samples, one second; all
  /// zeros when the film has no sound there).
  public mutating func measure(_ window: [Float]) -> SoundSecond {
    var sumOfSquares = 0.0
    var peakMomentary = Decibels.floor
    var rise: Double?
    var fluxSum = 0.0
    var frameCount = 0
    var lowEnergy = 0.0
    var energy = 0.0
    var onsetCount = 0
    for value in window {
      let sample = Double(value)
      let weighted = kWeighting.process(sample)
      let square = weighted * weighted
      sumOfSquares += square
      if let block = blocks.add(square) {
        peakMomentary = max(peakMomentary, block.momentary)
        rise = max(rise ?? block.rise, block.rise)
      }
      if measuresSpectrum, let frame = frames.add(sample) {
        fluxSum += frame.flux
        frameCount += 1
        lowEnergy += frame.lowEnergy
        energy += frame.energy
        if onsets.add(frame.flux) == true { onsetCount += 1 }
      }
    }
    let meanSquare = window.isEmpty ? 0 : sumOfSquares / Double(window.count)
    return SoundSecond(
      loudness: Decibels.loudness(meanSquare: meanSquare), meanSquare: meanSquare,
      peakMomentary: peakMomentary, rise: rise ?? 0,
      flux: frameCount == 0 ? 0 : fluxSum / Double(frameCount), onsets: onsetCount,
      lowShare: energy > 0 ? lowEnergy / energy : 0)
  }
}
