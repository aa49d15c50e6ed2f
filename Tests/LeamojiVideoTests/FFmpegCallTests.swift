import Foundation
import Testing

@testable import LeamojiVideo

@Suite("FFmpeg return codes")
struct FFmpegCallTests {
  static let invalid = AVCode.posix(EINVAL)

  @Test("status: zero and more succeed with their value; EAGAIN and end-of-file are answers")
  func classification() {
    #expect(FFmpegCall.status(0, "f") == .success(0))
    #expect(FFmpegCall.status(3, "f") == .success(3))
    #expect(FFmpegCall.status(AVCode.again, "f") == .again)
    #expect(FFmpegCall.status(AVCode.endOfFile, "f") == .endOfFile)
    #expect(
      FFmpegCall.status(Self.invalid, "avcodec_open2")
        == .failure(FFmpegCallError(function: "avcodec_open2", code: Self.invalid)))
    #expect(
      FFmpegCall.status(AVCode.decoderNotFound, "av_find_best_stream")
        == .failure(FFmpegCallError(function: "av_find_best_stream", code: AVCode.decoderNotFound)))
  }

  @Test("check returns what succeeded and throws the function and code of anything negative")
  func check() throws {
    #expect(try FFmpegCall.check(0, "f") == 0)
    #expect(try FFmpegCall.check(7, "f") == 7)
    for code in [Self.invalid, AVCode.again, AVCode.endOfFile, Int32.min] {
      #expect(throws: FFmpegCallError(function: "av_frame_get_buffer", code: code)) {
        try FFmpegCall.check(code, "av_frame_get_buffer")
      }
    }
  }

  @Test("errors read in FFmpeg's own words, and say which call failed")
  func text() {
    let error = FFmpegCallError(function: "avcodec_open2", code: Self.invalid)
    #expect(error.text == "Invalid argument")
    #expect(error.description == "avcodec_open2: Invalid argument")
    #expect(ffmpegErrorText(AVCode.endOfFile) == "End of file")
    #expect(ffmpegErrorText(AVCode.decoderNotFound) == "Decoder not found")
    #expect(ffmpegErrorText(AVCode.posix(ENOENT)) == "No such file or directory")
  }

  @Test("a code FFmpeg has no words for still reads as one line naming it")
  func unknownCode() {
    let text = ffmpegErrorText(-123_456_789)
    #expect(!text.isEmpty && !text.contains("\n"))
    #expect(text.contains("123456789"), "\(text)")
  }
}
