internal import CFFmpeg
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// An opened media file and its chosen video stream: the one place that turns a path into
/// FFmpeg's demuxer state, with typed errors for every way that can fail.
public final class VideoFile {
  /// Facts about the file and its video stream.
  public let info: VideoInfo

  /// The stream's clock and picture shape, shared by everything that decodes it.
  let clock: StreamClock
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
      if [EACCES, EIO, ENOMEM].map(AVCode.posix).contains(error.code) {
        throw .unreadable(path: path, reason: error.text)
      }
      // The file was readable a moment ago, so any other failure is about its content: damaged
      // when its first bytes are recognised, foreign otherwise.
      if let recognised = VideoFile.probeFormatName(path: path) {
        throw .corrupt(
          path: path, reason: "a damaged or truncated \(recognised) file: \(error.text)")
      }
      throw .notMedia(path: path)
    }
    try VideoFile.findStreamInfo(format.pointer, path: path)
    let (stream, decoder) = try VideoFile.bestVideoStream(in: format.pointer, path: path)
    self.format = format
    self.stream = stream
    self.decoder = decoder
    clock = StreamClock(stream: stream, format: format.pointer)
    info = VideoInfo(path: path, format: format.pointer, stream: stream, clock: clock)
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

  /// The format FFmpeg guesses from the file's first bytes alone, if any
  /// (`av_probe_input_format2`).
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
      guard let format = av_probe_input_format2(&probe, 1, &score), let name = format.pointee.name
      else {
        return nil
      }
      return String(cString: name)
    }
  }

  /// The video stream to decode and its decoder: FFmpeg's best, or the first real video stream
  /// when its best is cover art. Refuses streams without a usable or allowed picture size.
  private static func bestVideoStream(
    in format: UnsafeMutablePointer<AVFormatContext>, path: String
  ) throws(MediaError) -> (UnsafeMutablePointer<AVStream>, UnsafePointer<AVCodec>) {
    let count = Int(format.pointee.nb_streams)
    guard count > 0, let streams = format.pointee.streams else {
      throw .corrupt(path: path, reason: "the container holds no streams")
    }
    var decoder: UnsafePointer<AVCodec>? = nil
    var index: Int?
    let best = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
    switch FFmpegCall.status(best, "av_find_best_stream") {
    case .success(let found):
      index = Int(found)
    case .failure(let error) where error.code == AVCode.decoderNotFound:
      throw .noDecoder(path: path, codec: VideoFile.firstVideoCodecName(in: format))
    case .again, .endOfFile, .failure:
      index = nil  // AVERROR_STREAM_NOT_FOUND, or no stream FFmpeg could choose
    }
    if let found = index, streams[found]!.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
      // Cover art in an audio file is not a video; look for a real video stream instead.
      index = (0..<count).first { i in
        let candidate = streams[i]!.pointee
        return candidate.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
          && candidate.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
      }
      decoder = index.flatMap { i in
        avcodec_find_decoder(streams[i]!.pointee.codecpar.pointee.codec_id)
      }
    }
    guard let index else {
      // A stream FFmpeg could not identify at all is what a cut-off header leaves behind.
      let unidentified = (0..<count).contains { i in
        streams[i]!.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_NONE
      }
      if unidentified { throw .corrupt(path: path, reason: "no readable video stream") }
      throw .noVideoStream(path: path)
    }
    let stream = streams[index]!
    let parameters = stream.pointee.codecpar.pointee
    guard let decoder else {
      throw .noDecoder(path: path, codec: String(cString: avcodec_get_name(parameters.codec_id)))
    }
    if parameters.width <= 0 || parameters.height <= 0 {
      throw .corrupt(
        path: path,
        reason: "no usable picture size: none declared, or larger than leamoji reads — "
          + PictureLimit.summary)
    }
    if !PictureLimit.allows(width: Int(parameters.width), height: Int(parameters.height)) {
      throw .tooLarge(path: path, width: Int(parameters.width), height: Int(parameters.height))
    }
    return (stream, decoder)
  }

  /// `avformat_find_stream_info`, with every stream's probing decoder held to `PictureLimit`:
  /// finding the picture size may decode a first picture, and a forged header must not make
  /// that allocate gigabytes.
  private static func findStreamInfo(
    _ format: UnsafeMutablePointer<AVFormatContext>, path: String
  ) throws(MediaError) {
    let options = StreamOptions(streamCount: Int(format.pointee.nb_streams))
    do {
      try options.setForEveryStream("max_pixels", String(PictureLimit.maximumPixels))
    } catch {
      // av_dict_set fails only for want of memory: unreadable, as when opening fails so.
      throw .unreadable(path: path, reason: error.text)
    }
    do {
      try FFmpegCall.check(
        options.withPointer { avformat_find_stream_info(format, $0) }, "avformat_find_stream_info")
    } catch {
      throw .corrupt(path: path, reason: error.text)
    }
  }

  /// The codec of the file's first video stream, for saying which one has no decoder.
  private static func firstVideoCodecName(
    in format: UnsafeMutablePointer<AVFormatContext>
  ) -> String {
    for i in 0..<Int(format.pointee.nb_streams) {
      let parameters = format.pointee.streams[i]!.pointee.codecpar.pointee
      if parameters.codec_type == AVMEDIA_TYPE_VIDEO {
        return String(cString: avcodec_get_name(parameters.codec_id))
      }
    }
    return "unknown"
  }
}
