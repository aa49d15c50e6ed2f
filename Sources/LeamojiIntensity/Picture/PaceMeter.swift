import LeamojiCore

/// Measures how fast the picture changes, one sample (one picture a second) at a time, against
/// the previous sample. Pictures normally all have one size; a picture of another size than the
/// previous one counts as a cut with the most motion (`motion` and `change` both 1).
public struct PaceMeter: Sendable {
  /// Bins per channel of the colour histogram (a power of two up to 256).
  static let binsPerChannel = 8

  private var previous: (image: RGBImage, histogram: [Int])?

  public init() {}

  /// The picture's change since the previous sample's.
  public mutating func measure(_ image: RGBImage) -> PaceSecond {
    let histogram = Self.histogram(image)
    defer { previous = (image, histogram) }
    guard let previous else { return PaceSecond(motion: 0, change: 0) }
    guard previous.image.size == image.size else { return PaceSecond(motion: 1, change: 1) }
    let pixels = image.width * image.height
    var moved = 0
    for i in 0..<histogram.count { moved += abs(histogram[i] - previous.histogram[i]) }
    return PaceSecond(
      motion: Self.lumaDifference(image.pixels, previous.image.pixels) / Double(pixels),
      change: Double(moved) / Double(2 * pixels))
  }

  /// `Σ |Y − Y'|` over the pixels, with `Y` BT.601 luma in 0…1.
  static func lumaDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    var sum = 0.0
    for i in stride(from: 0, to: a.count, by: 3) {
      sum += abs(RGB.luma(a[i], a[i + 1], a[i + 2]) - RGB.luma(b[i], b[i + 1], b[i + 2]))
    }
    return sum
  }

  /// Pixel counts per colour class: `binsPerChannel`³ bins of the top bits of R, G, B.
  static func histogram(_ image: RGBImage) -> [Int] {
    let shift = 8 - binsPerChannel.trailingZeroBitCount
    let bins = binsPerChannel
    var counts = [Int](repeating: 0, count: bins * bins * bins)
    let p = image.pixels
    for i in stride(from: 0, to: p.count, by: 3) {
      let r = Int(p[i] >> shift)
      let g = Int(p[i + 1] >> shift)
      let b = Int(p[i + 2] >> shift)
      counts[(r * bins + g) * bins + b] += 1
    }
    return counts
  }
}
