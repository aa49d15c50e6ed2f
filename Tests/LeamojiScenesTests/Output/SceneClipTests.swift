import LeamojiCore
import Testing

@testable import LeamojiScenes

@Suite("Scene clips")
struct SceneClipTests {
  static let size = PixelSize(width: 64, height: 36)
  static let clip = SceneClip(
    script: [(.happy, 2), (.scary, 3), (.neutral, 1)], seed: 77, size: size, fps: 10)

  @Test("frame count is fps x total seconds and segments start where the script says")
  func frameCount() {
    #expect(Self.clip.frameCount == 60)
    #expect(Self.clip.duration == 6)
    #expect(Self.clip.segmentStarts == [0, 20, 50, 60])
    #expect(Self.clip.mood(atFrame: 19) == .happy)
    #expect(Self.clip.mood(atFrame: 20) == .scary)
    #expect(Self.clip.mood(atFrame: 59) == .neutral)
    let fractional = SceneClip(
      script: [SceneClip.Segment(.neutral, seconds: 1.5), .init(.happy, seconds: 0.7)], seed: 1,
      size: Self.size)
    #expect(fractional.frameCount == 55)  // 2.2 s at 25 fps
    #expect(fractional.labelsPerSecond == [.neutral, .neutral, .happy])  // at t = 0, 1, 2 s
  }

  @Test("labels per second follow the script")
  func labels() {
    #expect(Self.clip.labelsPerSecond == [.happy, .happy, .scary, .scary, .scary, .neutral])
    let long = SceneClip(script: [(.scary, 4), (.happy, 3)], seed: 2, size: Self.size, fps: 25)
    #expect(long.labelsPerSecond == [.scary, .scary, .scary, .scary, .happy, .happy, .happy])
  }

  @Test("frames are reproducible and have the clip's size")
  func reproducible() {
    let again = SceneClip(
      script: [(.happy, 2), (.scary, 3), (.neutral, 1)], seed: 77, size: Self.size, fps: 10)
    for i in [0, 13, 20, 49, 59] {
      let frame = Self.clip.frame(at: i)
      #expect(frame == again.frame(at: i))
      #expect(frame.size == Self.size)
    }
  }

  @Test("frames are pinned by digest: shots, camera moves, motion and grain stay bit for bit")
  func pinnedFrames() {
    let clip = SceneClip(
      script: [(.happy, 2), (.scary, 3), (.neutral, 1)], seed: 77,
      size: PixelSize(width: 96, height: 54), fps: 10)
    var bytes: [UInt8] = []
    for i in [0, 7, 19, 20, 33, 49, 50, 59] { bytes += clip.frame(at: i).pixels }
    #expect(SHA256.hex(bytes) == "8ac082fba01143316170b70feca9b55bf6175f04a9371c553a0032d3b17faf16")
  }

  @Test("consecutive frames within a shot are similar but not frozen")
  func gentleMotion() {
    for start in [0, 25, 50] {
      let a = Self.clip.frame(at: start)
      let b = Self.clip.frame(at: start + 1)
      let mad = ImageMetrics.meanAbsoluteDifference(a, b)
      #expect(mad < 12, "frames \(start), \(start + 1): \(mad)")
    }
    // Over a whole shot the camera and the elements really move.
    let first = Self.clip.frame(at: 0)
    let last = Self.clip.frame(at: 19)
    #expect(first != last)
  }

  @Test("a cut between shots changes the image a lot")
  func hardCut() {
    let cuts = [(19, 20), (49, 50)]
    for (a, b) in cuts {
      let before = Self.clip.frame(at: a)
      let after = Self.clip.frame(at: b)
      let within = ImageMetrics.meanAbsoluteDifference(Self.clip.frame(at: a - 1), before)
      let across = ImageMetrics.meanAbsoluteDifference(before, after)
      #expect(across > 30, "cut \(a)->\(b): \(across)")
      #expect(across > 4 * within)
    }
    // Two shots of the same mood are different scenes too.
    let same = SceneClip(script: [(.neutral, 1), (.neutral, 1)], seed: 3, size: Self.size, fps: 10)
    #expect(ImageMetrics.meanAbsoluteDifference(same.frame(at: 9), same.frame(at: 10)) > 10)
  }
}
