internal import CFFmpeg
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

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

/// An opened media file and its chosen video stream: the one place that turns a path into
/// FFmpeg's demuxer state, with typed errors for every way that can fail.
public final class VideoFile {
  /// Facts about the file and its video stream.
  public let info: VideoInfo

  let format: FormatContext
  let stream: UnsafeMutablePointer<AVStream>
  let decoder: UnsafePointer<AVCodec>

  /// Opens `path` and selects its best video stream (`av_find_best_stream`, cover art excluded).
  /// - Throws: `MediaError` naming the file: not found, a directory, unreadable, not media,
  ///   no video stream, no decoder, corrupt.
  public init(path: String) throws(MediaError) {
    try VideoFile.checkReadableFile(path)
    let format: FormatContext
    do {
      format = try FormatContext(openingPath: path)
    } catch {
      if error.code == cffmpeg_averror(EACCES) || error.code == cffmpeg_averror(EIO) || error.code == cffmpeg_averror(ENOMEM) {
        throw .unreadable(path: path, reason: error.text)
      }
      // The file was readable a moment ago, so any other failure is about its content: damaged
      // when its first bytes are recognised, foreign otherwise.
      if let recognised = VideoFile.probeFormatName(path: path) {
        throw .corrupt(path: path, reason: "a damaged or truncated \(recognised) file: \(error.text)")
      }
      throw .notMedia(path: path)
    }
    let infoCode = VideoFile.findStreamInfo(format.pointer)
    if infoCode < 0 {
      throw .corrupt(path: path, reason: ffmpegErrorText(infoCode))
    }
    let (stream, decoder) = try VideoFile.bestVideoStream(in: format.pointer, path: path)
    self.format = format
    self.stream = stream
    self.decoder = decoder
    self.info = VideoFile.describe(path: path, format: format.pointer, stream: stream)
  }

  /// The stream's time base as an exact rational.
  var timeBase: TimeBase { TimeBase(stream.pointee.time_base) }

  /// The stream's `start_time` in its time base (0 when unset).
  var startTicks: Int64 {
    stream.pointee.start_time == AVCode.noPTS ? 0 : stream.pointee.start_time
  }

