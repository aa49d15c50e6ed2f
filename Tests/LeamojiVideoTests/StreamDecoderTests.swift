import Foundation
import LeamojiCore
import LeamojiVideo
import Testing

/// docs/frame-sampling.md, "Damage": corrupt packets are skipped and counted, and sampling
/// goes on.
@Suite("StreamDecoder: corrupt packets")
struct StreamDecoderTests {
  /// 8 s of H.264 at 25 fps with a key frame every second.
  static let recipe = Fixture.Recipe(
    frameCount: 200, rate: "25",
    output: Fixture.x264 + ["-g", "25", "-x264-params", "scenecut=0"])

  /// Encodes the clean video as `name`, then writes a copy with `length` garbage bytes at each of
  /// `fractions` of the file. Returns (clean, damaged).
  static func makeDamaged(_ name: String, length: Int, at fractions: [Double]) throws -> (
    clean: URL, damaged: URL
  ) {
    let store = FixtureStore.shared
    let clean = store.scratchURL(name)
    try store.encode(recipe: recipe, to: clean)
    var bytes = [UInt8](try Data(contentsOf: clean))
    var generator = SplitMix64(seed: 0xBAD_F00D)
    for fraction in fractions {
      let start = Int(Double(bytes.count) * fraction)
      for i in start..<min(bytes.count, start + length) {
        bytes[i] = UInt8.random(in: 0...255, using: &generator)
      }
    }
    let damaged = store.scratchURL("damaged-\(name)")
    try Data(bytes).write(to: damaged)
    return (clean, damaged)
  }

  /// All samples, or the error that stopped the sampler, with its counters.
  static func sampleAll(_ path: String) throws -> (
    samples: [SampledFrame], error: MediaError?, corrupt: Int
  ) {
    let sampler = try FrameSampler(path: path, size: PixelSize(width: 64, height: 64))
    var samples: [SampledFrame] = []
    while samples.count < 50 {
      switch capture({ () throws(MediaError) in try sampler.next() }) {
      case .success(let sample?): samples.append(sample)
      case .success(nil): return (samples, nil, sampler.corruptPacketCount)
      case .failure(let error): return (samples, error, sampler.corruptPacketCount)
      }
    }
    return (samples, nil, sampler.corruptPacketCount)
  }

  @Test("MPEG-TS with garbage in the middle: samples to the end, counts corrupt packets")
  func damagedTransportStream() throws {
    let (clean, damaged) = try Self.makeDamaged(
      "counter.ts", length: 700, at: [0.3, 0.4, 0.5, 0.6, 0.7])
    // The damage is real: the demuxer flags packets as corrupt (ffmpeg CLI says so).
    let log = try ExternalTools.run(
      "ffmpeg", ["-v", "warning", "-i", damaged.path, "-f", "null", "-"],
      in: FixtureStore.shared.directory
    ).stderr
    #expect(log.contains("Packet corrupt"), "ffmpeg saw no corrupt packet:\n\(log)")

    let expected = try ProbedVideo.probe(clean, scratch: FixtureStore.shared.directory)
      .expectedSamples(interval: Fraction(1, 1))
    #expect(expected.map(\.frameNumber) == [0, 25, 50, 75, 100, 125, 150, 175])

    let result = try Self.sampleAll(damaged.path)
    #expect(result.error == nil, "the sampler stopped at a corrupt packet: \(result.error!)")
    #expect(result.samples.map(\.index) == Array(0..<8), "samples to the end, none invented")
    #expect(result.corrupt > 0, "corruptPacketCount must count the flagged packets")
    let shown = result.samples.map { FrameIndexPattern.frameIndex(in: $0.image) }
    let right = zip(shown, expected).filter { $0 == $1.frameNumber }.count
    #expect(right >= 6, "frames shown: \(shown)")
    #expect(shown.first == 0 && shown.last == 175, "before the damage and after resync: \(shown)")
  }

  @Test("MP4 with garbage inside the media data: no crash, no throw, samples to the end")
  func damagedMP4() throws {
    let (_, damaged) = try Self.makeDamaged("counter.mp4", length: 1500, at: [0.35, 0.6])
    let result = try Self.sampleAll(damaged.path)
    #expect(result.error == nil, "the sampler stopped: \(result.error!)")
    #expect(result.samples.map(\.index) == Array(0..<8))
    let shown = result.samples.map { FrameIndexPattern.frameIndex(in: $0.image) }
    #expect(shown.first == 0 && shown.last == 175, "frames shown: \(shown)")
  }

  @Test("a video whose frames are all garbage is corrupt, not an empty success")
  func nothingDecodable() throws {
    // Keep the container intact (moov at the front), destroy every byte of media data.
    let store = FixtureStore.shared
    let source = store.scratchURL("faststart.mp4")
    try store.encode(
      recipe: Fixture.Recipe(
        frameCount: 50, rate: "25", output: Fixture.x264 + ["-movflags", "+faststart"]),
      to: source)
    var bytes = [UInt8](try Data(contentsOf: source))
    let mdat = try #require(bytes.offset(of: "mdat"), "no mdat box")
    var generator = SplitMix64(seed: 7)
    for i in (mdat + 4)..<bytes.count { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
    let damaged = store.scratchURL("garbage-frames.mp4")
    try Data(bytes).write(to: damaged)

    let opened = capture { () throws(MediaError) in try FrameSampler(path: damaged.path) }
    switch opened {
    case .failure(let error):
      #expect(error == .notMedia(path: damaged.path) || isCorrupt(error, damaged.path), "\(error)")
    case .success:
      let result = try Self.sampleAll(damaged.path)
      let error = try #require(
        result.error, "garbage gave \(result.samples.count) samples and no error")
      #expect(isCorrupt(error, damaged.path), "\(error)")
    }
  }

  func isCorrupt(_ error: MediaError, _ path: String) -> Bool {
    if case .corrupt(path, _) = error { return true }
    return false
  }
}
