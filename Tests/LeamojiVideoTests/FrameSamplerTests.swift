import Foundation
import LeamojiCore
import LeamojiVideo
import Testing

/// docs/frame-sampling.md, checked against ffprobe's and the ffmpeg CLI's
/// view of each generated fixture: for every t_k = k * interval the sampler must return the frame
/// on screen at t_k, and nothing past the end of the stream.
@Suite("Frame sampling contract")
struct FrameSamplerTests {
  static let modelSize = PixelSize(width: 64, height: 64)

  /// Fixtures and intervals other than 1 s.
  static let otherIntervals: [(Fixture, Double)] = [
    (.h264At25, 0.5), (.h264At25, 2), (.h264NTSC, 0.5), (.variableRateMKV, 0.5),
    (.variableRateMKV, 2), (.offsetStartMKV, 2), (.mpeg2TS, 0.5), (.bFrames, 0.5),
    (.shortGOP, 3), (.h264At60, 0.25), (.editListCut, 0.5), (.y4m, 1.5), (.gif, 0.1),
    (.elementaryH264, 0.75), (.mpeg4AVI, 0.5),
    // 0.3 s is exactly 3/10 s: its multiples tie with 25 fps frame starts (0.6 s = frame 15).
    (.h264At25, 0.3), (.oneFrame, 0.5),
  ]

  @Test(
    "one sample per second shows the frame on screen at that second", arguments: Fixture.allCases)
  func samplesEverySecond(_ fixture: Fixture) throws {
    try checkSamples(of: fixture.video, interval: 1)
  }

  @Test("other intervals sample at k * interval", arguments: otherIntervals)
  func samplesAtOtherIntervals(_ fixture: Fixture, _ interval: Double) throws {
    try checkSamples(of: fixture.video, interval: interval)
  }

