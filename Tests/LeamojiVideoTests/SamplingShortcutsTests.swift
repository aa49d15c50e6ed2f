import Foundation
import LeamojiCore
import LeamojiVideo
import Testing

/// Proof of equivalence for decoding only what the samples need: for every fixture and for
/// random intervals, the sampler with its shortcuts returns byte-identical RGB images and the
/// same presentation times as the sampler that decodes every frame.
@Suite("Decoding only what the samples need")
struct SamplingShortcutsTests {
  static let size = PixelSize(width: 64, height: 64)

  /// Every fixture kind the issue names: H.264 with and without B-frames and pyramids, open
  /// GOP, MPEG-TS, VFR with holds, an edit-list cut, VP9, MPEG-4 Part 2 in AVI, MJPEG, rotated;
  /// plus HEVC, VP8, offset starts, short GOPs (damaged files: below).
  static let fixtures: [Fixture] = [
    .h264At25, .h264NoBFrames, .bFrames, .h264Pyramid, .h264OpenGOP, .h264TS, .mpeg2TS,
    .variableRateMKV, .editListCut, .vp9WebM, .mpeg4AVI, .mjpegMOV, .rotatedCW90, .shortGOP,
    .hevcMKV, .hevcClosedGOP, .vp8AltRef, .offsetStartMKV, .noEditList, .videoEndsBeforeAudio,
    .truncatedMKV, .h264At60,
  ]

  /// 1 s, a tie-prone exact fraction, and three random intervals per fixture (seeded).
  static func intervals(for fixture: Fixture) -> [Double] {
    var generator = SplitMix64(seed: 0x5A_3B1E + UInt64(fixtures.firstIndex(of: fixture) ?? 0))
    let random = (0..<3).map { _ in
      (Double.random(in: 0.04...3.5, using: &generator) * 1000).rounded() / 1000
    }
    return [1, 0.4] + random
  }

  @Test("shortcuts give the same samples as decoding every frame", arguments: fixtures)
  func sameSamples(_ fixture: Fixture) throws {
    let path = try fixture.video.path
    for interval in Self.intervals(for: fixture) {
      try Self.compare(path: path, interval: interval, label: fixture.rawValue)
    }
  }

  /// One decoder thread: with frame threads FFmpeg conceals damage differently from run to run
  /// (decoding every frame twice gives different pictures), so only one thread makes the
  /// comparison meaningful, and then it is exact, damage count included.
  @Test("damaged files: the same samples and damage count as decoding every frame")
  func damagedFiles() throws {
    for (fixture, fractions) in [
      (Fixture.h264Pyramid, [0.3, 0.55]), (.h264TS, [0.35, 0.5, 0.7]), (.h264NoBFrames, [0.6]),
    ] {
      let path = try Self.damagedCopy(of: fixture.video.path, at: fractions)
      for interval in [1, 0.4, 2.5] {
        try Self.compare(
          path: path, interval: interval, label: "damaged \(fixture.rawValue)", threads: 1)
      }
    }
  }

  @Test(
    "closed-GOP H.264 and HEVC: frames are skipped and decoding jumps between key frames",
    arguments: [Fixture.h264Pyramid, .h264NoBFrames, .h264TS, .hevcClosedGOP])
  func shortcutsAreTaken(_ fixture: Fixture) throws {
    let path = try fixture.video.path
    let fast = try FrameSampler(path: path, interval: 1, size: Self.size)
    while try fast.next() != nil {}
    let all = try FrameSampler(path: path, interval: 1, size: Self.size, decodeEverything: true)
    while try all.next() != nil {}
    let summary = fast.decoding
    #expect(summary.fallbackReason == nil, "\(fixture): \(summary.description)")
    #expect(summary.restarts > 0, "\(fixture): \(summary.description)")
    #expect(summary.framesDecoded * 10 < all.decodedFrameCount * 7, "\(fixture): \(summary)")
    #expect(all.decoding.fallbackReason == "every frame was asked for")
    #expect(all.decoding.packetsSkipped == 0)
  }

  @Test(
    "the expected sample count is the number of samples a clean file gives",
    arguments: [0.5, 1, 2.5, 7])
  func expectedSampleCount(interval: Double) throws {
    let sampler = try FrameSampler(
      path: try Fixture.h264Pyramid.video.path, interval: interval, size: Self.size)
    var count = 0
    while try sampler.next() != nil { count += 1 }
    #expect(count > 0 && sampler.expectedSampleCount == count, "every \(interval) s")
  }

  @Test("H.264 with B-frames and one long GOP: disposable frames are left out")
  func disposableFramesSkipped() throws {
    let path = try Fixture.bFrames.video.path
    let fast = try FrameSampler(path: path, interval: 1, size: Self.size)
    while try fast.next() != nil {}
    #expect(fast.decoding.fallbackReason == nil)
    #expect(fast.decoding.packetsSkipped > 20, "\(fast.decoding.description)")
  }

