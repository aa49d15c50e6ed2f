internal import CFFmpeg
import LeamojiCore

/// Owns one `SwsContext` and reuses it while source and destination stay the same, so a
/// sampler converting thousands of frames of one stream sets up libswscale once.
final class Scaler {
  private var context: OpaquePointer?
  private var colourKey: ColourKey?

  /// The colour parameters last given to `sws_setColorspaceDetails`.
  private struct ColourKey: Equatable {
    var fullRange: Bool
    var colourspace: Int32
  }

  deinit {
    sws_freeContext(context)
  }

  /// Converts a decoded picture of the stream `clock` describes to packed RGB, upright (its
  /// rotation applied) and `size` as shown.
  func uprightImage(
    from frame: UnsafePointer<AVFrame>, size: PixelSize, clock: StreamClock
  ) throws(MediaError) -> RGBImage {
    try rgbImage(
      from: frame, size: clock.storedSize(forUpright: size), quarterTurns: clock.quarterTurns)
  }

  /// Converts a decoded picture to packed RGB at `size`, then turns it clockwise by
  /// `quarterTurns` * 90 degrees (so pass the pre-rotation size).
  func rgbImage(
    from frame: UnsafePointer<AVFrame>, size: PixelSize, quarterTurns: Int = 0
  ) throws(MediaError) -> RGBImage {
    var (format, fullRange) = Scaler.unJPEGFormat(AVPixelFormat(rawValue: frame.pointee.format))
    if frame.pointee.color_range == AVCOL_RANGE_JPEG { fullRange = true }
    if format == AV_PIX_FMT_NONE {
      throw .encodingFailed(reason: "decoded picture has no pixel format")
    }
    var pixels = [UInt8](repeating: 0, count: size.width * size.height * 3)
    let source = Planes(frame: frame)
    try pixels.withUnsafeMutableBufferPointer { (buffer) throws(MediaError) in
      try convert(
        source: source, sourceWidth: frame.pointee.width, sourceHeight: frame.pointee.height,
        sourceFormat: format, fullRange: fullRange,
        colourspace: Int32(frame.pointee.colorspace.rawValue),
        destination: Planes(single: buffer.baseAddress!, stride: Int32(size.width * 3)),
        size: size, destinationFormat: AV_PIX_FMT_RGB24)
    }
    let image = RGBImage(width: size.width, height: size.height, pixels: pixels)
    return quarterTurns % 4 == 0 ? image : image.rotated(quarterTurns: quarterTurns)
  }

  /// Scales packed RGB to packed RGB.
  func resize(_ image: RGBImage, to size: PixelSize) throws(MediaError) -> RGBImage {
    if image.size == size { return image }
    var out = [UInt8](repeating: 0, count: size.width * size.height * 3)
    try Scaler.padded(image.pixels).withUnsafeBufferPointer { (src) throws(MediaError) in
      try out.withUnsafeMutableBufferPointer { (dst) throws(MediaError) in
        try convert(
          source: Planes(packedRGB: src.baseAddress!, width: image.width),
          sourceWidth: Int32(image.width), sourceHeight: Int32(image.height),
          sourceFormat: AV_PIX_FMT_RGB24, fullRange: true,
          colourspace: Int32(AVCOL_SPC_RGB.rawValue),
          destination: Planes(single: dst.baseAddress!, stride: Int32(size.width * 3)),
          size: size, destinationFormat: AV_PIX_FMT_RGB24)
      }
    }
    return RGBImage(width: size.width, height: size.height, pixels: out)
  }

  /// Fills `frame` (already sized and allocated in `format`) from packed RGB.
  func fill(
    _ frame: UnsafeMutablePointer<AVFrame>, format: AVPixelFormat, from image: RGBImage
  ) throws(MediaError) {
    try Scaler.padded(image.pixels).withUnsafeBufferPointer { (src) throws(MediaError) in
      try convert(
        source: Planes(packedRGB: src.baseAddress!, width: image.width),
        sourceWidth: Int32(image.width), sourceHeight: Int32(image.height),
        sourceFormat: AV_PIX_FMT_RGB24, fullRange: true,
        colourspace: Int32(AVCOL_SPC_RGB.rawValue),
        destination: Planes(frame: frame), size: image.size, destinationFormat: format)
    }
  }

  /// Zero bytes after packed pixels given to libswscale as a source. Its SIMD input converters
  /// load whole vectors and so read past the last pixel (valgrind caught a 16-byte load ending
  /// 10 bytes after a poster's pixels in `fill`); FFmpeg's own buffers carry such padding.
  private static let sourcePadding = 64

