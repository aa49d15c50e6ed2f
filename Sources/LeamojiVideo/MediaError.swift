internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// Why a video or image could not be read or written. Each case renders as one line that names
/// the file, so the command line can print it as it is.
public enum MediaError: Error, Equatable, CustomStringConvertible, Sendable {
  /// Nothing exists at the path.
  case notFound(path: String)
  /// The path is a folder, not a file.
  case isDirectory(path: String)
  /// The file exists but cannot be opened (permissions, not a regular file, I/O error).
  case unreadable(path: String, reason: String)
  /// FFmpeg recognises no audio, video or image format in the file.
  case notMedia(path: String)
  /// The file is media but has no video stream (audio only, for example).
  case noVideoStream(path: String)
  /// The video is in a codec this FFmpeg build cannot decode.
  case noDecoder(path: String, codec: String)
  /// The file is damaged or truncated: nothing decodable where a picture was expected.
  case corrupt(path: String, reason: String)
  /// The pictures are larger than leamoji decodes (`PictureLimit`), so memory stays bounded.
  case tooLarge(path: String, width: Int, height: Int)
  /// Encoding an image (PNG, JPEG) or resizing one failed.
  case encodingFailed(reason: String)

  /// The file the error is about, when there is one.
  public var path: String? {
    switch self {
    case .notFound(let path), .isDirectory(let path), .unreadable(let path, _), .notMedia(let path),
      .noVideoStream(let path), .noDecoder(let path, _), .corrupt(let path, _), .tooLarge(let path, _, _):
      return path
    case .encodingFailed:
      return nil
    }
  }

  /// One line: `<file>: <problem>`.
  public var description: String {
    switch self {
    case .notFound(let path): return "\(path): no such file"
    case .isDirectory(let path): return "\(path): is a directory, not a video or image file"
    case .unreadable(let path, let reason): return "\(path): cannot be read (\(reason))"
    case .notMedia(let path): return "\(path): not a video or image file that FFmpeg can read"
    case .noVideoStream(let path): return "\(path): has no video stream (audio only?)"
    case .noDecoder(let path, let codec): return "\(path): no decoder for the \(codec) codec in this FFmpeg"
    case .corrupt(let path, let reason): return "\(path): corrupt or truncated (\(reason))"
    case .tooLarge(let path, let width, let height):
      return "\(path): the picture size \(width)x\(height) is larger than leamoji reads (\(PictureLimit.summary))"
    case .encodingFailed(let reason): return "image encoding failed (\(reason))"
    }
  }
}

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

  static func allows(width: Int, height: Int) -> Bool {
    width > 0 && height > 0 && width <= maximumSide && height <= maximumSide && width * height <= maximumPixels
  }
}

/// FFmpeg's own text for an error code (`av_strerror`).
func ffmpegErrorText(_ code: Int32) -> String {
  var buffer = [CChar](repeating: 0, count: 256)
  if av_strerror(code, &buffer, buffer.count) < 0 {
    return "error \(code)"
  }
  let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
  return String(decoding: bytes, as: UTF8.self)
}

/// FFmpeg return codes the decode loops handle themselves.
enum AVCode {
  static let again = cffmpeg_averror(EAGAIN)
  static let endOfFile = cffmpeg_averror_eof()
  static let invalidData = cffmpeg_averror_invaliddata()
  static let decoderNotFound = cffmpeg_averror_decoder_not_found()
  static let streamNotFound = cffmpeg_averror_stream_not_found()
  static let noPTS = cffmpeg_nopts_value()
}

/// Silences libav's own logging. leamoji reports problems through `MediaError` and counters;
/// FFmpeg's console chatter would otherwise mix into its output. Call once at program start.
public enum FFmpegLogging {
  public static func silence() {
    av_log_set_level(AV_LOG_QUIET)
  }
}
