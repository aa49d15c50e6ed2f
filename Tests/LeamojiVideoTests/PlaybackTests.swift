import LeamojiCore
import LeamojiVideo
import Testing

@Suite("VideoPlayback")
struct PlaybackTests {
  static let size = PixelSize(width: 64, height: 64)

  @Test("advance yields every frame in presentation order", arguments: [Fixture.h264At25, .bFrames, .variableRateMKV])
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

  @Test("a seek shows the frame on screen at the new time, in any order", arguments: [Fixture.h264At25, .bFrames, .variableRateMKV, .shortGOP])
  func accurateSeek(_ fixture: Fixture) throws {
    let video = try fixture.video
    let targets = video.probe.expectedSamples(interval: .exact(0.7))
    try #require(targets.count >= 4)
    let playback = try VideoPlayback(path: video.path)
    // Backwards, forwards, and from the middle: seeking must not depend on where we were.
    let order = targets.reversed() + targets.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    for want in order {
      let time = try #require(playback.seek(to: want.time), "seek to \(want.time)")
      #expect(abs(time - want.presentationTime) < 1e-6, "\(fixture.rawValue) t=\(want.time): at \(time)")
      let index = FrameIndexPattern.frameIndex(in: try playback.image(size: Self.size))
      #expect(index == video.framesOnScreen[want.frameNumber].index, "\(fixture.rawValue) t=\(want.time)")
    }
    // After a seek, playing on continues with the following frame.
    let start = try #require(playback.seek(to: targets[1].time))
    let next = try #require(playback.advance())
    #expect(next > start)
  }
}