  /// Runs the sampler to its end and compares every sample with the independent expectation.
  func checkSamples(of video: FixtureVideo, interval: Double) throws {
    let expected = video.probe.expectedSamples(interval: .exact(interval))
    try #require(!expected.isEmpty, "no expected samples for \(video.fixture)")
    let sampler = try FrameSampler(path: video.path, interval: interval, size: Self.modelSize)
    #expect(sampler.outputSize == Self.modelSize)
    var samples: [SampledFrame] = []
    while let sample = try sampler.next() {
      samples.append(sample)
      if samples.count > expected.count + 10 { break }  // a runaway sampler, reported below
    }
    let label = "\(video.fixture.rawValue) at interval \(interval)"
    #expect(
      samples.map(\.index) == expected.map(\.k),
      "\(label): sample indices \(samples.map(\.index)), expected \(expected.map(\.k))")
    #expect(try sampler.next() == nil, "\(label): next() after the end must stay nil")
    for (sample, want) in zip(samples, expected) {
      let reference = video.framesOnScreen[want.frameNumber]
      let shown = FrameIndexPattern.frameIndex(in: sample.image)
      #expect(sample.image.size == Self.modelSize, "\(label) k=\(sample.index): image size")
      #expect(
        abs(sample.time - want.time) < 1e-9, "\(label) k=\(sample.index): time \(sample.time)")
      let at = "\(label) k=\(sample.index) t=\(want.time)"
      #expect(
        shown == reference.index,
        "\(at): sampler shows frame \(describe(shown)), on screen is \(describe(reference.index))")
      #expect(
        abs(sample.presentationTime - want.presentationTime) < 1e-6,
        "\(at): presentationTime \(sample.presentationTime), expected \(want.presentationTime)")
      // The whole picture, not only the number: orientation and colour levels as ffmpeg shows it.
      let difference = reference.largestLevelDifference(from: sample.image)
      #expect(difference <= 8, "\(label) k=\(sample.index): cell levels differ by \(difference)")
    }
    #expect(sampler.corruptPacketCount == 0, "\(label): no packet of this file is damaged")
    #expect(sampler.decodedFrameCount > 0, "\(label): decodedFrameCount")
  }

  @Test("default output size is the display size", arguments: Fixture.allCases)
  func defaultSizeIsDisplaySize(_ fixture: Fixture) throws {
    let video = try fixture.video
    let sampler = try FrameSampler(path: video.path)
    #expect(sampler.outputSize == sampler.info.displaySize)
    if fixture != .anamorphic {  // square pixels: the display size is the upright picture's
      #expect(sampler.info.displaySize == video.uprightSize)
    }
    let first = try #require(try sampler.next(), "\(fixture): no first sample")
    #expect(first.image.size == sampler.info.displaySize)
    #expect(first.index == 0 && first.time == 0)
    let want = try #require(video.probe.expectedSamples(interval: Fraction(1, 1)).first)
    #expect(
      FrameIndexPattern.frameIndex(in: first.image) == video.indicesOnScreen[want.frameNumber])
  }

  @Test("a one-frame video gives one sample")
  func oneFrame() throws {
    let video = try Fixture.oneFrame.video
    let sampler = try FrameSampler(path: video.path, size: Self.modelSize)
    let first = try #require(try sampler.next())
    #expect(first.index == 0 && first.time == 0)
    #expect(FrameIndexPattern.frameIndex(in: first.image) == 0)
    #expect(try sampler.next() == nil)
  }

  @Test("paths with spaces, emoji, colons and percent signs open")
  func unusualPaths() throws {
    let source = try Fixture.h264At25.video.path
    for name in ["holiday clip (1).mp4", "scène 😱 #2.mp4", "12:30 scary?.mp4", "100% fun.mp4"] {
      let url = FixtureStore.shared.scratchURL(name)
      try FileManager.default.copyItem(atPath: source, toPath: url.path)
      let sampler = try FrameSampler(path: url.path, size: Self.modelSize)
      #expect(sampler.info.path == url.path)
      #expect(
        FrameIndexPattern.frameIndex(in: try #require(try sampler.next()).image) == 0, "\(name)")
    }
  }

  @Test("the stream's own length bounds the samples, not the container's")
  func videoEndingBeforeAudio() throws {
    let video = try Fixture.videoEndsBeforeAudio.video
    // 100 frames at 25 fps = 4 s of video in a 7 s file: samples at 0, 1, 2, 3 only.
    let sampler = try FrameSampler(path: video.path, size: Self.modelSize)
    var samples: [SampledFrame] = []
    while let sample = try sampler.next(), samples.count < 20 { samples.append(sample) }
    #expect(samples.map(\.index) == [0, 1, 2, 3])
    #expect(samples.compactMap { FrameIndexPattern.frameIndex(in: $0.image) } == [0, 25, 50, 75])
  }

  @Test("a frame held for more than a second is sampled at every second it covers")
  func variableFrameRateHeldFrame() throws {
    let video = try Fixture.variableRateMKV.video
    // Frame 11 is on screen from 1.75 s to 3.1 s: the samples at 2 s and 3 s both show it.
    let sampler = try FrameSampler(path: video.path, size: Self.modelSize)
    var shown: [Int?] = []
    while let sample = try sampler.next(), shown.count < 20 {
      shown.append(FrameIndexPattern.frameIndex(in: sample.image))
    }
    #expect(shown.count >= 4)
    #expect(Array(shown.prefix(4)) == [0, 10, 11, 11])
  }

  @Test(
    "display rotation: info.rotation and upright samples",
    arguments: [(Fixture.rotatedCW90, 90), (.rotatedCW270, 270), (.rotated180, 180)])
  func rotation(_ fixture: Fixture, _ clockwiseDegrees: Int) throws {
    let video = try fixture.video
    #expect(video.probe.uprightQuarterTurns * 90 == clockwiseDegrees, "fixture's display matrix")
    let file = try VideoFile(path: video.path)
    #expect(file.info.rotation == clockwiseDegrees)
    #expect(file.info.codedSize == PixelSize(width: 160, height: 120))
    #expect(file.info.displaySize == video.uprightSize)
    // The first frame as the ffmpeg CLI shows it (it applies the rotation itself)...
    let reference = try FixtureStore.shared.firstFrameAsShown(video, size: video.uprightSize)
    // ...equals the sampler's, at full display size.
    let sampler = try FrameSampler(path: video.path)
    let first = try #require(try sampler.next())
    #expect(first.image.size == video.uprightSize)
    #expect(FrameIndexPattern.frameIndex(in: first.image) == 0)
    let difference = meanAbsoluteDifference(first.image, reference)
    #expect(difference < 4, "mean difference from ffmpeg's upright frame: \(difference)")
    // A requested size is the size of the upright output, whatever the stored orientation.
    for size in [PixelSize(width: 48, height: 64), PixelSize(width: 64, height: 40)] {
      let sized = try FrameSampler(path: video.path, size: size)
      #expect(sized.outputSize == size)
      let image = try #require(try sized.next()).image
      #expect(image.size == size)
      #expect(FrameIndexPattern.frameIndex(in: image) == 0, "upright at \(size)")
    }
  }

  @Test("previews are the same frames at a width with the display aspect, upright")
  func previews() throws {
    for fixture in [Fixture.h264At25, .rotatedCW90] {
      let video = try fixture.video
      let plain = try FrameSampler(path: video.path, size: PixelSize(width: 64, height: 64))
      let sampler = try FrameSampler(
        path: video.path, size: PixelSize(width: 64, height: 64), previewWidth: 90)
      let display = sampler.info.displaySize
      let size = try #require(sampler.previewSize)
      #expect(size.width == 90 && size.height % 2 == 0)
      #expect(abs(Double(size.height) - 90 * Double(display.height) / Double(display.width)) <= 2)
      while let sample = try sampler.next() {
        let preview = try #require(sample.preview)
        #expect(preview.size == size)
        let shrunk = try ImageCodec.resize(preview, to: PixelSize(width: 64, height: 64))
        let shown = FrameIndexPattern.frameIndex(in: sample.image)
        #expect(FrameIndexPattern.frameIndex(in: shrunk) == shown)
        #expect(try plain.next()?.image == sample.image, "asking for previews changes nothing else")
      }
    }
  }

  @Test("a PNG named .mp4 is a one-frame video: one sample at t = 0")
  func pngNamedMP4() throws {
    let store = FixtureStore.shared
    let url = store.scratchURL("still.mp4")
    let picture = FrameIndexPattern.render(index: 7, width: 96, height: 72)
    try ExternalTools.ffmpegFile(
      [
        "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "96x72", "-i", "-",
        "-frames:v", "1", "-c:v", "png", "-f", "image2", url.path,
      ],
      output: url, in: store.directory, stdin: Data(picture.pixels))
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
}

extension FixtureStore {
  /// The first frame of `video` as the ffmpeg CLI shows it (auto-rotated), at `size`.
  func firstFrameAsShown(_ video: FixtureVideo, size: PixelSize) throws -> RGBImage {
    let output = try ExternalTools.run(
      "ffmpeg",
      [
        "-v", "error", "-i", video.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24",
        "-",
      ], in: directory)
    guard output.stdout.count == size.width * size.height * 3 else {
      throw FixtureError.badOutput(
        "ffmpeg's first frame of \(video.path) has \(output.stdout.count) bytes, not \(size)")
    }
    return RGBImage(width: size.width, height: size.height, pixels: [UInt8](output.stdout))
  }
}
