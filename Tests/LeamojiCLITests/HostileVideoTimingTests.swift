import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a hostile input must lead to.
enum Outcome: Sendable, Equatable {
  /// The file is really usable: exit 0.
  case usable
  /// Refused with this exit status and one line on stderr naming the file.
  case refused(Int32)
}

/// A hostile video: how to make it, and what leamoji must do with it.
struct HostileVideo: Sendable, CustomTestStringConvertible {
  let name: String
  let outcome: Outcome
  /// Makes the file (or folder, FIFO, …) in `folder` and returns the path to pass to leamoji.
  let make: @Sendable (_ folder: URL, _ base: URL) throws -> String

  var testDescription: String { name }

  static func bytes(
    _ name: String, _ outcome: Outcome, _ content: @escaping @Sendable (_ base: Data) throws -> Data
  ) -> HostileVideo {
    HostileVideo(name: name, outcome: outcome) { folder, base in
      let url = folder.appendingPathComponent(name)
      try content(try Data(contentsOf: base)).write(to: url)
      return url.path
    }
  }

  /// The base clip (4 s, moov at the end as ffmpeg writes it) cut to `percent` of its bytes.
  static func truncated(_ percent: Int, faststart: Bool, _ outcome: Outcome) -> HostileVideo {
    HostileVideo(name: "truncated-\(percent)\(faststart ? "-faststart" : "").mp4", outcome: outcome)
    { folder, base in
      let source = faststart ? HostileVideoFixtures.faststartClip : base
      let data = try Data(contentsOf: source)
      let url = folder.appendingPathComponent(
        "truncated-\(percent)\(faststart ? "-faststart" : "").mp4")
      try data.prefix(data.count * percent / 100).write(to: url)
      return url.path
    }
  }

