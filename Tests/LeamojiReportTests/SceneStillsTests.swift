import FoundationEssentials
import LeamojiAnalysis
import LeamojiCore
import LeamojiTestSupport
import LeamojiVideo
import Testing

/// The report's thumbnails are the sampler's frames: seeking to a time gives exactly the
/// picture `FrameSampler` gives for that second, without decoding the film up to it.
@Suite("Scene stills are the sampler's frames")
struct SceneStillsTests {
  @Test(
    "every second of each sample video: the still equals the sample, pixel for pixel",
    arguments: ["meadow-storm", "night-walk", "party-cellar"])
  func stillsEqualSamples(_ name: String) throws {
    let video = Repository.sampleVideos.appendingPathComponent("\(name).mp4").path
    let size = PixelSize(width: 64, height: 36)
    let sampler = try FrameSampler(path: video, interval: 1, size: size)
    var samples: [SampledFrame] = []
    while let sample = try sampler.next() { samples.append(sample) }
    #expect(samples.count >= 24)
    // Out of order on purpose: each still is found by its own seek.
    let seconds = samples.map(\.time).reversed().map { $0 }
    let stills = try SceneStills.images(video: video, seconds: seconds, width: 64, size: size)
    #expect(stills.count == samples.count)
    for (second, still) in zip(seconds, stills) {
      let sample = samples[Int(second)]
      #expect(still.pixels == sample.image.pixels, "\(name) at \(second) s")
    }
  }

  @Test("a JPEG still is made for each time before the end, none after it")
  func jpegs() throws {
    let video = Repository.sampleVideos.appendingPathComponent("night-walk.mp4").path
    let jpegs = try SceneStills.jpegs(video: video, seconds: [0, 6, 14, 500], width: 160)
    #expect(jpegs.count == 3)
    for jpeg in jpegs { #expect(jpeg.starts(with: [0xFF, 0xD8, 0xFF])) }
  }
}
