import LeamojiCore
import LeamojiVideo
import Testing

@Suite("VideoPlayback")
struct VideoPlaybackTests {
  static let size = PixelSize(width: 64, height: 64)

  @Test(
    "advance yields every frame in presentation order",
    arguments: [Fixture.h264At25, .bFrames, .variableRateMKV])
  func everyFrame(_ fixture: Fixture) throws {
    let video = try fixture.video
    let playback = try VideoPlayback(path: video.path)
    var times: [Double] = []
    var shown: [Int?] = []
    while let time = playback.advance() {
      times.append(time)
      shown.append(FrameIndexPattern.frameIndex(in: try playback.image(size: Self.size)))
    }
    #expect(times.count == video.framesOnScreen.count)
    #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "presentation order")
    #expect(shown == video.indicesOnScreen)
    #expect(playback.advance() == nil)
  }

  @Test(
    "a seek shows the frame on screen at the new time, in any order",
    arguments: [Fixture.h264At25, .bFrames, .variableRateMKV, .shortGOP])
  func accurateSeek(_ fixture: Fixture) throws {
    let video = try fixture.video
    let targets = video.probe.expectedSamples(interval: .exact(0.7))
    try #require(targets.count >= 4)
    let playback = try VideoPlayback(path: video.path)
    // Backwards, forwards, and from the middle: seeking must not depend on where we were.
    let everyOther = targets.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    let order = targets.reversed() + everyOther
    for want in order {
      let time = try #require(playback.seek(to: want.time), "seek to \(want.time)")
      let label = "\(fixture.rawValue) t=\(want.time)"
      #expect(abs(time - want.presentationTime) < 1e-6, "\(label): at \(time)")
      let index = FrameIndexPattern.frameIndex(in: try playback.image(size: Self.size))
      #expect(index == video.framesOnScreen[want.frameNumber].index, "\(label)")
    }
    // After a seek, playing on continues with the following frame.
    let start = try #require(playback.seek(to: targets[1].time))
    let next = try #require(playback.advance())
    #expect(next > start)
  }

  @Test("times are relative to the stream's start, as the sampler's are")
  func timesFromStreamStart() throws {
    let video = try Fixture.offsetStartMKV.video
    let playback = try VideoPlayback(path: video.path)
    let sampler = try FrameSampler(path: video.path, size: Self.size)
    #expect(playback.advance() == 0, "the first frame starts the stream")
    #expect(try sampler.next()?.presentationTime == 0)
  }

  @Test("seeks outside the video land on its first and last frames")
  func seekClampsToTheVideo() throws {
    let video = try Fixture.h264At25.video
    let playback = try VideoPlayback(path: video.path)
    var lastTime: Double? = nil
    while let time = playback.advance() { lastTime = time }
    let end = try #require(lastTime)
    for far in [1e12, Double.infinity] {
      #expect(playback.seek(to: far) == end, "seek to \(far)")
      let index = FrameIndexPattern.frameIndex(in: try playback.image(size: Self.size))
      #expect(index == video.indicesOnScreen.last!, "seek to \(far)")
    }
    #expect(playback.seek(to: -3) == 0)
    #expect(FrameIndexPattern.frameIndex(in: try playback.image(size: Self.size)) == 0)
  }

  @Test(
    "pictures are upright at the size asked for", arguments: [Fixture.rotatedCW90, .rotated180])
  func uprightPictures(_ fixture: Fixture) throws {
    let video = try fixture.video
    let playback = try VideoPlayback(path: video.path)
    try #require(playback.advance() != nil)
    for size in [video.uprightSize, PixelSize(width: 48, height: 64)] {
      let image = try playback.image(size: size)
      #expect(image.size == size)
      #expect(FrameIndexPattern.frameIndex(in: image) == 0, "\(fixture) at \(size)")
    }
  }

  @Test("asking for a picture before any frame is decoded names the file")
  func imageBeforeAdvance() throws {
    let video = try Fixture.h264At25.video
    let playback = try VideoPlayback(path: video.path)
    let error = capture { () throws(MediaError) in try playback.image(size: Self.size) }.failure
    #expect(error == .corrupt(path: video.path, reason: "no decoded frame to show"))
  }
}
