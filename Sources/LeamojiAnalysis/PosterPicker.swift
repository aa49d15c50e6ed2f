import LeamojiCore

/// Chooses the poster frame of a video while it is being analysed, keeping only the best
/// candidate so far (memory stays bounded whatever the video's length).
///
/// The rule: a candidate must be neither nearly black nor nearly flat (mean luma at least 12 %
/// and luma standard deviation at least 4 %, so fades and title cards are skipped); among
/// those, a calm one (a sample whose label, decided as the timeline decides it, is not scary)
/// beats any scary one, so that a family's catalogue does not greet a child with the film's
/// most frightening frame; then the most confident in its label wins, earliest first on ties.
/// If no sample qualifies, the brightest one is used.
public struct PosterPicker: Sendable {
  public private(set) var best: (time: Double, image: RGBImage, score: Double, calm: Bool)? = nil
  private var fallback: (time: Double, image: RGBImage, luma: Double)? = nil

  public init() {}

  /// Considers one sample: its poster-size image, the classifier's confidence in its label,
  /// and whether that label is calm (not scary).
  public mutating func consider(
    time: Double, image: RGBImage, confidence: Double, calm: Bool = true
  ) {
    let (mean, deviation) = PosterPicker.lumaStatistics(image)
    if fallback == nil || mean > fallback!.luma { fallback = (time, image, mean) }
    guard mean >= 0.12, deviation >= 0.04 else { return }
    if couldChoose(confidence: confidence, calm: calm) {
      best = (time, image, confidence, calm)
    }
  }

  /// Whether a sample with this confidence and label could change the choice, so that its
  /// image is worth making: always until some sample qualifies (any may be the brightest),
  /// then only when it is calm and the best so far is not, or as calm and more confident
  /// (ties keep the earlier one).
  public func couldChoose(confidence: Double, calm: Bool = true) -> Bool {
    guard let best else { return true }
    if calm != best.calm { return calm }
    return confidence > best.score
  }

  /// The chosen frame and its time, if any sample was considered.
  public var choice: (time: Double, image: RGBImage)? {
    if let best { return (best.time, best.image) }
    if let fallback { return (fallback.time, fallback.image) }
    return nil
  }

  /// Mean and standard deviation of Rec. 601 luma in 0...1.
  static func lumaStatistics(_ image: RGBImage) -> (mean: Double, deviation: Double) {
    var sum = 0.0
    var squares = 0.0
    let count = image.width * image.height
    image.pixels.withUnsafeBufferPointer { p in
      var i = 0
      while i < p.count {
        let y = RGB.luma(p[i], p[i + 1], p[i + 2])
        sum += y
        squares += y * y
        i += 3
      }
    }
    let mean = sum / Double(count)
    return (mean, max(0, squares / Double(count) - mean * mean).squareRoot())
  }
}
