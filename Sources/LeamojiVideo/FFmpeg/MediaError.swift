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
    case .notFound(let path), .isDirectory(let path), .unreadable(let path, _),
      .notMedia(let path), .noVideoStream(let path), .noDecoder(let path, _),
      .corrupt(let path, _), .tooLarge(let path, _, _):
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
    case .noDecoder(let path, let codec):
      return "\(path): no decoder for the \(codec) codec in this FFmpeg"
    case .corrupt(let path, let reason): return "\(path): corrupt or truncated (\(reason))"
    case .tooLarge(let path, let width, let height):
      return "\(path): the picture size \(width)x\(height) is larger than leamoji reads"
        + " (\(PictureLimit.summary))"
    case .encodingFailed(let reason): return "image encoding failed (\(reason))"
    }
  }
}
