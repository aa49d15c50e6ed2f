import Foundation
import LeamojiAnalysis
import LeamojiCore
import LeamojiTestSupport
import Testing

@Suite("FrameExport: a video's samples written as PNG files named by their second")
struct FrameExportTests {
  /// night-walk is 24 s long, 640x360 with square pixels.
  static let video = Repository.sampleVideo("night-walk")
  static let small = PixelSize(width: 64, height: 36)

  /// Exports `video` into `folder`, returning the summary and every progress report.
  static func export(
    _ video: String = video, interval: Double, size: PixelSize? = small, into folder: URL,
    overwrite: Bool = false
  ) throws -> (summary: FrameExport.Summary, progress: [Int]) {
    let export = try FrameExport(video: video, interval: interval, size: size)
    var progress: [Int] = []
    let summary = try export.write(into: folder.path, overwrite: overwrite) { progress.append($0) }
    return (summary, progress)
  }

  static func pngSize(_ file: URL) throws -> PixelSize {
    try ImageFiles.decode(path: file.path, size: nil).size
  }

  @Test("whole-second intervals: one file per sample, named by its second, at the asked size")
  func wholeSeconds() throws {
    let folder = try ScratchFolder.url("frames-whole")
    defer { try? FileManager.default.removeItem(at: folder) }
    let export = try FrameExport(video: Self.video, interval: 2, size: Self.small)
    #expect(export.expectedCount == 12)
    var progress: [Int] = []
    let summary = try export.write(into: folder.path, overwrite: false) { progress.append($0) }

    let expected = stride(from: 0, to: 24, by: 2).map { String(format: "%06d.png", $0) }
    #expect(try fileNames(in: folder) == expected)
    #expect(expected.first == "000000.png" && expected.last == "000022.png")
    #expect(summary.written == 12)
    #expect(summary.size == Self.small)
    #expect(summary.corruptPackets == 0)
    #expect(progress == Array(1...12), "one report per file, counting up")
    for name in expected {
      #expect(try Self.pngSize(folder.appendingPathComponent(name)) == Self.small, "\(name)")
    }
  }

