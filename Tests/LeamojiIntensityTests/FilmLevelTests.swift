import Testing

@testable import LeamojiIntensity

@Suite("Film level")
struct FilmLevelTests {
  /// The mean square that reads `lufs`.
  func meanSquare(_ lufs: Double) -> Double { Decibels.power10((lufs + 0.691) / 10) }

  @Test("a silent film has no level")
  func silent() {
    #expect(FilmLevel.integratedLoudness(meanSquares: []) == nil)
    #expect(FilmLevel.integratedLoudness(meanSquares: [0, 0, meanSquare(-75)]) == nil)
  }

  @Test("a steady film's level is its loudness; silence does not lower it")
  func steady() throws {
    let level = try #require(
      FilmLevel.integratedLoudness(meanSquares: [meanSquare(-24), 0, meanSquare(-24), 0]))
    #expect(abs(level - -24) < 1e-9)
  }

  @Test("the relative gate drops seconds more than 10 LU below the rest")
  func relativeGate() throws {
    let loud = [Double](repeating: meanSquare(-20), count: 10)
    let quiet = [Double](repeating: meanSquare(-40), count: 10)
    let level = try #require(FilmLevel.integratedLoudness(meanSquares: loud + quiet))
    #expect(abs(level - -20) < 1e-9)
    // Seconds within 10 LU all count.
    let near = [Double](repeating: meanSquare(-26), count: 10)
    let mixed = try #require(FilmLevel.integratedLoudness(meanSquares: loud + near))
    let ungated = -0.691 + 10 * Decibels.log10((meanSquare(-20) + meanSquare(-26)) / 2)
    #expect(abs(mixed - ungated) < 1e-9)
  }

  @Test("relative loudness is the second's loudness minus the film's level")
  func relative() {
    let second = SoundSecond(
      loudness: -30, meanSquare: meanSquare(-30), peakMomentary: -28, rise: 0, flux: 0,
      onsets: 0, lowShare: 0)
    #expect(FilmLevel.relativeLoudness(of: second, filmLevel: -24) == -6)
  }
}
