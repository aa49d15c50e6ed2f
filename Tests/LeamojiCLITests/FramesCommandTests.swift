import Foundation
import LeamojiTestSupport
import Testing

@Suite("leamoji frames")
struct FramesCommandTests {
  @Test("writes one PNG per second at the display size, named by second")
  func writesOnePNGPerSecond() throws {
    let folder = try ScratchFolder.url("frames")
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("clip.mp4")
    try FFmpegFixtures.makeVideo(at: video, seconds: 5, size: "160x90")
    let out = folder.appendingPathComponent("frames")

    let result = try CLI.leamoji(["frames", video.path, "--out", out.path])
    #expect(result.status == 0, "\(result.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    #expect(names == ["000000.png", "000001.png", "000002.png", "000003.png", "000004.png"])
    let (width, height) = try FFmpegFixtures.pngSize(out.appendingPathComponent("000002.png"))
    #expect(width == 160 && height == 90)
    #expect(result.stdout.contains("Wrote 5 frames"))
    #expect(result.stderr.isEmpty, "no progress bar without a terminal")
  }

  @Test("--size and --interval choose the PNG size and the seconds sampled")
  func sizeAndInterval() throws {
    let folder = try ScratchFolder.url("frames")
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("clip.mp4")
    try FFmpegFixtures.makeVideo(at: video, seconds: 5)

    let every2 = folder.appendingPathComponent("every2")
    var result = try CLI.leamoji([
      "frames", video.path, "--out", every2.path, "--interval", "2", "--size", "64x48",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: every2.path).sorted()
        == ["000000.png", "000002.png", "000004.png"])
    let (width, height) = try FFmpegFixtures.pngSize(every2.appendingPathComponent("000004.png"))
    #expect(width == 64 && height == 48)

    let half = folder.appendingPathComponent("half")
    result = try CLI.leamoji(["frames", video.path, "--out", half.path, "--interval", "0.5"])
    #expect(result.status == 0, "\(result.stderr)")
    let names = try FileManager.default.contentsOfDirectory(atPath: half.path).sorted()
    #expect(names.count == 10)
    #expect(names.prefix(3) == ["000000.000.png", "000000.500.png", "000001.000.png"])
  }

  @Test("existing frame files are never overwritten without --overwrite")
  func refusesToOverwrite() throws {
    let folder = try ScratchFolder.url("frames")
    defer { try? FileManager.default.removeItem(at: folder) }
    let video = folder.appendingPathComponent("clip.mp4")
    try FFmpegFixtures.makeVideo(at: video, seconds: 2)
    let out = folder.appendingPathComponent("frames")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let precious = out.appendingPathComponent("000001.png")
    try Data("my own picture".utf8).write(to: precious)

    let refused = try CLI.leamoji(["frames", video.path, "--out", out.path])
    #expect(refused.status == 73)
    #expect(refused.stderrLines.count == 1)
    #expect(refused.stderr.contains("000001.png"))
    #expect(try Data(contentsOf: precious) == Data("my own picture".utf8))

    let forced = try CLI.leamoji(["frames", video.path, "--out", out.path, "--overwrite"])
    #expect(forced.status == 0, "\(forced.stderr)")
    #expect(try FFmpegFixtures.pngSize(precious) == (160, 90))
  }

  @Test("bad inputs: one line on stderr naming the file, documented exit status, nothing written")
  func badInputs() throws {
    let folder = try ScratchFolder.url("bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("notes.mp4")
    try Data("just some text\n".utf8).write(to: text)
    let empty = folder.appendingPathComponent("empty.mp4")
    try Data().write(to: empty)
    let audio = folder.appendingPathComponent("tone.m4a")
    try FFmpegFixtures.run(["-f", "lavfi", "-i", "sine=duration=1", audio.path])
    let cases: [(path: String, status: Int32, words: String)] = [
      (folder.appendingPathComponent("missing.mp4").path, 66, "no such file"),
      (folder.path, 66, "is a directory"),
      (text.path, 65, "not a video"),
      (empty.path, 65, "not a video"),
      (audio.path, 65, "no video stream"),
    ]
    for item in cases {
      let out = folder.appendingPathComponent("out-\(UUID().uuidString)")
      let result = try CLI.leamoji(["frames", item.path, "--out", out.path])
      #expect(result.status == item.status, "\(item.path): \(result.stderr)")
      #expect(!result.signalled)
      #expect(result.stderrLines.count == 1, "\(result.stderr)")
      #expect(
        result.stderr.contains(item.path) && result.stderr.contains(item.words), "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out.path), "no output folder for a bad input")
    }
  }

  @Test("usage errors exit 64 and --help shows examples")
  func usage() throws {
    let bad = try CLI.leamoji(["frames", "x.mp4", "--out", "o", "--interval", "-1"])
    #expect(bad.status == 64)
    let size = try CLI.leamoji(["frames", "x.mp4", "--out", "o", "--size", "big"])
    #expect(size.status == 64)
    let help = try CLI.leamoji(["frames", "--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("Examples:") && help.stdout.contains("--interval"))
  }
}