  /// The base MP4 with the 32-bit big-endian field `offset` bytes after the first `box` patched.
  static func patchedBox(_ name: String, box: String, fields: [(Int, UInt32)], _ outcome: Outcome)
    -> HostileVideo
  {
    bytes(name, outcome) { base in
      var data = [UInt8](base)
      guard let at = data.firstRange(of: Array(box.utf8))?.lowerBound else {
        throw HarnessError("no \(box) box")
      }
      for (offset, value) in fields {
        for k in 0..<4 {
          data[at + 4 + offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * k))
        }
      }
      return Data(data)
    }
  }

  static let all: [HostileVideo] = [
    bytes("empty.mp4", .refused(65)) { _ in Data() },
    bytes("text.mp4", .refused(65)) { _ in
      Data("This is a shopping list, not a film.\nMilk\nEggs\n".utf8)
    },
    bytes("random-bytes.mp4", .refused(65)) { _ in Data(pseudoRandomBytes(count: 200_000, seed: 6))
    },
    bytes("png-named.mp4", .usable) { _ in
      HandmadePNG.file(
        width: 2, height: 2,
        idat: HandmadePNG.storedZlib([0, 255, 0, 0, 0, 255, 0] + [0, 0, 0, 255, 9, 9, 9]))
    },
    bytes("elf-binary.mp4", .refused(65)) { _ in
      try Data(contentsOf: URL(fileURLWithPath: "/bin/sh").resolvingSymlinksInPath())
    },
    truncated(10, faststart: false, .refused(65)),
    truncated(50, faststart: false, .refused(65)),
    truncated(90, faststart: false, .refused(65)),
    truncated(10, faststart: true, .refused(65)),
    // With the index first, a cut file still holds its first seconds: analysed, with a warning.
    truncated(50, faststart: true, .usable),
    truncated(90, faststart: true, .usable),
    bytes("moov-missing.mp4", .refused(65)) { base in
      let bytes = [UInt8](base)
      guard let moov = bytes.firstRange(of: Array("moov".utf8))?.lowerBound else {
        throw HarnessError("no moov")
      }
      return Data(bytes[..<(moov - 4)])
    },
    HostileVideo(name: "audio-only.mp4", outcome: .refused(65)) { folder, _ in
      try HostileVideoFixtures.copy(
        HostileVideoFixtures.audioOnly, to: folder, as: "audio-only.mp4")
    },
    HostileVideo(name: "zero-video-frames.mkv", outcome: .refused(65)) { folder, _ in
      try HostileVideoFixtures.copy(
        HostileVideoFixtures.zeroFrames, to: folder, as: "zero-video-frames.mkv")
    },
    HostileVideo(name: "no-streams.mp4", outcome: .refused(65)) { folder, _ in
      try HostileVideoFixtures.copy(
        HostileVideoFixtures.noStreams, to: folder, as: "no-streams.mp4")
    },
    // Absurd dimensions: declared in a PNG header (the decoder would allocate 3.6 GB) …
    bytes("absurd-size-png.mp4", .refused(65)) { _ in
      HandmadePNG.file(width: 30_000, height: 30_000, idat: HandmadePNG.storedZlib([0, 1, 2, 3]))
    },
    bytes("absurd-size.y4m", .refused(65)) { _ in
      Data("YUV4MPEG2 W100000 H100000 F25:1 C420jpeg\nFRAME\nabcdefgh".utf8)
    },
    // … and in the MP4 sample description, while the stream itself is 96x54: the stream wins.
    patchedBox("absurd-size-in-stsd.mp4", box: "avc1", fields: [(24, 0xFFFF_FFFF)], .usable),
    // A header claiming 24.8 days for two frames: analysed as the two frames it has.
    HostileVideo(name: "huge-duration.mp4", outcome: .usable) { folder, _ in
      let url = folder.appendingPathComponent("huge-duration.mp4")
      var data = [UInt8](try Data(contentsOf: HostileVideoFixtures.twoFrames))
      for (box, offset) in [("mvhd", 16), ("tkhd", 20), ("mdhd", 16)] {
        guard let at = data.firstRange(of: Array(box.utf8))?.lowerBound else {
          throw HarnessError("no \(box)")
        }
        for k in 0..<4 { data[at + 4 + offset + k] = [0x7F, 0xFF, 0xFF, 0xFF][k] }
      }
      try Data(data).write(to: url)
      return url.path
    },
    HostileVideo(name: "a-directory.mp4", outcome: .refused(66)) { folder, _ in
      let url = folder.appendingPathComponent("a-directory.mp4")
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
      return url.path
    },
    HostileVideo(name: "missing.mp4", outcome: .refused(66)) { folder, _ in
      folder.appendingPathComponent("missing.mp4").path
    },
    HostileVideo(name: "fifo.mp4", outcome: .refused(66)) { folder, _ in
      let path = folder.appendingPathComponent("fifo.mp4").path
      guard mkfifo(path, 0o644) == 0 else { throw HarnessError("mkfifo failed") }
      return path
    },
    HostileVideo(name: "/dev/zero", outcome: .refused(66)) { _, _ in "/dev/zero" },
    HostileVideo(name: "spaces and non-ASCII", outcome: .usable) { folder, base in
      let sub = folder.appendingPathComponent("mes films à voir")
      try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
      let url = sub.appendingPathComponent("Été — la forêt (2024) 🎬.mp4")
      try FileManager.default.copyItem(at: base, to: url)
      return url.path
    },
  ]
}

/// Clips made once per run with the ffmpeg CLI.
enum HostileVideoFixtures {
  static let folder: Result<URL, HarnessError> = {
    do {
      let root = try ScratchFolder.url("hostile-fixtures")
      try FFmpegFixtures.makeVideo(
        at: root.appendingPathComponent("base.mp4"), seconds: 4, size: "96x54")
      try FFmpegFixtures.run([
        "-i", root.appendingPathComponent("base.mp4").path, "-c", "copy", "-movflags", "+faststart",
        root.appendingPathComponent("faststart.mp4").path,
      ])
      try FFmpegFixtures.run([
        "-f", "lavfi", "-i", "sine=duration=2", root.appendingPathComponent("audio.m4a").path,
      ])
      try FFmpegFixtures.run([
        "-f", "lavfi", "-i", "testsrc=size=64x64:rate=25", "-frames:v", "2", "-pix_fmt", "yuv420p",
        root.appendingPathComponent("two.mp4").path,
      ])
      // A video stream with no frame, next to 2 s of audio. The video is copied, not encoded:
      // ffmpeg 7 fails an encoder that never gets a frame ("Could not open encoder before EOF").
      try FFmpegFixtures.run([
        "-i", root.appendingPathComponent("base.mp4").path, "-f", "lavfi", "-i", "sine",
        "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-frames:v", "0", "-t", "2",
        root.appendingPathComponent("zero.mkv").path,
      ])
      try withoutTracks(
        root.appendingPathComponent("two.mp4"), to: root.appendingPathComponent("empty.mp4"))
      return .success(root)
    } catch {
      return .failure(HarnessError("\(error)"))
    }
  }()

