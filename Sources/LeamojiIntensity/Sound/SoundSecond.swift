/// The sound of one sampled second, as `SoundMeter` measures it (docs/intensity.md has the exact
/// definitions). Loudness values are in LUFS / LU and floored at −70 LUFS.
public struct SoundSecond: Sendable, Equatable, Codable {
  /// BS.1770-4 loudness of the window's K-weighted signal (LUFS): `−0.691 + 10·log10(meanSquare)`,
  /// at least −70.
  public var loudness: Double
  /// The mean square of the window's K-weighted samples (full scale = 1): what `FilmLevel`
  /// gates and averages.
  public var meanSquare: Double
  /// The highest BS.1770 momentary loudness (400 ms blocks every 100 ms) among the blocks ending
  /// in this window (LUFS); −70 when none does.
  public var peakMomentary: Double
  /// The steepest jump (LU): the largest, over the 100 ms blocks ending in this window, of the
  /// block's loudness minus the loudness of the 2 s before it, both floored at −70 LUFS. A scream
  /// or bang after quiet gives tens of LU; steady sound about 0; a fade negative. 0 when no
  /// block ends in the window.
  public var rise: Double
  /// Mean spectral flux of the STFT frames finishing in this window (summed increase of
  /// `ln(1 + 100·|X|)` over 257 bins): how fast the spectrum changes.
  public var flux: Double
  /// Onsets (sudden spectral increases) found, decided 3 frames (48 ms) late, so an onset in a
  /// window's last 3 frames counts in the next window (docs/intensity.md).
  public var onsets: Int
  /// The share of the window's spectral energy below 150 Hz (DC left out), in 0…1; 0 when silent.
  public var lowShare: Double

  public init(
    loudness: Double, meanSquare: Double, peakMomentary: Double, rise: Double, flux: Double,
    onsets: Int, lowShare: Double
  ) {
    self.loudness = loudness
    self.meanSquare = meanSquare
    self.peakMomentary = peakMomentary
    self.rise = rise
    self.flux = flux
    self.onsets = onsets
    self.lowShare = lowShare
  }
}
