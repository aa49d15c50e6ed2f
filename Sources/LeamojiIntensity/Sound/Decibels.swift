import LeamojiCore

/// Levels in decibels and BS.1770 loudness units. Every transcendental function in this module
/// is `PortableMath`'s, so results are the same bits on every host.
enum Decibels {
  /// ln 10, to turn natural logarithms into decimal ones.
  static let ln10 = 2.302_585_092_994_045_7

  /// The absolute gate of BS.1770-4 (LUFS): quieter blocks do not count, and every loudness
  /// here is floored at it (silence reads −70, not −∞).
  static let floor = -70.0

  /// `log10(x)` for `x > 0` (−∞ for 0).
  static func log10(_ x: Double) -> Double { PortableMath.log(x) / ln10 }

  /// `10^x`.
  static func power10(_ x: Double) -> Double { PortableMath.exp(x * ln10) }

  /// BS.1770 loudness of a K-weighted mean square: `−0.691 + 10·log10(meanSquare)` LUFS, floored
  /// at −70.
  static func loudness(meanSquare: Double) -> Double {
    guard meanSquare > 0 else { return floor }
    return max(floor, -0.691 + 10 * log10(meanSquare))
  }
}