  /// An MP4 whose `moov` lists no track: `source` with its `trak` boxes taken out. (ffmpeg 5.1
  /// wrote such a file for an output given no frame; ffmpeg 7 refuses to write one.)
  static func withoutTracks(_ source: URL, to url: URL) throws {
    let bytes = [UInt8](try Data(contentsOf: source))
    // Boxes as (start, size, type); sizes are 32-bit in files this small.
    func boxes(_ range: Range<Int>) throws -> [(start: Int, size: Int, type: String)] {
      var found: [(start: Int, size: Int, type: String)] = []
      var at = range.lowerBound
      while at + 8 <= range.upperBound {
        let size = bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        guard size >= 8, at + size <= range.upperBound else {
          throw HarnessError("\(source.lastPathComponent): box size \(size) at \(at)")
        }
        found.append((at, size, String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)))
        at += size
      }
      return found
    }
    var output: [UInt8] = []
    for box in try boxes(0..<bytes.count) {
      guard box.type == "moov" else {
        output += bytes[box.start..<box.start + box.size]
        continue
      }
      let kept = try boxes(box.start + 8..<box.start + box.size).filter { $0.type != "trak" }
        .flatMap { bytes[$0.start..<$0.start + $0.size] }
      let size = UInt32(8 + kept.count)
      output += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) } + Array("moov".utf8)
      output += kept
    }
    try Data(output).write(to: url)
  }

  static var base: URL {
    (try? folder.get())?.appendingPathComponent("base.mp4") ?? URL(fileURLWithPath: "/nonexistent")
  }
  static var faststartClip: URL {
    (try? folder.get())?.appendingPathComponent("faststart.mp4") ?? base
  }
  static var audioOnly: URL { (try? folder.get())?.appendingPathComponent("audio.m4a") ?? base }
  static var twoFrames: URL { (try? folder.get())?.appendingPathComponent("two.mp4") ?? base }
  static var zeroFrames: URL { (try? folder.get())?.appendingPathComponent("zero.mkv") ?? base }
  static var noStreams: URL { (try? folder.get())?.appendingPathComponent("empty.mp4") ?? base }

  static func copy(_ source: URL, to folder: URL, as name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: source, to: url)
    return url.path
  }
}

/// Checks shared by every hostile case: the exit status, exactly one stderr line that names the
/// file when refused, no crash, no hang.
func expectOutcome(_ run: ProcessResult, _ outcome: Outcome, file path: String, _ label: String) {
  #expect(!run.signalled, "\(label): crashed: \(run.stderr)")
  #expect(!run.timedOut, "\(label): did not finish in time")
  #expect(run.seconds < 10, "\(label): took \(run.seconds) s")
  switch outcome {
  case .usable:
    #expect(run.status == 0, "\(label): \(run.stderr)")
    // A usable but damaged file may warn, in one line that names it.
    #expect(
      run.stderrLines.allSatisfy { $0.hasPrefix("leamoji: warning: ") && $0.contains(path) },
      "\(label): \(run.stderr)")
  case .refused(let status):
    #expect(run.status == status, "\(label): exit \(run.status): \(run.stderr)")
    #expect(run.stderrLines.count == 1, "\(label): \(run.stderr)")
    #expect(
      run.stderrLines.first?.hasPrefix("leamoji: \(path): ") == true, "\(label): \(run.stderr)")
  }
}

@Suite("Hostile videos: a clear line, no crash, no hang, no user file changed")
struct HostileVideoTimingTests {
  /// An output folder holding a MovieData.json with one earlier entry and its poster, made once.
  static let template: Result<URL, HarnessError> = {
    do {
      let work = try ScratchFolder.url("hostile-template")
      let earlier = work.appendingPathComponent("earlier.mp4")
      try FileManager.default.copyItem(
        at: try HostileVideoFixtures.folder.get().appendingPathComponent("base.mp4"), to: earlier)
      let first = try CLI.leamoji([
        "analyze", earlier.path, "--output", work.appendingPathComponent("out/MovieData.json").path,
      ])
      guard first.status == 0 else {
        return .failure(HarnessError("setup analyze failed: \(first.stderr)"))
      }
      return .success(work.appendingPathComponent("out"))
    } catch {
      return .failure(HarnessError("\(error)"))
    }
  }()

