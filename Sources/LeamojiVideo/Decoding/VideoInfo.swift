internal import CFFmpeg
import LeamojiCore

/// What leamoji knows about a video before decoding it.
public struct VideoInfo: Sendable, Equatable {
  /// The path it was opened from.
  public let path: String
  /// The container format as FFmpeg names it (e.g. `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
  public let containerName: String
  /// The video codec (e.g. `h264`, `vp9`).
  public let codecName: String
  /// Width and height of the pictures as stored.
  public let codedSize: PixelSize
  /// Width and height as shown: sample aspect ratio applied, then rotation.
  public let displaySize: PixelSize
  /// Clockwise degrees (0, 90, 180 or 270) the pictures are turned to be shown upright,
  /// from the stream's display-matrix side data.
  public let rotation: Int
  /// Average frames per second, when the container knows it.
  public let frameRate: Double?
  /// Length in seconds, measured from the stream's start; nil when unknown.
  public let duration: Double?
  /// The video stream's start time in seconds; sample times are relative to it.
  public let startTime: Double
  /// The container's `title` metadata, when present and not empty.
  public let title: String?
  /// The container's `comment` (or `description`) metadata, when present and not empty.
  public let comment: String?
}

extension VideoInfo {
  /// The facts of a video stream: times and sizes from its clock, names and metadata from
  /// FFmpeg.
  init(
    path: String, format: UnsafeMutablePointer<AVFormatContext>,
    stream: UnsafeMutablePointer<AVStream>, clock: StreamClock
  ) {
    let metadata = format.pointee.metadata
    self.init(
      path: path,
      containerName: format.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
      codecName: String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)),
      codedSize: clock.codedSize, displaySize: clock.displaySize,
      rotation: clock.quarterTurns * 90, frameRate: clock.frameRate?.value,
      duration: clock.duration?.seconds, startTime: clock.startSeconds,
      title: VideoInfo.text(of: "title", in: metadata),
      comment: VideoInfo.text(of: "comment", in: metadata)
        ?? VideoInfo.text(of: "description", in: metadata))
  }

  /// A metadata entry's value, when present and not empty.
  private static func text(of key: String, in dictionary: OpaquePointer?) -> String? {
    guard let dictionary, let entry = av_dict_get(dictionary, key, nil, 0),
      let value = entry.pointee.value
    else {
      return nil
    }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
  }
}
