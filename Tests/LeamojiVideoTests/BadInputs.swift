import Foundation
import LeamojiCore
import LeamojiVideo
import Testing

/// Files that are not videos we can sample, and the error each must give.
enum BadInput: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case missing, directory, empty, textNamedMP4, randomBytesNamedMP4, truncatedMP4
  case audioOnlyWAV, audioOnlyM4A, audioWithCoverArt

  var testDescription: String { rawValue }

  /// Creates the input; returns its path.
  func make() throws -> String {
    let store = FixtureStore.shared
    switch self {
    case .missing:
      return store.scratchURL("does-not-exist.mp4").path
    case .directory:
      let url = store.scratchURL("folder.mp4")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      return url.path
    case .empty:
      return try write([], to: "empty.mp4")
    case .textNamedMP4:
      return try write(
        Array("This is not a video.\nJust text in a file named like one.\n".utf8), to: "notes.mp4")
    case .randomBytesNamedMP4:
      var generator = SplitMix64(seed: 0x1EA_0001)
      return try write(
        (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &generator) }, to: "noise.mp4")
    case .truncatedMP4:
      // ffmpeg writes the moov atom (the index) last; the first 30% has only media data.
      let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Fixture.h264At25.video.path)))
      guard let mdat = whole.offset(of: "mdat"), let moov = whole.offset(of: "moov"), moov > mdat,
        moov > whole.count * 3 / 10
      else { throw FixtureError.badOutput("the MP4 fixture's moov box is not at its end") }
      return try write(Array(whole.prefix(whole.count * 3 / 10)), to: "truncated.mp4")
    case .audioOnlyWAV, .audioOnlyM4A:
      let url = store.scratchURL(self == .audioOnlyWAV ? "tone.wav" : "tone.m4a")
      try ExternalTools.ffmpegFile(
        ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", url.path],
        output: url, in: store.directory)
      return url.path
    case .audioWithCoverArt:
      // An MP3 with a picture (ID3 APIC): FFmpeg shows the picture as a video stream, but it is
      // cover art, not a video.
      let url = store.scratchURL("song-with-cover.mp3")
      try ExternalTools.ffmpegFile(
        [
          "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-f", "lavfi",
          "-i", "color=c=red:s=320x240:d=0.04", "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame",
          "-c:v", "png", "-disposition:v", "attached_pic", "-id3v2_version", "3", url.path,
        ],
        output: url, in: store.directory)
      return url.path
    }
  }

  /// Whether `error` is right for this input at `path`.
  func accepts(_ error: MediaError, path: String) -> Bool {
    switch self {
    case .missing: return error == .notFound(path: path)
    case .directory: return error == .isDirectory(path: path)
    case .textNamedMP4, .randomBytesNamedMP4: return error == .notMedia(path: path)
    case .audioOnlyWAV, .audioOnlyM4A, .audioWithCoverArt:
      return error == .noVideoStream(path: path)
    case .empty, .truncatedMP4:
      if case .corrupt(path, _) = error { return true }
      return error == .notMedia(path: path)
    }
  }

  private func write(_ bytes: [UInt8], to name: String) throws -> String {
    let url = FixtureStore.shared.scratchURL(name)
    try Data(bytes).write(to: url)
    return url.path
  }
}