  /// A copy of `pixels` followed by `sourcePadding` zero bytes, safe for libswscale to read.
  private static func padded(_ pixels: [UInt8]) -> [UInt8] {
    var copy: [UInt8] = []
    copy.reserveCapacity(pixels.count + sourcePadding)
    copy.append(contentsOf: pixels)
    copy.append(contentsOf: repeatElement(0, count: sourcePadding))
    return copy
  }

  private func convert(
    source: Planes, sourceWidth: Int32, sourceHeight: Int32, sourceFormat: AVPixelFormat,
    fullRange: Bool, colourspace: Int32, destination: Planes, size: PixelSize,
    destinationFormat: AVPixelFormat
  ) throws(MediaError) {
    let previous = context
    context = sws_getCachedContext(
      context, sourceWidth, sourceHeight, sourceFormat, Int32(size.width), Int32(size.height),
      destinationFormat, SWS_BILINEAR | SWS_ACCURATE_RND, nil, nil, nil)
    guard let context else {
      let source = "\(sourceWidth)x\(sourceHeight) \(Scaler.name(of: sourceFormat))"
      throw .encodingFailed(reason: "libswscale cannot convert \(source) to \(size)")
    }
    let key = ColourKey(fullRange: fullRange, colourspace: colourspace)
    if context != previous || key != colourKey {
      let isYUV = sourceFormat != AV_PIX_FMT_RGB24
      if isYUV {
        // Honour the stream's matrix (BT.601 / BT.709 ...) and range; output is full-range RGB.
        // Ignored on purpose: a refusal keeps libswscale's defaults (BT.601, limited range),
        // so colours are a little off at worst, which beats refusing the picture.
        FFmpegCall.ignore(
          sws_setColorspaceDetails(
            context, sws_getCoefficients(colourspace), fullRange ? 1 : 0,
            sws_getCoefficients(SWS_CS_DEFAULT), 1, 0, 1 << 16, 1 << 16),
          "sws_setColorspaceDetails")
      }
      colourKey = key
    }
    var sourcePointers = source.pointers.map { UnsafePointer<UInt8>($0) }
    var sourceStrides = source.strides
    var destinationPointers = destination.pointers
    var destinationStrides = destination.strides
    let rows = sws_scale(
      context, &sourcePointers, &sourceStrides, 0, sourceHeight, &destinationPointers,
      &destinationStrides)
    // sws_scale answers the number of rows written; none, or an error, is a failed conversion.
    guard case .success(let written) = FFmpegCall.status(rows, "sws_scale"), written > 0 else {
      throw .encodingFailed(reason: "libswscale produced no rows")
    }
  }

  /// Maps deprecated "J" (full-range) formats to their plain twins plus a full-range flag.
  static func unJPEGFormat(_ format: AVPixelFormat) -> (AVPixelFormat, Bool) {
    switch format {
    case AV_PIX_FMT_YUVJ420P: return (AV_PIX_FMT_YUV420P, true)
    case AV_PIX_FMT_YUVJ422P: return (AV_PIX_FMT_YUV422P, true)
    case AV_PIX_FMT_YUVJ444P: return (AV_PIX_FMT_YUV444P, true)
    case AV_PIX_FMT_YUVJ440P: return (AV_PIX_FMT_YUV440P, true)
    case AV_PIX_FMT_YUVJ411P: return (AV_PIX_FMT_YUV411P, true)
    default: return (format, false)
    }
  }

  static func name(of format: AVPixelFormat) -> String {
    guard let name = av_get_pix_fmt_name(format) else { return "unknown pixel format" }
    return String(cString: name)
  }
}

/// Up to four plane pointers and their row strides, as libswscale takes them.
private struct Planes {
  var pointers: [UnsafeMutablePointer<UInt8>?]
  var strides: [Int32]

  init(frame: UnsafePointer<AVFrame>) {
    let f = frame.pointee
    pointers = [f.data.0, f.data.1, f.data.2, f.data.3]
    strides = [f.linesize.0, f.linesize.1, f.linesize.2, f.linesize.3]
  }

  init(single pointer: UnsafeMutablePointer<UInt8>, stride: Int32) {
    pointers = [pointer, nil, nil, nil]
    strides = [stride, 0, 0, 0]
  }

  /// Packed RGB rows `width` pixels long, as a source (libswscale only reads it).
  init(packedRGB pointer: UnsafePointer<UInt8>, width: Int) {
    self.init(single: UnsafeMutablePointer(mutating: pointer), stride: Int32(width * 3))
  }
}
