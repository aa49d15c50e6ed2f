import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// Issue 6, item 4 ("crash-safe store"): kill -9 at random moments of many concurrent `analyze`
// runs never breaks MovieData.json nor loses a finished run's entry, and a full disk (a file-size
// limit, or a tiny tmpfs when the test may mount one) is one clear error that leaves the previous
// files intact.

@Suite("MovieData.json under kill -9 and full disks", .serialized)
struct StoreKillTests {
  // MARK: kill -9

  /// kill -9 at random moments of 100 analyze runs, 4 at a time, into one MovieData.json: it
  /// always parses and keeps every old entry and every finished run's entry; posters and
  /// subtitles are whole or absent; a clean run leaves no temporary file.
  @Test("kill -9 storm: 100 analyze runs into one MovieData.json lose nothing and break nothing")
  func killStorm() throws {
    let work = try ScratchFolder.url("store-crash")
    defer { try? FileManager.default.removeItem(at: work) }
    let report = try KillStorm(
      work: work, runs: 100, concurrency: 4, oldEntries: 600, seed: 0x6C65_616D_6F6A_6934
    ).run()
    print(report.summary)

    #expect(
      report.parseFailures == 0,
      "MovieData.json failed to parse \(report.parseFailures) times: \(report.problems.prefix(5))")
    #expect(report.lostIDs.isEmpty, "entries lost: \(report.lostIDs.sorted().prefix(20))")
    #expect(report.problems.isEmpty, "\(report.problems.prefix(10))")
    // The experiment must have exercised what it claims: kills at all stages, and finished runs.
    #expect(report.runs == 100)
    #expect(report.killed >= 40, "only \(report.killed) runs were killed")
    #expect(report.finished >= 5, "only \(report.finished) runs finished")
    let inside = report.killedHoldingLock + report.killedDuringWrite + report.killedAfterRename
    #expect(inside >= 15, "only \(inside) kills landed inside the locked merge")
    #expect(
      report.temporaryFilesAtEnd.isEmpty,
      "left after the final clean run: \(report.temporaryFilesAtEnd)")
    #expect(report.finalRunStatus == 0, "the final clean run: \(report.finalRunStderr)")
  }

  /// A write removes the temporary files that killed writers left beside it (unlocked), but not
  /// one being written (locked) nor other files.
  @Test("a write removes killed writers' temporary files, not a live writer's nor other files")
  func staleTemporaryFilesRemoved() throws {
    let work = try ScratchFolder.url("store-stale")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    let video = try StoreFiles.clip(named: "new.mp4", in: work)
    let model = try StoreFiles.tinyModel().path
    // One naming rule for every temporary file; `legacy` is the store's old rule, now foreign.
    let names = (
      stalePoster: ".old.jpg.leamoji-4242-1f2e3d.tmp",
      staleStore: ".MovieData.json.leamoji-4242-99.tmp",
      busy: ".other.vtt.leamoji-\(getpid())-abc.tmp", foreign: ".notes.txt.4242.tmp",
      plain: "notes.tmp",
      legacy: ".MovieData.json.4242.99.tmp"
    )
    for name in [
      names.stalePoster, names.staleStore, names.busy, names.foreign, names.plain, names.legacy,
    ] {
      try Data("partial".utf8).write(to: work.appendingPathComponent(name))
    }
    // A writer that is alive holds its temporary file locked.
    let busy = open(work.appendingPathComponent(names.busy).path, O_RDONLY | O_CLOEXEC)
    try #require(busy >= 0 && flock(busy, LOCK_EX) == 0)
    defer { close(busy) }

    let result = try CLI.leamoji([
      "analyze", video.path, "--model", model, "--output", data.path, "--vtt",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: work.path))
    #expect(
      !left.contains(names.stalePoster) && !left.contains(names.staleStore), "\(left.sorted())")
    let kept = [
      names.busy, names.foreign, names.plain, names.legacy, "new.jpg", "new.vtt", "MovieData.json",
    ]
    #expect(left.isSuperset(of: kept), "\(left.sorted())")
  }

  // MARK: file-size limit (always runs)

  /// Past a file-size limit (ulimit -f) the MovieData.json write fails: exit 73, one line naming
  /// the file and 'File too large', no signal, the old file byte-identical, no temporary file.
  @Test("past a file-size limit the MovieData.json write fails cleanly: exit 73, old file kept")
  func fileSizeLimitOnMovieData() throws {
    let work = try ScratchFolder.url("store-fsize")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    // About 80 kB, more than the limit below in either unit (dash counts 512-byte blocks).
    try StoreFiles.writeOldEntries(count: 300, to: data)
    let before = try Data(contentsOf: data)
    let video = try StoreFiles.clip(named: "new.mp4", in: work)
    let model = try StoreFiles.tinyModel().path

    let limited = try StoreFiles.withFileSizeLimit(
      blocks: 64, ["analyze", video.path, "--model", model, "--output", data.path, "--no-poster"])
    #expect(
      !limited.signalled,
      "ended by signal \(limited.status) (SIGXFSZ must be ignored so the write fails with EFBIG)")
    #expect(limited.status == 73, "status \(limited.status): \(limited.stderr)")
    #expect(limited.stderrLines.count == 1, "\(limited.stderrLines)")
    let line = limited.stderrLines.first ?? ""
    #expect(line.contains(data.path) && line.contains("File too large"), "\(line)")
    #expect(try Data(contentsOf: data) == before, "the previous MovieData.json changed")
    try expectNoTemporaryFiles(in: work)

    // The limit was the only problem: without it the same command stores the entry.
    let free = try CLI.leamoji([
      "analyze", video.path, "--model", model, "--output", data.path, "--no-poster",
    ])
    #expect(free.status == 0, "\(free.stderr)")
    #expect(try StoreFiles.ids(in: data)?.contains("new") == true)
  }

  /// Past a file-size limit the poster write fails: exit 73, one line naming the .jpg, the old
  /// poster and MovieData.json untouched, no temporary file.
  @Test("past a file-size limit the poster write fails cleanly: exit 73, old poster kept")
  func fileSizeLimitOnPoster() throws {
    let work = try ScratchFolder.url("store-fsize-poster")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    try StoreFiles.writeOldEntries(count: 1, to: data)
    let poster = work.appendingPathComponent("new.jpg")
    let oldPoster = Data("the previous poster".utf8)
    try oldPoster.write(to: poster)
    let before = try Data(contentsOf: data)
    let video = try StoreFiles.clip(named: "new.mp4", in: work)
    let model = try StoreFiles.tinyModel().path

    // 1 block (512 or 1024 bytes) is less than any 342-pixel-wide JPEG.
    let limited = try StoreFiles.withFileSizeLimit(
      blocks: 1, ["analyze", video.path, "--model", model, "--output", data.path])
    #expect(!limited.signalled, "ended by signal \(limited.status)")
    #expect(limited.status == 73, "status \(limited.status): \(limited.stderr)")
    #expect(limited.stderrLines.count == 1, "\(limited.stderrLines)")
    let line = limited.stderrLines.first ?? ""
    #expect(line.contains(poster.path) && line.contains("File too large"), "\(line)")
    #expect(try Data(contentsOf: poster) == oldPoster, "the previous poster changed")
    #expect(try Data(contentsOf: data) == before, "MovieData.json changed")
    try expectNoTemporaryFiles(in: work)

    let free = try CLI.leamoji(["analyze", video.path, "--model", model, "--output", data.path])
    #expect(free.status == 0, "\(free.stderr)")
    #expect(try Data(contentsOf: poster).count > 1024, "the real poster is bigger than the limit")
  }

  // MARK: a really full disk (needs mount)

  /// On a full tmpfs (ENOSPC): MovieData.json, poster and .vtt writes each fail with exit 73
  /// and one line naming the file and 'No space left on device'; old files intact, no temporary
  /// file.
  @Test(
    "on a full tmpfs, MovieData.json, poster and .vtt writes each fail cleanly: exit 73",
    .enabled(
      if: Tmpfs.mountable,
      "mounting a tmpfs needs root with CAP_SYS_ADMIN; the ulimit -f tests cover the same paths"
    ))
  func fullTmpfs() throws {
    let work = try ScratchFolder.url("store-enospc")
    defer { try? FileManager.default.removeItem(at: work) }
    let video = try StoreFiles.clip(named: "new.mp4", in: work)
    let model = try StoreFiles.tinyModel().path

    // 1. MovieData.json: the old file takes 40 of 64 pages, the new one needs as many again.
    do {
      let disk = try Tmpfs(size: "256k", in: work, name: "json")
      defer { disk.unmount() }
      let data = disk.url.appendingPathComponent("MovieData.json")
      try StoreFiles.writeOldEntries(count: 620, to: data)
      let before = try Data(contentsOf: data)
      try #require(before.count > 130_000 && before.count < 200_000, "\(before.count) bytes")
      let result = try CLI.leamoji([
        "analyze", video.path, "--model", model, "--output", data.path, "--no-poster",
      ])
      try expectFullDiskFailure(result, naming: data.path)
      #expect(try Data(contentsOf: data) == before, "the previous MovieData.json changed")
      try expectNoTemporaryFiles(in: disk.url)
    }

    // 2. The poster: no free page at all; the poster is the first file written.
    do {
      let disk = try Tmpfs(size: "128k", in: work, name: "poster")
      defer { disk.unmount() }
      let data = disk.url.appendingPathComponent("MovieData.json")
      try StoreFiles.writeOldEntries(count: 1, to: data)
      let poster = disk.url.appendingPathComponent("new.jpg")
      let oldPoster = Data("the previous poster".utf8)
      try oldPoster.write(to: poster)
      let before = try Data(contentsOf: data)
      try disk.fill(leavingPages: 0)
      let result = try CLI.leamoji(["analyze", video.path, "--model", model, "--output", data.path])
      try expectFullDiskFailure(result, naming: poster.path)
      #expect(try Data(contentsOf: poster) == oldPoster, "the previous poster changed")
      #expect(try Data(contentsOf: data) == before, "MovieData.json changed")
      try expectNoTemporaryFiles(in: disk.url)
    }

    // 3. The .vtt, written after MovieData.json: leave exactly the pages the new MovieData.json
    //    needs (measured by the same run on a normal folder), so the subtitles find none.
    do {
      let dry = work.appendingPathComponent("dry")
      try FileManager.default.createDirectory(at: dry, withIntermediateDirectories: true)
      let measured = try CLI.leamoji([
        "analyze", video.path, "--model", model, "--output",
        dry.appendingPathComponent("MovieData.json").path, "--no-poster", "--vtt",
      ])
      try #require(measured.status == 0, "\(measured.stderr)")
      let jsonSize = try Data(contentsOf: dry.appendingPathComponent("MovieData.json")).count

      let disk = try Tmpfs(size: "128k", in: work, name: "vtt")
      defer { disk.unmount() }
      let data = disk.url.appendingPathComponent("MovieData.json")
      let vtt = disk.url.appendingPathComponent("new.vtt")
      let oldVTT = Data("WEBVTT\n\nthe previous subtitles\n".utf8)
      try oldVTT.write(to: vtt)
      try disk.fill(leavingPages: (jsonSize + disk.pageSize - 1) / disk.pageSize)
      let result = try CLI.leamoji([
        "analyze", video.path, "--model", model, "--output", data.path, "--no-poster", "--vtt",
      ])
      try expectFullDiskFailure(result, naming: vtt.path)
      #expect(try Data(contentsOf: vtt) == oldVTT, "the previous subtitles changed")
      #expect(
        try StoreFiles.ids(in: data) == ["new"], "MovieData.json is written before the subtitles")
      try expectNoTemporaryFiles(in: disk.url)
    }
  }

  private func expectNoTemporaryFiles(
    in folder: URL, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let left = try StoreFiles.temporaryFiles(in: folder)
    #expect(left.isEmpty, "temporary files left: \(left)", sourceLocation: sourceLocation)
  }

  private func expectFullDiskFailure(
    _ result: ProcessResult, naming path: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    #expect(!result.signalled, "ended by signal \(result.status)", sourceLocation: sourceLocation)
    #expect(
      result.status == 73, "status \(result.status): \(result.stderr)",
      sourceLocation: sourceLocation)
    #expect(result.stderrLines.count == 1, "\(result.stderrLines)", sourceLocation: sourceLocation)
    let line = result.stderrLines.first ?? ""
    #expect(
      line.contains(path) && line.contains("No space left on device"), "\(line)",
      sourceLocation: sourceLocation)
  }
}
