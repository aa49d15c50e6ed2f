import Foundation
import LeamojiCore
import LeamojiVideo
import Testing

@Suite("Media errors")
struct MediaErrorTests {
  @Test("every MediaError names its file on one line")
  func descriptions() {
    let path = "/videos/holiday clip.mp4"
    let errors: [MediaError] = [
      .notFound(path: path), .isDirectory(path: path),
      .unreadable(path: path, reason: "Permission denied"),
      .notMedia(path: path), .noVideoStream(path: path), .noDecoder(path: path, codec: "prores"),
      .corrupt(path: path, reason: "no frame could be decoded"),
    ]
    for error in errors {
      #expect(error.path == path)
      #expect(error.description.hasPrefix(path), "\(error)")
      #expect(!error.description.contains("\n"))
    }
    let encoding = MediaError.encodingFailed(reason: "out of memory")
    #expect(encoding.path == nil)
    #expect(encoding.description.contains("out of memory"))
    #expect(Set(errors.map(\.description)).count == errors.count, "each problem reads differently")
  }

  @Test("the messages read word for word as the command line prints them")
  func exactMessages() {
    let path = "clip.mp4"
    let messages: [(MediaError, String)] = [
      (.notFound(path: path), "clip.mp4: no such file"),
      (.isDirectory(path: path), "clip.mp4: is a directory, not a video or image file"),
      (
        .unreadable(path: path, reason: "Permission denied"),
        "clip.mp4: cannot be read (Permission denied)"
      ),
      (.notMedia(path: path), "clip.mp4: not a video or image file that FFmpeg can read"),
      (.noVideoStream(path: path), "clip.mp4: has no video stream (audio only?)"),
      (
        .noDecoder(path: path, codec: "prores"),
        "clip.mp4: no decoder for the prores codec in this FFmpeg"
      ),
      (
        .corrupt(path: path, reason: "no decodable video frame"),
        "clip.mp4: corrupt or truncated (no decodable video frame)"
      ),
      (
        .tooLarge(path: path, width: 20000, height: 100),
        "clip.mp4: the picture size 20000x100 is larger than leamoji reads"
          + " (at most 8192x4320 pixels, or 16384 on a side)"
      ),
      (
        .encodingFailed(reason: "png: Invalid argument"),
        "image encoding failed (png: Invalid argument)"
      ),
    ]
    for (error, message) in messages {
      #expect(error.description == message)
    }
    #expect(MediaError.tooLarge(path: path, width: 1, height: 1).path == path)
  }
}
