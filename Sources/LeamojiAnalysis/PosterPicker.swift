import LeamojiCore

/// Chooses the poster frame of a video while it is being analysed, keeping only the best
/// candidate so far (memory stays bounded whatever the video's length).
///
/// The rule: a candidate must be neither nearly black nor nearly flat (mean luma at least 12 %
/// and luma standard deviation at least 4 %, so fades and title cards are skipped); among
/// those, the one whose most probable label is most confident wins, earliest first on ties.
/// If no sample qualifies, the brightest one is used.
public struct PosterPicker: Sendable {
  public private(set) var best: (time: Double, image: RGBImage, score: Double)? = nil
  private var fallback: (time: Double, image: RGBImage, luma: Double)? = nil

  public init() {}

  /// Considers one sample: its poster-size image and the classifier's confidence in its label.
  public mutating func consider(time: Double, image: RGBImage, confidence: Double) {
    let (mean, deviation) = PosterPicker.lumaStatistics(image)
    if fallback == nil || mean > fallback!.luma { fallback = (time, image, mean) }
    guard mean >= 0.12, deviation >= 0.04 else { return }
    if couldChoose(confidence: confidence) { best = (time, image, confidence) }
  }

  /// Whether a sample with this confidence could change the choice, so that its image is
  /// worth making: always until some sample qualifies (any may be the brightest), then only
  /// when it is more confident than the best so far (ties keep the earlier one).
  public func couldChoose(confidence: Double) -> Bool {
    guard let best else { return true }
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
