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
    guard decoder.decode(into: frame) else {
      throw .corrupt(path: path, reason: "no decodable picture")
    }
    let target = size ?? file.info.displaySize
    let turns = file.info.rotation / 90
    let scaled = turns % 2 == 1 ? PixelSize(width: target.height, height: target.width) : target
    return try Scaler().rgbImage(from: frame.pointer, size: scaled, quarterTurns: turns)
  }

  /// A PNG file's bytes for `image` (lossless, RGB, 8 bits per channel).
  public static func encodePNG(_ image: RGBImage) throws(MediaError) -> [UInt8] {
    try encode(image, codec: AV_CODEC_ID_PNG, pixelFormat: AV_PIX_FMT_RGB24, qscale: nil)
  }

  /// A JPEG file's bytes for `image`; `quality` from 1 (smallest) to 100 (best).
  public static func encodeJPEG(_ image: RGBImage, quality: Int = 90) throws(MediaError) -> [UInt8] {
    let clamped = min(100, max(1, quality))
    // libavcodec's MJPEG quantiser scale: 2 (best) ... 31 (worst).
    let qscale = 2 + (100 - clamped) * 29 / 99
    return try encode(image, codec: AV_CODEC_ID_MJPEG, pixelFormat: AV_PIX_FMT_YUVJ420P, qscale: qscale)
  }

  /// `image` scaled to `size` (whole picture, no crop; aspect ratio follows `size`).
  public static func resize(_ image: RGBImage, to size: PixelSize) throws(MediaError) -> RGBImage {
    try Scaler().resize(image, to: size)
  }

  private static func encode(
    _ image: RGBImage, codec codecID: AVCodecID, pixelFormat: AVPixelFormat, qscale: Int?
  ) throws(MediaError) -> [UInt8] {
    let name = String(cString: avcodec_get_name(codecID))
    guard let encoder = avcodec_find_encoder(codecID), let codec = CodecContext(codec: encoder) else {
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
    var code = avcodec_open2(context, encoder, nil)
    guard code >= 0 else { throw .encodingFailed(reason: "\(name): \(ffmpegErrorText(code))") }

    let frame = Frame()
    frame.pointer.pointee.format = pixelFormat.rawValue
    frame.pointer.pointee.width = Int32(image.width)
    frame.pointer.pointee.height = Int32(image.height)
    code = av_frame_get_buffer(frame.pointer, 0)
    guard code >= 0 else { throw .encodingFailed(reason: "\(name): \(ffmpegErrorText(code))") }
    if pixelFormat == AV_PIX_FMT_RGB24 {
      copyRows(of: image, into: frame.pointer)
    } else {
      try Scaler().fill(frame.pointer, format: pixelFormat, from: image)
    }
    frame.pointer.pointee.pts = 0
    frame.pointer.pointee.quality = context.pointee.global_quality

    code = avcodec_send_frame(context, frame.pointer)
    guard code >= 0 else { throw .encodingFailed(reason: "\(name): \(ffmpegErrorText(code))") }
    avcodec_send_frame(context, nil)
    let packet = Packet()
    var bytes: [UInt8] = []
    while true {
      code = avcodec_receive_packet(context, packet.pointer)
      if code == AVCode.endOfFile || code == AVCode.again { break }
      guard code >= 0 else { throw .encodingFailed(reason: "\(name): \(ffmpegErrorText(code))") }
      if let data = packet.pointer.pointee.data {
        bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(packet.pointer.pointee.size)))
      }
      packet.unref()
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
        (destination + row * stride).update(from: source.baseAddress! + row * rowBytes, count: rowBytes)
      }
    }
  }
}
