internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

// Each class below is the one Swift owner of one FFmpeg allocation and frees it in `deinit`, so
// every path out of a function (errors included) releases it. Other code borrows the pointer
// for the owner's lifetime and never frees it. (`Scaler` owns the one `SwsContext`.)

/// Owns an `AVFormatContext` opened with `avformat_open_input`.
final class FormatContext {
  let pointer: UnsafeMutablePointer<AVFormatContext>

  /// Opens the local file at `path` for demuxing. Throws with the raw FFmpeg code so the caller
  /// can classify it.
  init(openingPath path: String) throws(FFmpegCallError) {
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    // Always the file protocol: a name like `clip:1.mp4` or `http:x` must not pick another one.
    // On failure avformat_open_input frees the context itself.
    try FFmpegCall.check(
      avformat_open_input(&context, "file:" + path, nil, nil), "avformat_open_input")
    guard let context else {
      // Success without a context does not happen; if it did, no memory for one is the reason.
      throw FFmpegCallError(function: "avformat_open_input", code: AVCode.posix(ENOMEM))
    }
    pointer = context
  }

  deinit {
    var context: UnsafeMutablePointer<AVFormatContext>? = pointer
    avformat_close_input(&context)
  }
}

/// Owns an `AVCodecContext`.
final class CodecContext {
  let pointer: UnsafeMutablePointer<AVCodecContext>

  /// A context for `codec`; nil when it cannot be allocated.
  init?(codec: UnsafePointer<AVCodec>) {
    guard let context = avcodec_alloc_context3(codec) else { return nil }
    pointer = context
  }

  deinit {
    var context: UnsafeMutablePointer<AVCodecContext>? = pointer
    avcodec_free_context(&context)
  }
}

/// Owns an `AVFrame` (and, through it, references to decoded picture buffers).
final class Frame {
  let pointer: UnsafeMutablePointer<AVFrame>

  init() {
    guard let frame = av_frame_alloc() else { fatalError("out of memory allocating an AVFrame") }
    pointer = frame
  }

  /// Drops the picture this frame references, keeping the frame for reuse.
  func unref() { av_frame_unref(pointer) }

  deinit {
    var frame: UnsafeMutablePointer<AVFrame>? = pointer
    av_frame_free(&frame)
  }
}

/// Owns an `AVPacket`.
final class Packet {
  let pointer: UnsafeMutablePointer<AVPacket>

  init() {
    guard let packet = av_packet_alloc() else { fatalError("out of memory allocating an AVPacket") }
    pointer = packet
  }

  /// Drops the data this packet references, keeping the packet for reuse.
  func unref() { av_packet_unref(pointer) }

  deinit {
    var packet: UnsafeMutablePointer<AVPacket>? = pointer
    av_packet_free(&packet)
  }
}

/// Owns one `AVDictionary` of options per stream, the array `avformat_find_stream_info` takes
/// (and may replace entries of, with the options it did not use; those are freed here too).
final class StreamOptions {
  private var dictionaries: [OpaquePointer?]

  init(streamCount: Int) {
    dictionaries = Array(repeating: nil, count: streamCount)
  }

  /// Sets `key` to `value` in every stream's dictionary.
  func setForEveryStream(_ key: String, _ value: String) throws(FFmpegCallError) {
    for i in dictionaries.indices {
      try FFmpegCall.check(av_dict_set(&dictionaries[i], key, value, 0), "av_dict_set")
    }
  }

  /// Lends the array to `body` as FFmpeg's `AVDictionary **` (nil when there are no streams).
  func withPointer<Result>(
    _ body: (UnsafeMutablePointer<OpaquePointer?>?) -> Result
  ) -> Result {
    if dictionaries.isEmpty { return body(nil) }
    return dictionaries.withUnsafeMutableBufferPointer { body($0.baseAddress) }
  }

  deinit {
    for i in dictionaries.indices { av_dict_free(&dictionaries[i]) }
  }
}
