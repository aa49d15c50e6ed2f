internal import CFFmpeg

// Each class below is the one Swift owner of one FFmpeg allocation and frees it in `deinit`, so
// every path out of a function (errors included) releases it. Other code borrows the pointer
// for the owner's lifetime and never frees it.

/// Owns an `AVFormatContext` opened with `avformat_open_input`.
final class FormatContext {
  let pointer: UnsafeMutablePointer<AVFormatContext>

  /// Opens the local file at `path` for demuxing. Throws with the raw FFmpeg code so the caller
  /// can classify it.
  init(openingPath path: String) throws(FFmpegCallError) {
    var context: UnsafeMutablePointer<AVFormatContext>? = nil
    // Always the file protocol: a name like `clip:1.mp4` or `http:x` must not pick another one.
    let code = avformat_open_input(&context, "file:" + path, nil, nil)
    guard code >= 0, let opened = context else {
      // avformat_open_input frees the context itself on failure.
      throw FFmpegCallError(code: code)
    }
    pointer = opened
  }

  deinit {
    var context: UnsafeMutablePointer<AVFormatContext>? = pointer
    avformat_close_input(&context)
  }
}

/// Owns an `AVCodecContext`.
final class CodecContext {
  let pointer: UnsafeMutablePointer<AVCodecContext>

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

  func unref() { av_packet_unref(pointer) }

  deinit {
    var packet: UnsafeMutablePointer<AVPacket>? = pointer
    av_packet_free(&packet)
  }
}

/// A failed FFmpeg call's return code, before it is turned into a `MediaError` naming a file.
struct FFmpegCallError: Error {
  let code: Int32
  var text: String { ffmpegErrorText(code) }
}
