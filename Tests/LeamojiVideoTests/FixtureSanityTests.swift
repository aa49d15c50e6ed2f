import Foundation
import LeamojiCore
import Testing

/// The fixtures are what the contract tests claim they are. These tests use only the ffmpeg CLI,
/// ffprobe and the pattern code, never LeamojiVideo: when one fails, the test setup is wrong, not
/// the sampler.
@Suite("Fixtures and frame-number pattern")
struct FixtureSanityTests {
  @Test("the pattern round-trips at any size and rejects damage")
  func patternRoundTrip() {
    for index in [0, 1, 2, 25, 77, 300, 1000, FrameIndexPattern.maxIndex] {
      for (w, h) in [(160, 120), (120, 160), (64, 64), (16, 12), (213, 120)] {
        let image = FrameIndexPattern.render(index: index, width: w, height: h)
        #expect(FrameIndexPattern.frameIndex(in: image) == index, "\(index) at \(w)x\(h)")
      }
    }
    // Every single-cell error is caught by the check bits.
    for index in [0, 5, 999, 4000] {
      for cell in 0..<16 {
        var cells = FrameIndexPattern.cells(index: index)
        cells[cell].toggle()
        let image = FrameIndexPattern.render(cells: cells, width: 64, height: 64)
        #expect(FrameIndexPattern.frameIndex(in: image) == nil, "index \(index), cell \(cell)")
      }
    }
    // A grey picture is not a number.
    #expect(
      FrameIndexPattern.frameIndex(in: RGBImage(width: 64, height: 64, fill: RGB(128, 128, 128)))
        == nil)
  }

  @Test("stored frames are the upright picture turned clockwise")
  func storedFramesAreRotatedPictures() {
    for turns in 0...3 {
      let upright = PixelSize(width: 120, height: 160)
      let picture = FrameIndexPattern.render(index: 1234, width: 120, height: 160)
      let stored = FrameIndexPattern.storedFrameBytes(
        index: 1234, upright: upright, storedQuarterTurns: turns)
      #expect(stored == picture.rotated(quarterTurns: turns).pixels, "turns \(turns)")
    }
  }

  @Test(
    "every fixture decodes (ffmpeg CLI) to frames 0, 1, 2, ... in output order",
    arguments: Fixture.allCases)
  func framesAreNumberedInOrder(_ fixture: Fixture) throws {
    let video = try fixture.video
    let recipe = fixture.recipe
    let frames = video.probe.frames.count
    #expect(video.indicesOnScreen.count == frames, "ffmpeg vs ffprobe frames")
    let first = try #require(video.indicesOnScreen.first ?? nil, "first frame shows no number")
    #expect(recipe.firstShownIndex.contains(first), "first frame shows \(first)")
    if case .truncate = recipe.then {
      #expect(frames > 10 && frames < recipe.frameCount, "truncated: \(frames) frames")
    } else {
      #expect(frames == recipe.frameCount - first, "ffprobe frame count")
    }
    #expect(video.indicesOnScreen == (first..<first + frames).map { Optional($0) })
    // Output order is presentation order.
    let timestamps = video.probe.frames.map(\.timestamp)
    #expect(timestamps == timestamps.sorted() && Set(timestamps).count == timestamps.count)
  }

  /// ffmpeg 7.1 accepts the `rotate` tag that 5.1 writes and silently writes nothing: making a
  /// rotated fixture fails (FixtureStore checks it) with the ffmpeg version and the option used.
  @Test(
    "rotated fixtures carry the display rotation asked for",
    arguments: Fixture.allCases.filter {
      if case .displayRotation = $0.recipe.then { return true } else { return false }
    })
  func rotatedFixturesCarryTheirRotation(_ fixture: Fixture) throws {
    let option = try FixtureStore.shared.installedRotationOption
    let video = try fixture.video
    guard case .displayRotation(let degrees) = fixture.recipe.then else { return }
    let expected = (degrees % 360 + 540) % 360 - 180
    let written = try #require(video.probe.displayMatrixRotation, "no display rotation (\(option))")
    #expect(written == expected || abs(written) == 180 && abs(expected) == 180, "\(option)")
    // Shown upright: the display rotation undoes the turns the picture was stored with.
    let turns = fixture.recipe.storedQuarterTurns
    #expect(video.probe.uprightQuarterTurns == ((-turns) % 4 + 4) % 4, "\(option)")
    #expect(video.framesOnScreen.first?.index == 0, "the ffmpeg CLI reads frame 0 upright")
  }

  @Test("fixture properties: B-frames, GOP, start time, VFR, rotation, SAR, lengths")
  func fixtureProperties() throws {
    let bFrames = try Fixture.bFrames.video.probe
    #expect(bFrames.frames.filter { $0.pictureType == "B" }.count >= 50, "B-frames present")

    let shortGOP = try Fixture.shortGOP.video.probe
    let keyFrames = shortGOP.frames.indices.filter { shortGOP.frames[$0].isKeyFrame }
    #expect(keyFrames == Array(stride(from: 0, to: shortGOP.frames.count, by: 3)), "GOP of 3")

    let offset = try Fixture.offsetStartMKV.video.probe
    #expect(abs((offset.startTime ?? 0) - 3.3) < 1e-6)
    let transport = try Fixture.mpeg2TS.video.probe
    #expect((transport.startTime ?? 0) > 0.5, "MPEG-TS starts late")
    #expect(transport.frames.contains { $0.pictureType == "B" })

    let vfr = try Fixture.variableRateMKV.video.probe
    // Steps in ms, to the nearest 10 (0.12 s steps round to 119..121 ms in a 1/1000 time base).
    let steps = zip(vfr.frames.dropFirst(), vfr.frames).map {
      ($0.timestamp - $1.timestamp + 5) / 10 * 10
    }
    #expect(Set(steps) == [100, 750, 1350, 20, 120], "frame steps (ms): \(Set(steps))")

    let noEditList = try Fixture.noEditList.video.probe
    #expect((noEditList.startTime ?? 0) > 0.03, "B-frame delay visible as start time")
    let lateVideo = try Fixture.videoStartsAfterAudio.video.probe
    #expect(
      (lateVideo.startTime ?? 0) - (lateVideo.formatStartTime ?? 0) > 0.4, "video starts late")

    let endsEarly = try Fixture.videoEndsBeforeAudio.video.probe
    #expect(abs((endsEarly.duration ?? 0) - 4) < 0.01)
    #expect(abs((endsEarly.formatDuration ?? 0) - 7) < 0.05)

    #expect(try Fixture.rotatedCW90.video.probe.displayMatrixRotation == -90)
    #expect(try Fixture.rotatedCW270.video.probe.displayMatrixRotation == 90)
    #expect(abs(try Fixture.rotated180.video.probe.displayMatrixRotation ?? 0) == 180)
    #expect(try Fixture.anamorphic.video.probe.sampleAspectRatio == Fraction(4, 3))

    #expect(try Fixture.h264NTSC.video.probe.timeBase == Fraction(1, 30000))
    #expect(try Fixture.vp9WebM.video.probe.codecName == "vp9")
    #expect(try Fixture.mpeg4AVI.video.probe.codecName == "mpeg4")
    #expect(try Fixture.mjpegMOV.video.probe.codecName == "mjpeg")
  }

  @Test("expectations: exact ties, ends and held frames")
  func expectationArithmetic() throws {
    // 25 fps in MP4 (time base 1/12800): frame 25 starts exactly at 1 s and is the one shown.
    let at25 = try Fixture.h264At25.video.probe.expectedSamples(interval: Fraction(1, 1))
    #expect(at25.map(\.frameNumber) == [0, 25, 50, 75, 100, 125, 150])
    // 30000/1001: frame 30 starts at 1.001 s, so 1 s still shows frame 29.
    let ntsc = try Fixture.h264NTSC.video.probe.expectedSamples(interval: Fraction(1, 1))
    #expect(ntsc.map(\.frameNumber) == [0, 29, 59, 89, 119, 149, 179])
    // 60 fps, 301 frames: the last frame starts exactly at 5 s.
    let at60 = try Fixture.h264At60.video.probe.expectedSamples(interval: Fraction(1, 1))
    #expect(at60.map(\.frameNumber) == [0, 60, 120, 180, 240, 300])
    let vfr = try Fixture.variableRateMKV.video.probe.expectedSamples(interval: Fraction(1, 1))
    #expect(vfr.map(\.frameNumber) == [0, 10, 11, 11, 36, 44, 52])
    let endsEarly = try Fixture.videoEndsBeforeAudio.video.probe
      .expectedSamples(interval: Fraction(1, 1))
    #expect(endsEarly.map(\.k) == [0, 1, 2, 3])
    let everyTwo = try Fixture.h264At25.video.probe.expectedSamples(interval: Fraction(2, 1))
    #expect(everyTwo.map(\.frameNumber) == [0, 50, 100, 150])
  }
}
