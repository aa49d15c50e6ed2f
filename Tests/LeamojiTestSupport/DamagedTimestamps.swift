import Foundation

/// Videos whose timestamps claim far more time than their frames fill, as fuzzing found them
/// (issue 37), and an honest slow slideshow to tell them from: made with the ffmpeg CLI (and one
/// byte patch) from a 12 s, 25 fps, 160x90 H.264 clip without B-frames (300 frames).
public enum DamagedTimestamps: String, CaseIterable, Sendable, CustomStringConvertible {
  /// MP4 whose last frame (at 11.96 s) lasts 6 hours: its packet's duration.
  case lastFrameHours = "last-frame-6h.mp4"
  /// Matroska whose timestamps jump by 70 days after frame 150 (at 5.96 s).
  case jumpToDay70 = "jump-day-70.mkv"
  /// MP4 whose frames are 100,000 s apart: 1/100000 frames per second, 347 days.
  case slowRate = "rate-1-in-100000.mp4"
  /// The clip with bytes of its MP4 header changed: the media time scale 1 instead of 12800
  /// and the edit list gone, so every frame lasts 512 s (42.7 h in all).
  case mutatedTimescale = "mutated-timescale.mp4"
  /// Honest: one picture every 20 s for 2 minutes (6 frames), sampled every second.
  case slideshow = "slideshow-20s.mp4"

  public var description: String { rawValue }

  /// Whether the timestamps are honest (the timeline must stay as it is).
  public var isHonest: Bool { self == .slideshow }

  /// The file, made once per test run (read it; copy it to change or rename it).
  public var url: URL {
    get throws { try Self.made.value(self) { try make() } }
  }

  private static let made = OncePerRun<DamagedTimestamps, URL>()
  private static let folder: Result<URL, any Error> = Result {
    try ScratchFolder.removedAtExit("damaged-timestamps")
  }

  /// The 12 s clip every damaged file starts from (MP4, or remuxed to Matroska).
  private static func clip(_ ext: String) throws -> URL {
    let mp4 = try FFmpegFixtures.video(seconds: 12, size: "160x90", extra: ["-bf", "0"])
    guard ext == "mkv" else { return mp4 }
    let url = try folder.get().appendingPathComponent("clip.mkv")
    if !FileManager.default.fileExists(atPath: url.path) {
      try FFmpegFixtures.run(["-i", mp4.path, "-c", "copy", url.path])
    }
    return url
  }

  private func make() throws -> URL {
    let url = try Self.folder.get().appendingPathComponent(rawValue)
    func rewrite(_ source: URL, filter: String) throws {
      try FFmpegFixtures.run(["-i", source.path, "-c", "copy", "-bsf:v", filter, url.path])
    }
    switch self {
    case .lastFrameHours:
      try rewrite(Self.clip("mp4"), filter: "setts=duration='if(eq(N,299),21600/TB,DURATION)'")
    case .jumpToDay70:
      try rewrite(Self.clip("mkv"), filter: "setts=ts='if(gte(N,150),TS+6048000/TB,TS)'")
    case .slowRate:
      try rewrite(Self.clip("mp4"), filter: "setts=ts=N*100000/TB:duration=100000/TB")
    case .mutatedTimescale:
      var bytes = [UInt8](try Data(contentsOf: Self.clip("mp4")))
      // mdhd (version 0): 4 bytes of version and flags, two dates, then the time scale.
      guard let mdhd = bytes.firstRange(of: Array("mdhd".utf8))?.lowerBound,
        let edts = bytes.firstRange(of: Array("edts".utf8))?.lowerBound
      else { throw HarnessError("the clip has no mdhd or edts box") }
      bytes.replaceSubrange(mdhd + 16..<mdhd + 20, with: [0, 0, 0, 1])
      bytes.replaceSubrange(edts..<edts + 4, with: Array("free".utf8))
      try Data(bytes).write(to: url)
    case .slideshow:
      try FFmpegFixtures.run([
        "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=1/20", "-t", "120", "-c:v", "libx264",
        "-pix_fmt", "yuv420p", url.path,
      ])
    }
    return url
  }
}
