internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

// Every integer an FFmpeg function returns passes through `FFmpegCall`: `check` where anything
// negative is an error, `status` where EAGAIN and end-of-file are answers a loop acts on, and
// `ignore` where a failure is harmless (the call site says why). So a reader can find every
// return code with one search, and none is dropped without a word.

/// What one FFmpeg return code means, decided in one place.
enum FFmpegStatus: Equatable {
  /// Zero or more: success, with the call's value (a stream index, a row count, …).
  case success(Int32)
  /// `AVERROR(EAGAIN)`: the codec or demuxer needs the other direction (output read, or more
  /// input) before it answers.
  case again
  /// `AVERROR_EOF`: nothing more will come.
  case endOfFile
  /// Any other negative code.
  case failure(FFmpegCallError)
}

/// A failed FFmpeg call: the function and the code it returned. It becomes a `MediaError`
/// naming a file at the call site, which knows what the failure means there.
struct FFmpegCallError: Error, Equatable, CustomStringConvertible {
  /// The FFmpeg function that failed, e.g. `avcodec_open2`.
  let function: String
  /// Its negative return code.
  let code: Int32

  /// FFmpeg's own words for the code, as user-facing messages quote it.
  var text: String { ffmpegErrorText(code) }
  var description: String { "\(function): \(text)" }
}

/// The one checker of FFmpeg return codes.
enum FFmpegCall {
  /// Classifies `code`, returned by `function`, without throwing: for decode and demux loops,
  /// where EAGAIN and end-of-file steer the loop.
  static func status(_ code: Int32, _ function: StaticString) -> FFmpegStatus {
    if code >= 0 { return .success(code) }
    if code == AVCode.again { return .again }
    if code == AVCode.endOfFile { return .endOfFile }
    return .failure(FFmpegCallError(function: "\(function)", code: code))
  }

  /// `code` when it is zero or more; throws for anything negative (EAGAIN and end-of-file
  /// included: a call checked this way has no use for them).
  @discardableResult
  static func check(_ code: Int32, _ function: StaticString) throws(FFmpegCallError) -> Int32 {
    guard code >= 0 else { throw FFmpegCallError(function: "\(function)", code: code) }
    return code
  }

  /// Accepts `code` whatever it is. Only for calls whose failure leaves a usable result; the
  /// call site's comment says why ignoring it is right.
  static func ignore(_ code: Int32, _ function: StaticString) {
    _ = status(code, function)
  }
}

/// FFmpeg return codes the loops and the stream selection compare against.
enum AVCode {
  static let again = cffmpeg_averror(EAGAIN)
  static let endOfFile = cffmpeg_averror_eof()
  static let decoderNotFound = cffmpeg_averror_decoder_not_found()
  static let streamNotFound = cffmpeg_averror_stream_not_found()

  /// `AVERROR(errno)`, e.g. `AVCode.posix(EACCES)`.
  static func posix(_ errno: Int32) -> Int32 { cffmpeg_averror(errno) }
}

/// FFmpeg's own text for an error code (`av_strerror`); `error <code>` for a code it does not
/// know.
func ffmpegErrorText(_ code: Int32) -> String {
  var buffer = [CChar](repeating: 0, count: 256)
  guard case .success = FFmpegCall.status(av_strerror(code, &buffer, buffer.count), "av_strerror")
  else {
    return "error \(code)"
  }
  let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
  return String(decoding: bytes, as: UTF8.self)
}
