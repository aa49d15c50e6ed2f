import Foundation
import LeamojiCore
import LeamojiVideo
import Testing

/// `body`'s result, or the `MediaError` it threw.
func capture<T>(_ body: () throws(MediaError) -> T) -> Result<T, MediaError> {
  do { return .success(try body()) } catch { return .failure(error) }
}

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
      try ExternalTools.run(
        "ffmpeg",
        ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", url.path],
        in: store.directory)
      return url.path
    case .audioWithCoverArt:
      // An MP3 with a picture (ID3 APIC): FFmpeg shows the picture as a video stream, but it is
      // cover art, not a video.
      let url = store.scratchURL("song-with-cover.mp3")
      try ExternalTools.run(
        "ffmpeg",
        [
          "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-f", "lavfi",
          "-i", "color=c=red:s=320x240:d=0.04", "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame",
          "-c:v", "png", "-disposition:v", "attached_pic", "-id3v2_version", "3", url.path,
        ],
        in: store.directory)
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

@Suite("Media errors")
struct MediaErrorTests {
  @Test(
    "bad inputs give their MediaError, from VideoFile and FrameSampler",
    arguments: BadInput.allCases)
  func badInput(_ input: BadInput) throws {
    let path = try input.make()
    let fromFile = capture { () throws(MediaError) in try VideoFile(path: path).info }
    let fromSampler = capture { () throws(MediaError) in try FrameSampler(path: path).outputSize }
    for (api, result) in [
      ("VideoFile", fromFile.map { _ in () }), ("FrameSampler", fromSampler.map { _ in () }),
    ] {
      guard case .failure(let error) = result else {
        Issue.record("\(api)(path:) opened \(input) without an error")
        continue
      }
      #expect(input.accepts(error, path: path), "\(api): \(input) gave \(error)")
      #expect(error.path == path, "\(api): error.path")
      #expect(error.description.contains(path), "\(api): message must name the file: \(error)")
      #expect(!error.description.contains("\n"), "\(api): message must be one line: \(error)")
      #expect(error.description.count > path.count + 3, "\(api): message must say the problem")
    }
  }

  @Test("random bytes and text are also rejected by ffprobe (the inputs are truly not media)")
  func inputsAreNotMediaForFFprobe() throws {
    for input in [BadInput.textNamedMP4, .randomBytesNamedMP4, .empty] {
      let path = try input.make()
      #expect(throws: FixtureError.self, "\(input)") {
        try ExternalTools.run("ffprobe", ["-v", "error", path], in: FixtureStore.shared.directory)
      }
    }
  }

  @Test("a PNG named .mp4 is a one-frame video: one sample at t = 0")
  func pngNamedMP4() throws {
    let store = FixtureStore.shared
    let url = store.scratchURL("still.mp4")
    let picture = FrameIndexPattern.render(index: 7, width: 96, height: 72)
    try ExternalTools.run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "96x72", "-i", "-",
        "-frames:v", "1", "-c:v", "png", "-f", "image2", url.path,
      ],
      in: store.directory
    ) { stdin in try stdin.write(contentsOf: Data(picture.pixels)) }
    let header = [UInt8](try Data(contentsOf: url).prefix(4))
    #expect(header == [0x89, 0x50, 0x4E, 0x47], "the file is a PNG")

    let info = try VideoFile(path: url.path).info
    #expect(info.codedSize == PixelSize(width: 96, height: 72))
    #expect(info.displaySize == PixelSize(width: 96, height: 72))
    let sampler = try FrameSampler(path: url.path, size: PixelSize(width: 64, height: 64))
    let first = try #require(try sampler.next())
    #expect(first.index == 0 && first.time == 0 && first.presentationTime == 0)
    #expect(FrameIndexPattern.frameIndex(in: first.image) == 7)
    #expect(try sampler.next() == nil, "one frame, one sample")
  }

  @Test("ImageCodec.decode reports missing, folder and non-image files by name")
  func imageDecodeErrors() throws {
    let missing = FixtureStore.shared.scratchURL("missing.png").path
    #expect(
      capture { () throws(MediaError) in try ImageCodec.decode(path: missing) }.failure
        == .notFound(path: missing))
    let folder = try BadInput.directory.make()
    #expect(
      capture { () throws(MediaError) in try ImageCodec.decode(path: folder) }.failure
        == .isDirectory(path: folder))
    let text = try BadInput.textNamedMP4.make()
    let error = capture { () throws(MediaError) in try ImageCodec.decode(path: text) }.failure
    #expect(error == .notMedia(path: text))
    #expect(error?.description.contains(text) == true)
  }

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
}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