  private static func checkReadableFile(_ path: String) throws(MediaError) {
    var status = stat()
    if stat(path, &status) != 0 {
      let code = errno
      if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
      throw .unreadable(path: path, reason: String(cString: strerror(code)))
    }
    switch status.st_mode & S_IFMT {
    case S_IFDIR: throw .isDirectory(path: path)
    case S_IFREG: break
    default: throw .unreadable(path: path, reason: "not a regular file")
    }
    if access(path, R_OK) != 0 {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    if status.st_size == 0 { throw .notMedia(path: path) }
  }

  /// The format FFmpeg guesses from the file's first bytes alone, if any (`av_probe_input_format2`).
  private static func probeFormatName(path: String) -> String? {
    guard let handle = fopen(path, "rb") else { return nil }
    defer { fclose(handle) }
    let probeSize = 4096
    let padding = Int(AVPROBE_PADDING_SIZE)
    var buffer = [UInt8](repeating: 0, count: probeSize + padding)
    let count = fread(&buffer, 1, probeSize, handle)
    guard count > 0 else { return nil }
    return buffer.withUnsafeMutableBufferPointer { bytes -> String? in
      var probe = AVProbeData()
      probe.buf = bytes.baseAddress
      probe.buf_size = Int32(count)
      // No file name: the guess must come from content, not from the extension.
      // Only a confident guess counts (score above half of AVPROBE_SCORE_MAX); random bytes
      // can look faintly like MP3 or MPEG-TS.
      var score: Int32 = AVPROBE_SCORE_MAX / 2
      guard let format = av_probe_input_format2(&probe, 1, &score), let name = format.pointee.name else {
        return nil
      }
      return String(cString: name)
    }
  }

  private static func bestVideoStream(
    in format: UnsafeMutablePointer<AVFormatContext>, path: String
  ) throws(MediaError) -> (UnsafeMutablePointer<AVStream>, UnsafePointer<AVCodec>) {
    guard format.pointee.nb_streams > 0, let streams = format.pointee.streams else {
      throw .corrupt(path: path, reason: "the container holds no streams")
    }
    var decoder: UnsafePointer<AVCodec>? = nil
    var index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
    if index >= 0, streams[Int(index)]!.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
      // Cover art in an audio file is not a video; look for a real video stream instead.
      index = AVCode.streamNotFound
      for i in 0..<Int(format.pointee.nb_streams) {
        let candidate = streams[i]!.pointee
        if candidate.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO,
          candidate.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        {
          index = Int32(i)
          decoder = avcodec_find_decoder(candidate.codecpar.pointee.codec_id)
          break
        }
      }
    }
    if index == AVCode.streamNotFound || index < 0 && index != AVCode.decoderNotFound {
      // A stream FFmpeg could not identify at all is what a cut-off header leaves behind.
      let unidentified = (0..<Int(format.pointee.nb_streams)).contains { i in
        streams[i]!.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_NONE
      }
      if unidentified { throw .corrupt(path: path, reason: "no readable video stream") }
      throw .noVideoStream(path: path)
    }
    if index == AVCode.decoderNotFound {
      let codec = VideoFile.firstVideoCodecName(in: format)
      throw .noDecoder(path: path, codec: codec)
    }
    let stream = streams[Int(index)]!
    guard let decoder else {
      throw .noDecoder(path: path, codec: String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)))
    }
    let parameters = stream.pointee.codecpar.pointee
    if parameters.width <= 0 || parameters.height <= 0 {
      throw .corrupt(path: path, reason: "no usable picture size: none declared, or larger than leamoji reads — \(PictureLimit.summary)")
    }
    if !PictureLimit.allows(width: Int(parameters.width), height: Int(parameters.height)) {
      throw .tooLarge(path: path, width: Int(parameters.width), height: Int(parameters.height))
    }
    return (stream, decoder)
  }

  /// `avformat_find_stream_info`, with every stream's probing decoder held to `PictureLimit`:
  /// finding the picture size may decode a first picture, and a forged header must not make
  /// that allocate gigabytes.
  private static func findStreamInfo(_ format: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
    let count = Int(format.pointee.nb_streams)
    guard count > 0 else { return avformat_find_stream_info(format, nil) }
    var options = [OpaquePointer?](repeating: nil, count: count)
    defer { for i in 0..<count { av_dict_free(&options[i]) } }
    for i in 0..<count {
      av_dict_set(&options[i], "max_pixels", String(PictureLimit.maximumPixels), 0)
    }
    return options.withUnsafeMutableBufferPointer { avformat_find_stream_info(format, $0.baseAddress) }
  }

  private static func firstVideoCodecName(in format: UnsafeMutablePointer<AVFormatContext>) -> String {
    for i in 0..<Int(format.pointee.nb_streams) {
      let parameters = format.pointee.streams[i]!.pointee.codecpar.pointee
      if parameters.codec_type == AVMEDIA_TYPE_VIDEO {
        return String(cString: avcodec_get_name(parameters.codec_id))
      }
    }
    return "unknown"
  }

  private static func describe(
    path: String, format: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>
  ) -> VideoInfo {
    let parameters = stream.pointee.codecpar.pointee
    let coded = PixelSize(width: Int(parameters.width), height: Int(parameters.height))
    let rotation = clockwiseRotation(of: stream)

    var displayWidth = coded.width
    let aspect = av_guess_sample_aspect_ratio(format, stream, nil)
    if aspect.num > 0, aspect.den > 0, aspect.num != aspect.den {
      // Real anamorphic pixels are at most a few times wider or narrower than square; a damaged
      // header's 1:32768 would make pictures one pixel wide (or 20 million), so such a ratio is
      // taken as square pixels.
      let ratio = Double(aspect.num) / Double(aspect.den)
      let stretched = max(1, Int((Double(coded.width) * ratio).rounded()))
      if ratio >= 0.25, ratio <= 4, PictureLimit.allows(width: stretched, height: coded.height) {
        displayWidth = stretched
      }
    }
    var display = PixelSize(width: displayWidth, height: coded.height)
    if rotation == 90 || rotation == 270 { display = PixelSize(width: display.height, height: display.width) }

    let timeBase = TimeBase(stream.pointee.time_base)
    var duration: Double? = nil
    if stream.pointee.duration != AVCode.noPTS, stream.pointee.duration > 0 {
      duration = timeBase.seconds(stream.pointee.duration)
    } else if format.pointee.duration != AVCode.noPTS, format.pointee.duration > 0 {
      duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
    }
    let start = stream.pointee.start_time == AVCode.noPTS ? 0 : timeBase.seconds(stream.pointee.start_time)

    var rate: Double? = nil
    for candidate in [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate]
    where candidate.num > 0 && candidate.den > 0 {
      rate = Double(candidate.num) / Double(candidate.den)
      break
    }

    return VideoInfo(
      path: path,
      containerName: format.pointee.iformat.map { String(cString: $0.pointee.name) } ?? "unknown",
      codecName: String(cString: avcodec_get_name(parameters.codec_id)),
      codedSize: coded, displaySize: display, rotation: rotation, frameRate: rate,
      duration: duration, startTime: start,
      title: metadata("title", in: format.pointee.metadata),
      comment: metadata("comment", in: format.pointee.metadata) ?? metadata("description", in: format.pointee.metadata))
  }

  private static func metadata(_ key: String, in dictionary: OpaquePointer?) -> String? {
    guard let dictionary, let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value else {
      return nil
    }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
  }

  /// Degrees clockwise, a multiple of 90, from the display matrix (as the ffmpeg CLI reads it).
  private static func clockwiseRotation(of stream: UnsafeMutablePointer<AVStream>) -> Int {
    var size = 0
    guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 9 * 4 else {
      return 0
    }
    let matrix = UnsafeRawPointer(data).bindMemory(to: Int32.self, capacity: 9)
    let anticlockwise = av_display_rotation_get(matrix)
    guard anticlockwise.isFinite else { return 0 }
    let quarter = Int((-anticlockwise / 90).rounded())
    return ((quarter % 4) + 4) % 4 * 90
  }
}

/// An exact rational time base (seconds per tick).
struct TimeBase: Equatable {
  let num: Int64
  let den: Int64

  init(_ rational: AVRational) {
    if rational.num > 0 && rational.den > 0 {
      num = Int64(rational.num)
      den = Int64(rational.den)
    } else {
      num = 1
      den = Int64(AV_TIME_BASE)
    }
  }

  init(num: Int64, den: Int64) {
    self.num = num
    self.den = den
  }

  func seconds(_ ticks: Int64) -> Double { Double(ticks) * Double(num) / Double(den) }
}
