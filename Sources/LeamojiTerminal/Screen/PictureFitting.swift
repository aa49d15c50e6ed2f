import LeamojiCore

/// Fitting a video's picture into a block of half-block cells.
///
/// A terminal cell is about twice as tall as it is wide, so the two half-block pixels of a cell
/// are close to square: `columns` x `rows` cells show `columns` x `2 * rows` square pixels.
public enum PictureFitting {
  /// The largest size with the aspect ratio of `display` that fits `columns` x `2 * rows`
  /// pixels. Small videos are scaled up to fill the space, like big ones are scaled down.
  ///
  /// - Parameters:
  ///   - display: the picture's display size (storage size with the sample aspect ratio
  ///     applied), in pixels; any positive size.
  ///   - columns: cells available across (values below 1 count as 1).
  ///   - rows: cells available down (values below 1 count as 1).
  /// - Returns: width in 1...columns; height even, in 2...2*rows (a whole number of cells);
  ///   each rounded to the nearest allowed value. A non-positive `display` fills the space.
  public static func pictureSize(for display: PixelSize, columns: Int, rows: Int) -> PixelSize {
    let maxWidth = max(1, columns)
    let maxHeight = 2 * max(1, rows)
    guard display.width > 0, display.height > 0 else {
      return PixelSize(width: maxWidth, height: maxHeight)
    }
    let width = Double(display.width)
    let height = Double(display.height)
    let scale = min(Double(maxWidth) / width, Double(maxHeight) / height)
    let fittedWidth = Int((width * scale).rounded())
    let fittedHeight = 2 * Int((height * scale / 2).rounded())
    return PixelSize(
      width: min(max(1, fittedWidth), maxWidth), height: min(max(2, fittedHeight), maxHeight))
  }

  /// `image` resized to `size` by nearest-neighbour sampling (the canvas's fallback when it is
  /// handed a picture bigger than its area; the player normally scales while decoding).
  public static func nearestNeighbour(_ image: RGBImage, to size: PixelSize) -> RGBImage {
    if image.size == size { return image }
    precondition(size.width > 0 && size.height > 0, "target size must not be empty")
    var out = [UInt8](repeating: 0, count: size.width * size.height * 3)
    image.pixels.withUnsafeBufferPointer { src in
      out.withUnsafeMutableBufferPointer { dst in
        for y in 0..<size.height {
          let sy = min(image.height - 1, (2 * y + 1) * image.height / (2 * size.height))
          for x in 0..<size.width {
            let sx = min(image.width - 1, (2 * x + 1) * image.width / (2 * size.width))
            let s = (sy * image.width + sx) * 3
            let d = (y * size.width + x) * 3
            dst[d] = src[s]
            dst[d + 1] = src[s + 1]
            dst[d + 2] = src[s + 2]
          }
        }
      }
    }
    return RGBImage(width: size.width, height: size.height, pixels: out)
  }
}