  /// A new folder with a copy of the template output folder in `out/`.
  func workFolder() throws -> URL {
    let work = try ScratchFolder.url("hostile")
    try FileManager.default.copyItem(
      at: try Self.template.get(), to: work.appendingPathComponent("out"))
    return work
  }

  @Test("analyze", arguments: HostileVideo.all)
  func analyze(_ video: HostileVideo) throws {
    let work = try workFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    let path = try video.make(work, HostileVideoFixtures.base)
    let out = work.appendingPathComponent("out")
    let before = snapshot(of: out)
    let run = try CLI.leamoji(
      ["analyze", path, "--output", out.appendingPathComponent("MovieData.json").path, "--vtt"],
      timeout: hostileTimeout)
    expectOutcome(run, video.outcome, file: path, "analyze \(video.name)")
    let after = snapshot(of: out)
    switch video.outcome {
    case .refused:
      #expect(
        after.filter { $0.key != ".MovieData.json.lock" }
          == before.filter { $0.key != ".MovieData.json.lock" },
        "a refused video changes nothing in the output folder")
    case .usable:
      #expect(
        after["earlier.jpg"] == before["earlier.jpg"], "the other video's poster is untouched")
      let ids = try #require(movieIDs(in: out.appendingPathComponent("MovieData.json")))
      #expect(ids.count == 2 && ids.contains("earlier"), "\(ids)")
      #expect(!after.keys.contains { $0.hasSuffix(".tmp") })
      if video.name == "truncated-50-faststart.mp4" {
        #expect(
          run.stderr.contains("its pictures stop at 2 s of 4 s (cut short?)"), "\(run.stderr)")
      }
    }
  }

  @Test("frames", arguments: HostileVideo.all)
  func frames(_ video: HostileVideo) throws {
    let work = try ScratchFolder.url("hostile-frames")
    defer { try? FileManager.default.removeItem(at: work) }
    let path = try video.make(work, HostileVideoFixtures.base)
    let out = work.appendingPathComponent("frames")
    let run = try CLI.leamoji(["frames", path, "--out", out.path], timeout: hostileTimeout)
    expectOutcome(run, video.outcome, file: path, "frames \(video.name)")
    let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
    if case .refused = video.outcome {
      #expect(written.isEmpty, "a refused video leaves no frame files: \(written)")
    } else {
      #expect(!written.isEmpty && written.allSatisfy { $0.hasSuffix(".png") }, "\(written)")
    }
  }

  @Test("a header declaring 24.8 days for two frames is analysed as the two frames it has")
  func hugeDeclaredDuration() throws {
    let work = try ScratchFolder.url("hostile-duration")
    defer { try? FileManager.default.removeItem(at: work) }
    let video = try #require(HostileVideo.all.first { $0.name == "huge-duration.mp4" })
    let path = try video.make(work, HostileVideoFixtures.base)
    let run = try CLI.leamoji(
      ["analyze", path, "--output", work.appendingPathComponent("MovieData.json").path, "--json"],
      timeout: hostileTimeout)
    #expect(run.status == 0, "\(run.stderr)")
    let entry = try #require(
      try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    let duration = try #require(entry["duration"] as? Double)
    #expect(duration < 1, "duration \(duration) s")
  }

  @Test("a picture larger than the limit is refused by its declared size, not decoded")
  func tooLargeIsNamed() throws {
    let work = try ScratchFolder.url("hostile-large")
    defer { try? FileManager.default.removeItem(at: work) }
    let url = work.appendingPathComponent("wide.mp4")
    try FFmpegFixtures.run([
      "-f", "lavfi", "-i", "color=size=16400x16:rate=1", "-frames:v", "1", "-c:v",
      "ffv1", "-f", "matroska", url.path,
    ])
    let run = try CLI.leamoji(
      ["analyze", url.path, "--output", work.appendingPathComponent("MovieData.json").path],
      timeout: hostileTimeout)
    expectOutcome(run, .refused(65), file: url.path, "wide video")
    #expect(
      run.stderr.contains("16400x16") && run.stderr.contains("larger than leamoji reads"),
      "\(run.stderr)")
  }
}
