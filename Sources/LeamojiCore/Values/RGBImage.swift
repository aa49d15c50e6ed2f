/// A picture as tightly packed 8-bit RGB triples, row by row from the top-left corner.
///
/// This is the one image type every leamoji module exchanges: the video module produces it,
/// the classifier consumes it, the terminal player draws it.
public struct RGBImage: Equatable, Sendable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width * height * 3` bytes: R, G, B for each pixel, rows top to bottom, no padding.
  public var pixels: [UInt8]

  /// An image from existing pixel bytes; `pixels.count` must be `width * height * 3`.
  public init(width: Int, height: Int, pixels: [UInt8]) {
    precondition(width > 0 && height > 0, "image must not be empty")
    precondition(
      pixels.count == width * height * 3, "pixel buffer does not match \(width)x\(height)")
    self.width = width
    self.height = height
    self.pixels = pixels
  }

  /// A `width` x `height` image filled with one colour.
  public init(width: Int, height: Int, fill: RGB = RGB(0, 0, 0)) {
    precondition(width > 0 && height > 0, "image must not be empty")
    self.width = width
    self.height = height
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    for i in stride(from: 0, to: bytes.count, by: 3) {
      bytes[i] = fill.r
      bytes[i + 1] = fill.g
      bytes[i + 2] = fill.b
    }
    self.pixels = bytes
  }

  /// The size of this image.
  public var size: PixelSize { PixelSize(width: width, height: height) }

  /// The colour at column `x`, row `y`.
  public subscript(x: Int, y: Int) -> RGB {
    get {
      let i = (y * width + x) * 3
      return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
    }
    set {
      let i = (y * width + x) * 3
      pixels[i] = newValue.r
      pixels[i + 1] = newValue.g
      pixels[i + 2] = newValue.b
    }
  }

  /// This image turned clockwise by `quarterTurns` * 90 degrees (negative turns go anticlockwise).
  public func rotated(quarterTurns: Int) -> RGBImage {
    let turns = ((quarterTurns % 4) + 4) % 4
    if turns == 0 { return self }
    let outW = turns == 2 ? width : height
    let outH = turns == 2 ? height : width
    var out = [UInt8](repeating: 0, count: pixels.count)
    pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for y in 0..<height {
          for x in 0..<width {
            let (ox, oy): (Int, Int)
            switch turns {
            case 1: (ox, oy) = (height - 1 - y, x)
            case 2: (ox, oy) = (width - 1 - x, height - 1 - y)
            default: (ox, oy) = (y, width - 1 - x)
            }
            let s = (y * width + x) * 3
            let d = (oy * outW + ox) * 3
            dst[d] = src[s]
            dst[d + 1] = src[s + 1]
            dst[d + 2] = src[s + 2]
          }
        }
      }
    }
    return RGBImage(width: outW, height: outH, pixels: out)
  }
}

/// One 8-bit RGB colour.
public struct RGB: Equatable, Hashable, Sendable {
  public var r: UInt8
  public var g: UInt8
  public var b: UInt8
  public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// BT.601 luma of the colour `r, g, b`, 0…1: how bright a picture looks (the poster's
  /// exposure, the pace of a film's pictures). Inlined into per-pixel loops.
  @inlinable
  public static func luma(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> Double {
    (0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)) / 255
  }
}

/// A width and height in pixels.
public struct PixelSize: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var width: Int
  public var height: Int
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Parses `"WxH"` (e.g. `"64x64"`); nil when malformed or not positive.
  public init?(parsing text: String) {
    let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0,
      w <= 16384, h <= 16384
    else { return nil }
    self.init(width: w, height: h)
  }

  public var description: String { "\(width)x\(height)" }
}