  @Test("fractional intervals name files with milliseconds")
  func fractionalSeconds() throws {
    let folder = try ScratchFolder.url("frames-fraction")
    defer { try? FileManager.default.removeItem(at: folder) }
    let export = try FrameExport(video: Self.video, interval: 2.25, size: Self.small)
    #expect(export.expectedCount == 11, "24 / 2.25 rounded up")
    let summary = try export.write(into: folder.path, overwrite: false) { _ in }
    let names = try fileNames(in: folder)
    #expect(summary.written == 11)
    #expect(names.count == 11)
    #expect(
      Array(names.prefix(5)) == [
        "000000.000.png", "000002.250.png", "000004.500.png", "000006.750.png", "000009.000.png",
      ])
    #expect(names.last == "000022.500.png")
  }

  @Test(
    "file names round to the millisecond, never to a wrong second",
    arguments: [
      (0.1 * 3, true, "000000.300.png"),
      (59.9996, true, "000060.000.png"),
      (3725.125, true, "003725.125.png"),
      (42, false, "000042.png"),
      (41.9999999, false, "000042.png"),
    ])
  func nameRounding(time: Double, fractional: Bool, name: String) {
    #expect(FrameExport.fileName(for: time, fractional: fractional) == name)
    #expect(FrameExport.isFrameFileName(name))
  }

  @Test("without --size the pictures have the display size (square and anamorphic pixels)")
  func displaySize() throws {
    let folder = try ScratchFolder.url("frames-display")
    defer { try? FileManager.default.removeItem(at: folder) }
    let square = folder.appendingPathComponent("square")
    let summary = try Self.export(interval: 10, size: nil, into: square).summary
    #expect(summary.size == PixelSize(width: 640, height: 360))
    #expect(try fileNames(in: square) == ["000000.png", "000010.png", "000020.png"])
    #expect(try Self.pngSize(square.appendingPathComponent("000010.png")) == summary.size)

    // 160x120 coded with pixels 3:2 wide is shown 240x120.
    let wide = folder.appendingPathComponent("wide.mp4")
    try FFmpegFixtures.run([
      "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=2", "-vf", "setsar=3/2",
      "-c:v", "libx264", "-pix_fmt", "yuv420p", wide.path,
    ])
    let anamorphic = folder.appendingPathComponent("anamorphic")
    let stretched = try Self.export(wide.path, interval: 1, size: nil, into: anamorphic).summary
    #expect(stretched.size == PixelSize(width: 240, height: 120))
    #expect(stretched.written == 2)
    #expect(try Self.pngSize(anamorphic.appendingPathComponent("000001.png")) == stretched.size)
  }

  @Test("a missing output folder is made, with its parents")
  func makesFolder() throws {
    let folder = try ScratchFolder.url("frames-make")
    defer { try? FileManager.default.removeItem(at: folder) }
    let nested = folder.appendingPathComponent("a/b/frames")
    let summary = try Self.export(interval: 8, into: nested).summary
    #expect(summary.written == 3)
    #expect(try fileNames(in: nested) == ["000000.png", "000008.png", "000016.png"])
  }

  @Test("existing frame files are refused without overwrite: nothing written, the file named")
  func refusesExistingFrames() throws {
    let folder = try ScratchFolder.url("frames-existing")
    defer { try? FileManager.default.removeItem(at: folder) }
    let existing = folder.appendingPathComponent("000004.png")
    let notes = folder.appendingPathComponent("notes.txt")
    try Data("old frame".utf8).write(to: existing)
    try Data("mine".utf8).write(to: notes)

    var reports = 0
    let export = try FrameExport(video: Self.video, interval: 2, size: Self.small)
    #expect {
      _ = try export.write(into: folder.path, overwrite: false) { _ in reports += 1 }
    } throws: { error in
      guard let problem = error as? LeamojiError else { return false }
      return problem.kind == .cannotWrite && problem.message.hasPrefix(existing.path + ": ")
        && !problem.message.contains("\n")
    }
    #expect(reports == 0)
    #expect(try fileNames(in: folder) == ["000004.png", "notes.txt"], "nothing written")
    #expect(try String(contentsOf: existing, encoding: .utf8) == "old frame")

    let summary = try Self.export(interval: 2, into: folder, overwrite: true).summary
    #expect(summary.written == 12)
    #expect(try fileNames(in: folder).count == 13, "12 frames and the notes")
    #expect(try Self.pngSize(existing) == Self.small, "the old file replaced by a picture")
    #expect(try String(contentsOf: notes, encoding: .utf8) == "mine", "other files untouched")
  }

  @Test("files that are not frames do not block an export")
  func otherFilesAllowed() throws {
    let folder = try ScratchFolder.url("frames-others")
    defer { try? FileManager.default.removeItem(at: folder) }
    for name in ["notes.txt", "cover.png", "12.png"] {
      try Data("x".utf8).write(to: folder.appendingPathComponent(name))
    }
    let summary = try Self.export(interval: 12, into: folder).summary
    #expect(summary.written == 2)
    #expect(
      try fileNames(in: folder) == ["000000.png", "000012.png", "12.png", "cover.png", "notes.txt"])
  }

  @Test("an output that is a file, or lies under one, is refused")
  func refusesNonFolder() throws {
    let folder = try ScratchFolder.url("frames-notfolder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("frames")
    try Data("keep".utf8).write(to: file)
    for output in [file.path, file.appendingPathComponent("inside").path] {
      let export = try FrameExport(video: Self.video, interval: 12, size: Self.small)
      #expect {
        _ = try export.write(into: output, overwrite: true) { _ in }
      } throws: { error in
        let problem = error as? LeamojiError
        return problem?.kind == .cannotWrite && problem?.message.contains(output) == true
      }
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == "keep")
    #expect(try fileNames(in: folder) == ["frames"])
  }

  @Test("a video that cannot be opened is refused before any output exists")
  func unopenableVideo() throws {
    let folder = try ScratchFolder.url("frames-badvideo")
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("missing.mp4").path
    let text = folder.appendingPathComponent("text.mp4")
    try Data("not a video\n".utf8).write(to: text)
    #expect {
      _ = try FrameExport(video: missing, interval: 1, size: nil)
    } throws: { error in
      (error as? LeamojiError)?.kind == .noInput
        && (error as? LeamojiError)?.message == "\(missing): no such file"
    }
    #expect {
      _ = try FrameExport(video: text.path, interval: 1, size: nil)
    } throws: { error in
      let problem = error as? LeamojiError
      return problem?.kind == .badInput && problem?.message.hasPrefix(text.path + ": ") == true
    }
  }

  @Test("a video cut in half keeps every frame before the damage, each one whole")
  func truncatedVideo() throws {
    let folder = try ScratchFolder.url("frames-truncated")
    defer { try? FileManager.default.removeItem(at: folder) }
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.video))
    let cut = folder.appendingPathComponent("cut.mp4")
    try whole.prefix(whole.count / 2).write(to: cut)
    let output = folder.appendingPathComponent("frames")

    let export = try FrameExport(video: cut.path, interval: 1, size: Self.small)
    #expect(export.expectedCount == 24, "the header still claims 24 s")
    var progress: [Int] = []
    let written: Int
    do {
      let summary = try export.write(into: output.path, overwrite: false) { progress.append($0) }
      #expect(summary.corruptPackets > 0, "completing means the damage was counted")
      #expect(summary.written < 24)
      written = summary.written
    } catch let failure as FrameExport.PartialFailure {
      #expect(failure.error.kind == .badInput)
      #expect(failure.error.message.hasPrefix(cut.path + ": "))
      written = failure.written
    }
    #expect(written > 0, "the first half decodes")
    #expect(progress == (0..<written).map { $0 + 1 })
    let names = try fileNames(in: output)
    #expect(
      names == (0..<written).map { String(format: "%06d.png", $0) }, "no gaps, no temporaries")
    for name in names {
      #expect(try Self.pngSize(output.appendingPathComponent(name)) == Self.small, "\(name)")
    }
  }

  @Test("a video whose pictures are all missing fails with nothing written")
  func noDecodableFrame() throws {
    let folder = try ScratchFolder.url("frames-nopictures")
    defer { try? FileManager.default.removeItem(at: folder) }
    // The header (ftyp, moov) survives; of the picture data only a few bytes remain.
    let whole = try Data(contentsOf: URL(fileURLWithPath: Self.video))
    let cut = folder.appendingPathComponent("header-only.mp4")
    try whole.prefix(8_300).write(to: cut)
    let output = folder.appendingPathComponent("frames")
    let export = try FrameExport(video: cut.path, interval: 1, size: Self.small)
    var reports = 0
    #expect {
      _ = try export.write(into: output.path, overwrite: false) { _ in reports += 1 }
    } throws: { error in
      guard let failure = error as? FrameExport.PartialFailure else { return false }
      return failure.written == 0 && failure.error.kind == .badInput
        && failure.error.message.hasPrefix(cut.path + ": ")
    }
    #expect(reports == 0)
    #expect(try fileNames(in: output) == [])
  }
}
