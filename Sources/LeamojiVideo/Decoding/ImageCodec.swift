internal import CFFmpeg
import LeamojiCore

/// Still images in and out: decoding any picture FFmpeg's image decoders read (PNG, JPEG, BMP,
/// WebP, TIFF, GIF, …) into RGB — how training folders are read — and encoding RGB as PNG or
/// JPEG with libavcodec's encoders, for frame export and posters.
public enum ImageCodec {
  /// Decodes the image at `path` (its first picture, for animated formats), resized to `size`
  /// (nil: its display size).
  /// - Throws: `MediaError` naming the file.
  public static func decode(path: String, size: PixelSize? = nil) throws(MediaError) -> RGBImage {
    let file = try VideoFile(path: path)
    let decoder = try StreamDecoder(file: file, threads: 1)
    let frame = Frame()
    guard decoder.decode(into: frame) != nil else {
      throw .corrupt(path: path, reason: "no decodable picture")
    }
    let clock = file.clock
    return try Scaler().uprightImage(
      from: frame.pointer, size: size ?? clock.displaySize, clock: clock)
  }

  /// A PNG file's bytes for `image` (lossless, RGB, 8 bits per channel).
  public static func encodePNG(_ image: RGBImage) throws(MediaError) -> [UInt8] {
    try encode(image, codec: AV_CODEC_ID_PNG, pixelFormat: AV_PIX_FMT_RGB24, qscale: nil)
  }

  /// A JPEG file's bytes for `image`; `quality` from 1 (smallest) to 100 (best).
  public static func encodeJPEG(
    _ image: RGBImage, quality: Int = 90
  ) throws(MediaError) -> [UInt8] {
    let clamped = min(100, max(1, quality))
    // libavcodec's MJPEG quantiser scale: 2 (best) ... 31 (worst).
    let qscale = 2 + (100 - clamped) * 29 / 99
    return try encode(
      image, codec: AV_CODEC_ID_MJPEG, pixelFormat: AV_PIX_FMT_YUVJ420P, qscale: qscale)
  }

  /// `image` scaled to `size` (whole picture, no crop; aspect ratio follows `size`).
  public static func resize(
    _ image: RGBImage, to size: PixelSize
  ) throws(MediaError) -> RGBImage {
    try Scaler().resize(image, to: size)
  }

  /// Encodes `image` as one picture with the encoder for `codecID`, converted to `pixelFormat`
  /// (at quantiser scale `qscale`, when given), and returns the packet bytes.
  private static func encode(
    _ image: RGBImage, codec codecID: AVCodecID, pixelFormat: AVPixelFormat, qscale: Int?
  ) throws(MediaError) -> [UInt8] {
    let name = String(cString: avcodec_get_name(codecID))
    /// Every FFmpeg failure here reads `<encoder>: <FFmpeg's text>`.
    func check(_ code: Int32, _ function: StaticString) throws(MediaError) {
      do {
        try FFmpegCall.check(code, function)
      } catch {
        throw .encodingFailed(reason: "\(name): \(error.text)")
      }
    }
    guard let encoder = avcodec_find_encoder(codecID), let codec = CodecContext(codec: encoder)
    else {
      throw .encodingFailed(reason: "this FFmpeg has no \(name) encoder")
    }
    let context = codec.pointer
    context.pointee.width = Int32(image.width)
    context.pointee.height = Int32(image.height)
    context.pointee.pix_fmt = pixelFormat
    context.pointee.time_base = AVRational(num: 1, den: 25)
    context.pointee.thread_count = 1
    if let qscale {
      context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
      context.pointee.global_quality = Int32(qscale) * cffmpeg_qp2lambda()
    }
    try check(avcodec_open2(context, encoder, nil), "avcodec_open2")

    let frame = Frame()
    frame.pointer.pointee.format = pixelFormat.rawValue
    frame.pointer.pointee.width = Int32(image.width)
    frame.pointer.pointee.height = Int32(image.height)
    try check(av_frame_get_buffer(frame.pointer, 0), "av_frame_get_buffer")
    if pixelFormat == AV_PIX_FMT_RGB24 {
      copyRows(of: image, into: frame.pointer)
    } else {
      try Scaler().fill(frame.pointer, format: pixelFormat, from: image)
    }
    frame.pointer.pointee.pts = 0
    frame.pointer.pointee.quality = context.pointee.global_quality

    try check(avcodec_send_frame(context, frame.pointer), "avcodec_send_frame")
    // No more input, so that the encoder gives out everything it holds. End-of-file means it
    // had been told already, which is as good.
    let endOfInput = avcodec_send_frame(context, nil)
    if FFmpegCall.status(endOfInput, "avcodec_send_frame") != .endOfFile {
      try check(endOfInput, "avcodec_send_frame")
    }
    let packet = Packet()
    var bytes: [UInt8] = []
    receiving: while true {
      let received = avcodec_receive_packet(context, packet.pointer)
      switch FFmpegCall.status(received, "avcodec_receive_packet") {
      case .success:
        if let data = packet.pointer.pointee.data {
          let size = Int(packet.pointer.pointee.size)
          bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: size))
        }
        packet.unref()
      case .endOfFile, .again:
        break receiving
      case .failure:
        try check(received, "avcodec_receive_packet")
      }
    }
    guard !bytes.isEmpty else { throw .encodingFailed(reason: "\(name): encoder produced no data") }
    return bytes
  }

  private static func copyRows(of image: RGBImage, into frame: UnsafeMutablePointer<AVFrame>) {
    let rowBytes = image.width * 3
    let stride = Int(frame.pointee.linesize.0)
    guard let destination = frame.pointee.data.0 else { return }
    image.pixels.withUnsafeBufferPointer { source in
      for row in 0..<image.height {
        (destination + row * stride).update(
          from: source.baseAddress! + row * rowBytes, count: rowBytes)
      }
    }
  }
}
