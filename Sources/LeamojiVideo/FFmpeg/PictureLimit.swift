/// The largest pictures leamoji decodes. A header can declare any size; a decoder allocates
/// what it declares, so anything above this is refused before (and while) decoding. DCI 8K
/// (8192x4320) is the largest real film format, and fits.
public enum PictureLimit {
  /// Pixels per picture: 8192 x 4320.
  public static let maximumPixels = 8192 * 4320
  /// Pixels on either side.
  public static let maximumSide = 16384
  /// How the limit reads in error messages.
  static let summary = "at most 8192x4320 pixels, or 16384 on a side"

  /// Whether a picture of this size may be decoded: positive sides, neither side above
  /// `maximumSide`, and at most `maximumPixels` in all.
  static func allows(width: Int, height: Int) -> Bool {
    guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else { return false }
    return width * height <= maximumPixels
  }
}