  @Test(
    "what cannot be decided safely falls back to decoding everything, and says why",
    arguments: [Fixture.mpeg4AVI, .mpeg2TS, .elementaryH264])
  func fallsBack(_ fixture: Fixture) throws {
    let sampler = try FrameSampler(path: fixture.video.path, interval: 2, size: Self.size)
    while try sampler.next() != nil {}
    let summary = sampler.decoding
    #expect(summary.fallbackReason != nil, "\(fixture): \(summary.description)")
    #expect(summary.packetsSkipped == 0)
    #expect(summary.description.hasPrefix("decoded every frame ("))
  }

  @Test(
    "playback seeks land on the same frame, with the same picture, as decoding every frame",
    arguments: [Fixture.bFrames, .h264At25, .h264Pyramid, .h264TS, .variableRateMKV, .editListCut])
  func seeksMatch(_ fixture: Fixture) throws {
    let path = try fixture.video.path
    let fast = try VideoPlayback(path: path)
    let all = try VideoPlayback(path: path, decodeEverything: true)
    var generator = SplitMix64(seed: 0x5EE_C0DE)
    let duration = fast.info.duration ?? 5
    var targets = (0..<12).map { _ in Double.random(in: 0...duration, using: &generator) }
    targets += [0, 1, 2.5, duration]
    for target in targets {
      let got = fast.seek(to: target)
      let want = all.seek(to: target)
      #expect(got == want, "\(fixture) seek to \(target): \(String(describing: got))")
      guard want != nil else { continue }
      let same = try fast.image(size: Self.size) == all.image(size: Self.size)
      #expect(same, "\(fixture) seek to \(target): the pictures differ")
      // Playing on after the seek shows the same frames.
      for _ in 0..<3 {
        let next = fast.advance()
        #expect(next == all.advance(), "\(fixture) after seeking to \(target)")
        if next == nil { break }
        let sameNext = try fast.image(size: Self.size) == all.image(size: Self.size)
        #expect(sameNext, "\(fixture) playing on from \(target): the pictures differ")
      }
    }
    // (MPEG-TS seeks land on a key frame FFmpeg finds by reading; x264's two B-frames there sit
    // next to the targets.)
    if fixture != .h264TS {
      #expect(fast.decodedFrameCount < all.decodedFrameCount, "\(fixture): nothing left out")
    }
  }

  /// Both samplers to the end; images, times and indices must match exactly.
  static func compare(
    path: String, interval: Double, label: String, threads: Int? = nil
  ) throws {
    let fast = try FrameSampler(
      path: path, interval: interval, size: size, previewWidth: 40, decoderThreads: threads)
    let all = try FrameSampler(
      path: path, interval: interval, size: size, previewWidth: 40, decodeEverything: true,
      decoderThreads: threads)
    let at = "\(label) at interval \(interval)"
    var count = 0
    while true {
      let expected = try all.next()
      let got = try fast.next()
      guard let expected else {
        #expect(got == nil, "\(at): the fast path has a sample past the end")
        break
      }
      guard let got else {
        Issue.record("\(at): the fast path ends before sample \(expected.index)")
        break
      }
      let sample = "\(at) k=\(expected.index)"
      #expect(got.index == expected.index && got.time == expected.time, "\(sample): index, time")
      #expect(
        got.presentationTime == expected.presentationTime,
        "\(sample): pts \(got.presentationTime), decoding everything: \(expected.presentationTime)")
      let sameImage = got.image == expected.image
      let samePreview = got.preview == expected.preview
      #expect(sameImage, "\(sample): the RGB images differ (\(fast.decoding.description))")
      #expect(samePreview, "\(sample): the previews differ")
      count += 1
      if count > 2000 { break }
    }
    #expect(count > 0, "\(at): no samples")
    // With frame threads FFmpeg's own count of damaged pictures varies by one or two from run to
    // run of the same file, shortcuts or not; with one thread it is exact.
    let sameDamage =
      threads == 1
      ? fast.corruptPacketCount == all.corruptPacketCount
      : (fast.corruptPacketCount > 0) == (all.corruptPacketCount > 0)
    #expect(
      sameDamage,
      "\(at): damaged packets \(fast.corruptPacketCount), decoding everything: \(all.corruptPacketCount)"
    )
  }

  /// A copy of `path` with 500 random bytes at each of `fractions` of the file.
  static func damagedCopy(of path: String, at fractions: [Double]) throws -> String {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    var generator = SplitMix64(seed: 0xDA_3A6E)
    for fraction in fractions {
      let start = Int(Double(bytes.count) * fraction)
      for i in start..<min(bytes.count, start + 500) {
        bytes[i] = UInt8.random(in: 0...255, using: &generator)
      }
    }
    let url = FixtureStore.shared.scratchURL("damaged-\((path as NSString).lastPathComponent)")
    try Data(bytes).write(to: url)
    return url.path
  }
}
