import LeamojiCore
import Testing

@testable import LeamojiScenes

/// The film-lighting conventions hold on average, yet no single brightness rule separates the
/// moods: a classifier must learn tone and colour, not one pixel statistic.
@Suite("Mood statistics over many scenes")
struct MoodStatisticsTests {
  struct Sample {
    let mood: Mood
    let luminance: Double
    let saturation: Double
    let dark: Double
  }

  /// 200 scenes per mood at 64x64, measured once for all tests of this suite.
  static let samples: [Sample] = Mood.allCases.flatMap { mood in
    (0..<200).map { i -> Sample in
      let image = makeScene(mood: mood, seed: 10_000 + UInt64(i), size: PixelSize(width: 64, height: 64))
      return Sample(
        mood: mood, luminance: ImageMetrics.meanLuminance(image),
        saturation: ImageMetrics.meanSaturation(image), dark: ImageMetrics.darkFraction(image))
    }
  }

  static func mean(_ mood: Mood, _ value: (Sample) -> Double) -> Double {
    let xs = samples.filter { $0.mood == mood }.map(value)
    return xs.reduce(0, +) / Double(xs.count)
  }

  @Test("mean luminance: happy > neutral > scary, by clear margins")
  func luminanceOrder() {
    let happy = Self.mean(.happy) { $0.luminance }
    let neutral = Self.mean(.neutral) { $0.luminance }
    let scary = Self.mean(.scary) { $0.luminance }
    #expect(happy > neutral + 0.08)
    #expect(neutral > scary + 0.2)
    #expect(scary < 0.25)
    #expect(happy > 0.5)
  }

  @Test("mean saturation: happy is more colourful than neutral")
  func saturationOrder() {
    #expect(Self.mean(.happy) { $0.saturation } > Self.mean(.neutral) { $0.saturation } + 0.15)
  }

  @Test("scary scenes have far more very dark pixels")
  func darkPixels() {
    let scary = Self.mean(.scary) { $0.dark }
    #expect(scary > 0.4)
    #expect(scary > 4 * Self.mean(.neutral) { $0.dark })
    #expect(scary > 4 * Self.mean(.happy) { $0.dark })
  }

  @Test("the classes overlap in brightness: some scary scene is brighter than some neutral one, some happy darker")
  func overlapExists() {
    let brightestScary = Self.samples.filter { $0.mood == .scary }.map(\.luminance).max()!
    let darkestNeutral = Self.samples.filter { $0.mood == .neutral }.map(\.luminance).min()!
    let darkestHappy = Self.samples.filter { $0.mood == .happy }.map(\.luminance).min()!
    let brightestNeutral = Self.samples.filter { $0.mood == .neutral }.map(\.luminance).max()!
    #expect(brightestScary > darkestNeutral)
    #expect(darkestHappy < brightestNeutral)
  }

  @Test("no brightness threshold classifies perfectly")
  func thresholdsFail() {
    // Two classes at a time: the best single threshold on mean luminance.
    for (dark, bright) in [(Mood.scary, Mood.neutral), (.neutral, .happy)] {
      let pair = Self.samples.filter { $0.mood == dark || $0.mood == bright }
      #expect(Self.bestThresholdAccuracy(pair, dark: dark, bright: bright) < 0.97)
    }
    // All three: the best pair of thresholds (scary < t1 <= neutral < t2 <= happy).
    let values = Self.samples.map(\.luminance).sorted()
    var best = 0.0
    let candidates = stride(from: 0, to: values.count, by: 4).map { values[$0] }
    for t1 in candidates {
      for t2 in candidates where t2 >= t1 {
        let correct = Self.samples.filter { s in
          let predicted: Mood = s.luminance < t1 ? .scary : (s.luminance < t2 ? .neutral : .happy)
          return predicted == s.mood
        }.count
        best = max(best, Double(correct) / Double(Self.samples.count))
      }
    }
    #expect(best < 0.95)
  }

  static func bestThresholdAccuracy(_ samples: [Sample], dark: Mood, bright: Mood) -> Double {
    var best = 0.0
    for t in samples.map(\.luminance) {
      let correct = samples.filter { ($0.luminance < t ? dark : bright) == $0.mood }.count
      best = max(best, Double(correct) / Double(samples.count))
    }
    return best
  }
}
