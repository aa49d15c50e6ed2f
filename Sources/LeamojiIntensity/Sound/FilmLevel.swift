/// A film's own loudness level, so each second can be judged against it: films are mastered at
/// different levels (a quiet art-house mix, a loud blockbuster).
public enum FilmLevel {
  /// The BS.1770-4 gated integrated loudness (LUFS) of the seconds whose K-weighted mean
  /// squares are given, one 1-second block each: blocks at or below −70 LUFS are dropped
  /// (absolute gate), then blocks at or below the rest's loudness − 10 LU (relative gate), and the
  /// loudness of the remaining blocks' mean square is the level. Nil when every block is gated
  /// out (a silent film).
  public static func integratedLoudness(meanSquares: [Double]) -> Double? {
    let audible = meanSquares.filter { Self.loudness($0) > Decibels.floor }
    guard !audible.isEmpty else { return nil }
    let gate = Self.loudness(mean(audible)) - 10
    let kept = audible.filter { Self.loudness($0) > gate }
    return Self.loudness(mean(kept))
  }

  /// `integratedLoudness` of the seconds' `meanSquare`s.
  public static func integratedLoudness(of seconds: [SoundSecond]) -> Double? {
    integratedLoudness(meanSquares: seconds.map(\.meanSquare))
  }

  /// How much louder (LU, negative: quieter) a second is than the film: its `loudness` (floored
  /// at −70) minus the film's level.
  public static func relativeLoudness(of second: SoundSecond, filmLevel: Double) -> Double {
    second.loudness - filmLevel
  }

  /// Unfloored BS.1770 loudness of a mean square (−∞ for 0), for the gates.
  private static func loudness(_ meanSquare: Double) -> Double {
    -0.691 + 10 * Decibels.log10(meanSquare)
  }

  private static func mean(_ values: [Double]) -> Double {
    var sum = 0.0
    for value in values { sum += value }
    return sum / Double(values.count)
  }
}
