import LeamojiClassifier
import LeamojiIntensity
import LeamojiTimeline

/// Turns a film's measured sound and pace, second by second, into the signals the marker
/// encoder fuses with the picture (docs/intensity.md, "From features to signals"): each
/// second's intensity from its loudness relative to the film's own level, and sudden scares.
public enum SignalBuilder {
  /// How far below the film's level a sudden second's loudest 400 ms may be (LU): a rise from
  /// silence to quiet room tone is no scare. 0: it must reach the film's level (3 LU below
  /// doubled the false sudden events on the benign footage, docs/intensity.md).
  public static let suddenLevelBelowFilm = 0.0

  /// Seconds of sound a rise is measured against (`SoundSecond.rise`): before the stream has
  /// that much, it counts silence, so its first seconds cannot be sudden.
  public static let riseHistory = 2.0

  /// One `SecondSignals` per sample `interval` seconds apart (the shorter of `sound` and
  /// `pace` decides the count; normally they are equal).
  public static func signals(
    sound: [SoundSecond], pace: [PaceSecond], interval: Double, settings: FusionSettings
  ) -> [SecondSignals] {
    let count = min(sound.count, pace.count)
    guard count > 0 else { return [] }
    let level = FilmLevel.integratedLoudness(of: Array(sound[0..<count]))
    let span = settings.loudLU - settings.quietLU
    return (0..<count).map { k in
      guard let level else { return SecondSignals(intensity: 0, sudden: false) }
      let relative = FilmLevel.relativeLoudness(of: sound[k], filmLevel: level)
      let intensity = min(1, max(0, (relative - settings.quietLU) / span))
      // The picture changes at the scare: between this sample and the last, or the next one
      // when the scare comes after this second's frame.
      let change = max(pace[k].change, k + 1 < count ? pace[k + 1].change : 0)
      let sudden =
        Double(k) * interval >= riseHistory && sound[k].rise >= settings.suddenRiseDB
        && change >= settings.suddenChange
        && sound[k].peakMomentary - level >= -suddenLevelBelowFilm
      return SecondSignals(intensity: intensity, sudden: sudden)
    }
  }
}
