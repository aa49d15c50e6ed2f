import Foundation
import LeamojiCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// Issue 6, item 4 ("crash-safe store"): kill -9 at random moments of many concurrent `analyze`
// runs never breaks MovieData.json nor loses a finished run's entry, and a full disk (a file-size
// limit, or a tiny tmpfs when the test may mount one) is one clear error that leaves the previous
// files intact.

@Suite("MovieData.json under kill -9 and full disks", .serialized)
struct StoreCrashTests {
  // MARK: kill -9

  @Test("kill -9 at random moments of 100 analyze runs, 4 at a time, into one MovieData.json: it always parses and keeps every old entry and every finished run's entry; posters and subtitles are whole or absent; a clean run leaves no temporary file")
  func killStorm() throws {
    let work = try CLI.temporaryFolder("store-crash")
    defer { try? FileManager.default.removeItem(at: work) }
    let report = try KillStorm(work: work, runs: 100, concurrency: 4, oldEntries: 600, seed: 0x6C65_616D_6F6A_6934).run()
    print(report.summary)

    #expect(report.parseFailures == 0, "MovieData.json failed to parse \(report.parseFailures) times: \(report.problems.prefix(5))")
    #expect(report.lostIDs.isEmpty, "entries lost: \(report.lostIDs.sorted().prefix(20))")
    #expect(report.problems.isEmpty, "\(report.problems.prefix(10))")
    // The experiment must have exercised what it claims: kills at all stages, and finished runs.
    #expect(report.runs == 100)
    #expect(report.killed >= 40, "only \(report.killed) runs were killed")
    #expect(report.finished >= 5, "only \(report.finished) runs finished")
    #expect(report.killedHoldingLock + report.killedDuringWrite + report.killedAfterRename >= 15,
      "only \(report.killedHoldingLock + report.killedDuringWrite + report.killedAfterRename) kills landed inside the locked merge")
    #expect(report.temporaryFilesAtEnd.isEmpty, "left after the final clean run: \(report.temporaryFilesAtEnd)")
    #expect(report.finalRunStatus == 0, "the final clean run: \(report.finalRunStderr)")
  }

  @Test("a write removes the temporary files that killed writers left beside it (unlocked), but not one being written (locked) nor other files")
  func staleTemporaryFilesRemoved() throws {
    let work = try CLI.temporaryFolder("store-stale")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    let video = try StoreFiles.clip(named: "new.mp4", in: work)
    let model = try StoreFiles.tinyModel().path
    let names = (
      stalePoster: ".old.jpg.leamoji-4242-1f2e3d.tmp", staleStore: ".MovieData.json.4242.99.tmp",
      busy: ".other.vtt.leamoji-\(getpid())-abc.tmp", foreign: ".notes.txt.4242.tmp", plain: "notes.tmp")
    for name in [names.stalePoster, names.staleStore, names.busy, names.foreign, names.plain] {
      try Data("partial".utf8).write(to: work.appendingPathComponent(name))
    }
    // A writer that is alive holds its temporary file locked.
    let busy = open(work.appendingPathComponent(names.busy).path, O_RDONLY | O_CLOEXEC)
    try #require(busy >= 0 && flock(busy, LOCK_EX) == 0)
    defer { close(busy) }

    let result = try CLI.leamoji(["analyze", video.path, "--model", model, "--output", data.path, "--vtt"])
    #expect(result.status == 0, "\(result.stderr)")
    let left = Set(try FileManager.default.contentsOfDirectory(atPath: work.path))
    #expect(!left.contains(names.stalePoster) && !left.contains(names.staleStore), "\(left.sorted())")
    #expect(left.isSuperset(of: [names.busy, names.foreign, names.plain, "new.jpg", "new.vtt", "MovieData.json"]), "\(left.sorted())")
  }

  // MARK: file-size limit (always runs)

  @Test("past a file-size limit (ulimit -f) the MovieData.json write fails: exit 73, one line naming the file and 'File too large', no signal, the old file byte-identical, no temporary file")
  func fileSizeLimitOnMovieData() throws {
    let work = try CLI.temporaryFolder("store-fsize")
    defer { try? FileManager.default.removeItem(at: work) }
    let data = work.appendingPathComponent("MovieData.json")
    // About 80 kB, more than the limit below in either unit (dash counts 512-byte blocks).
    try StoreFiles.writeOldEntries(count: 300, to: data)
    let before = try Data(contentsOf: data)
    let video = try StoreFiles.clip(named: "new.mp4", in: work)
    let model = try StoreFiles.tinyModel().path

    let limited = try StoreFiles.withFileSizeLimit(blocks: 64, ["analyze", video.path, "--model", model, "--output", data.path, "--no-poster"])
    #expect(!limited.signalled, "ended by signal \(limited.status) (SIGXFSZ must be ignored so the write fails with EFBIG)")
    #expect(limited.status == 73, "status \(limited.status): \(limited.stderr)")
    #expect(limited.stderrLines.count == 1, "\(limited.stderrLines)")
    let line = limited.stderrLines.first ?? ""
    #expect(line.contains(data.path) && line.contains("File too large"), "\(line)")
    #expect(try Data(contentsOf: data) == before, "the previous MovieData.json changed")
    try expectNoTemporaryFiles(in: work)

    // The limit was the only problem: without it the same command stores the entry.
    let free = try CLI.leamoji(["analyze", video.path, "--model", model, "--output", data.path, "--no-poster"])
    #expect(free.status == 0, "\(free.stderr)")
    #expect(try StoreFiles.ids(in: data)?.contains("new") == true)
  }

  @Test("past a file-size limit the poster write fails: exit 73, one line naming the .jpg, the old poster and MovieData.json untouched, no temporary file")
  func fileSizeLimitOnPoster() throws {
    let work = try CLI.temporaryFolder("store-fsize-poster")
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
    let limited = try StoreFiles.withFileSizeLimit(blocks: 1, ["analyze", video.path, "--model", model, "--output", data.path])
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

  @Test("on a full tmpfs (ENOSPC): MovieData.json, poster and .vtt writes each fail with exit 73 and one line naming the file and 'No space left on device'; old files intact, no temporary file",
    .enabled(if: Tmpfs.mountable, "mounting a tmpfs needs root with CAP_SYS_ADMIN, not available here; the ulimit -f tests cover the write-failure paths"))
  func fullTmpfs() throws {
    let work = try CLI.temporaryFolder("store-enospc")
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
      let result = try CLI.leamoji(["analyze", video.path, "--model", model, "--output", data.path, "--no-poster"])
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
      let measured = try CLI.leamoji(["analyze", video.path, "--model", model, "--output", dry.appendingPathComponent("MovieData.json").path, "--no-poster", "--vtt"])
      try #require(measured.status == 0, "\(measured.stderr)")
      let jsonSize = try Data(contentsOf: dry.appendingPathComponent("MovieData.json")).count

      let disk = try Tmpfs(size: "128k", in: work, name: "vtt")
      defer { disk.unmount() }
      let data = disk.url.appendingPathComponent("MovieData.json")
      let vtt = disk.url.appendingPathComponent("new.vtt")
      let oldVTT = Data("WEBVTT\n\nthe previous subtitles\n".utf8)
      try oldVTT.write(to: vtt)
      try disk.fill(leavingPages: (jsonSize + disk.pageSize - 1) / disk.pageSize)
      let result = try CLI.leamoji(["analyze", video.path, "--model", model, "--output", data.path, "--no-poster", "--vtt"])
      try expectFullDiskFailure(result, naming: vtt.path)
      #expect(try Data(contentsOf: vtt) == oldVTT, "the previous subtitles changed")
      #expect(try StoreFiles.ids(in: data) == ["new"], "MovieData.json is written before the subtitles")
      try expectNoTemporaryFiles(in: disk.url)
    }
  }

  private func expectNoTemporaryFiles(in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let left = try StoreFiles.temporaryFiles(in: folder)
    #expect(left.isEmpty, "temporary files left: \(left)", sourceLocation: sourceLocation)
  }

  private func expectFullDiskFailure(_ result: CLI.Result, naming path: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(!result.signalled, "ended by signal \(result.status)", sourceLocation: sourceLocation)
    #expect(result.status == 73, "status \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
    #expect(result.stderrLines.count == 1, "\(result.stderrLines)", sourceLocation: sourceLocation)
    let line = result.stderrLines.first ?? ""
    #expect(line.contains(path) && line.contains("No space left on device"), "\(line)", sourceLocation: sourceLocation)
  }
}

// MARK: - The kill -9 experiment

/// Runs `runs` `leamoji analyze --vtt` processes (`concurrency` at a time, each on its own copy
/// of a 1-second clip, with a tiny model so that the files, not the network, take the time) into
/// one MovieData.json that starts with `oldEntries` entries (each run also writes its poster and
/// subtitles beside it), kills most of them with SIGKILL at a moment drawn from a seeded
/// generator, and checks the file after every kill or exit.
///
/// Kill moments: the first wave is not killed (it measures how long a run and its locked merge
/// take); after that each run is left alone (10 %), killed at a uniform time after its start
/// (30 %), at a uniform time after it was seen holding the store's lock in `/proc/locks` (30 %),
/// or within 1.5 ms of its temporary file appearing (30 %; seen with inotify).
/// Each killed run is then classified by what it left behind or held: its entry in the file
/// (killed after the rename), its temporary file (killed during the write), the lock.
struct KillStorm {
  let work: URL
  let runs: Int
  let concurrency: Int
  let oldEntries: Int
  let seed: UInt64

  struct Report {
    var runs = 0
    var concurrency = 0
    var entriesOld = 0
    var killed = 0
    var finished = 0
    var failedOtherwise = 0
    var killedBeforeLock = 0
    var killedHoldingLock = 0
    var killedDuringWrite = 0
    var killedAfterRename = 0
    var checks = 0
    var parseFailures = 0
    var lostIDs: Set<String> = []
    var temporaryFilesLeft = 0
    var temporaryFilesAtEnd: [String] = []
    /// Posters and subtitles of the runs, each compared with the final run's.
    var sideFiles = 0
    var finalRunStatus: Int32 = -1
    var finalRunStderr = ""
    var problems: [String] = []
    var seconds = 0.0
    var childCPUSeconds = 0.0
    var ownCPUSeconds = 0.0
    var entriesAtEnd = 0
    /// Per kill plan: runs killed, runs that ended first.
    var byPlan: [String: (killed: Int, ended: Int)] = [:]

    var summary: String {
      """
      kill -9 experiment: \(runs) analyze runs, \(concurrency) at a time, into a MovieData.json with \(entriesOld) entries
        killed \(killed): \(killedBeforeLock) before holding the lock, \(killedHoldingLock) holding the lock before writing, \(killedDuringWrite) during the write (temporary file present), \(killedAfterRename) after the rename
        finished \(finished) (exit 0), other endings \(failedOtherwise)
        \(checks) checks of MovieData.json: parse failures \(parseFailures), entries lost \(lostIDs.count)
        MovieData.json temporary files found right after a kill \(temporaryFilesLeft); temporary files after the final clean run \(temporaryFilesAtEnd.count); \(entriesAtEnd) entries, \(sideFiles) complete posters and subtitles at the end
        by plan, killed/ended first: \(["never", "after start", "after lock", "after temporary file"].map { "\($0) \(byPlan[$0]?.killed ?? 0)/\(byPlan[$0]?.ended ?? 0)" }.joined(separator: ", "))
        the runs took \(String(format: "%.1f", seconds)) s (wall); CPU: leamoji processes \(String(format: "%.1f", childCPUSeconds)) s, this test process \(String(format: "%.1f", ownCPUSeconds)) s
      """
    }
  }

  private enum Plan {
    case never
    case afterStart(UInt64)
    case afterLock(UInt64)
    case afterTemporaryFile(UInt64)

    var name: String {
      switch self {
      case .never: "never"
      case .afterStart: "after start"
      case .afterLock: "after lock"
      case .afterTemporaryFile: "after temporary file"
      }
    }
  }

  private struct Run {
    let id: String
    let pid: pid_t
    let started: UInt64
    let plan: Plan
    var lockSeen: UInt64? = nil
    var temporarySeen: UInt64? = nil
    var killAt: UInt64? = nil
  }

  func run() throws -> Report {
    let began = Clock.now
    let cpuBefore = (children: CPUTime.children, own: CPUTime.own)
    let videos = work.appendingPathComponent("videos")
    let folder = work.appendingPathComponent("data")
    let logs = work.appendingPathComponent("logs")
    for url in [videos, folder, logs] { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    let data = folder.appendingPathComponent("MovieData.json")
    let lockPath = folder.appendingPathComponent(".MovieData.json.lock").path
    try StoreFiles.writeOldEntries(count: oldEntries, to: data)
    let oldObjects = try #require(StoreFiles.objects(in: data))
    var mustHave = Set(oldObjects.keys)  // every id ever seen in the file: it may never disappear
    let model = try StoreFiles.tinyModel()
    var paths: [String] = []
    for index in 0..<runs {
      paths.append(try StoreFiles.clip(named: String(format: "run-%03d.mp4", index), in: videos).path)
    }
    let watcher = try DirectoryWatcher(folder.path)

    var report = Report()
    report.runs = runs
    report.concurrency = concurrency
    report.entriesOld = oldEntries
    var random = SplitMix64(seed: seed)
    // Estimates, refined by every run that exits on its own.
    var runDurations: [UInt64] = []
    var lockHolds: [UInt64] = []
    func mean(_ values: [UInt64], _ fallback: UInt64) -> UInt64 {
      values.isEmpty ? fallback : values.reduce(0, +) / UInt64(values.count)
    }

    var finishedIDs = Set<String>()
    var running: [Run] = []
    var next = 0
    let deadline = began + 600 * Clock.second

    /// What the file held right after each kill or exit (read at once, checked after the storm
    /// so that parsing does not slow down the watching of the running processes).
    enum Ending { case killed(heldLock: Bool, temporaryAtKill: Bool, temporaryLeft: Bool), finished, failed }
    var snapshots: [(id: String, ending: Ending, bytes: Data?)] = []

    func check(_ event: String, _ bytes: Data?) -> Set<String>? {
      report.checks += 1
      guard let ids = bytes.flatMap(StoreFiles.ids(in:)) else {
        report.parseFailures += 1
        report.problems.append("\(event): MovieData.json does not parse as an array of entries with distinct ids")
        return nil
      }
      let missing = mustHave.subtracting(ids)
      if !missing.isEmpty {
        report.lostIDs.formUnion(missing)
        report.problems.append("\(event): lost \(missing.sorted().prefix(5))")
      }
      mustHave.formUnion(ids)
      return ids
    }

    while next < runs || !running.isEmpty {
      while running.count < concurrency && next < runs {
        let index = next
        next += 1
        var plan = Plan.never
        if index >= concurrency {
          let roll = Double.random(in: 0..<1, using: &random)
          let runTime = mean(runDurations, Clock.second)
          let hold = mean(lockHolds, runTime / 3)
          if roll < 0.10 {
            plan = .never
          } else if roll < 0.40 {
            plan = .afterStart(UInt64.random(in: 0...(runTime + runTime / 5), using: &random))
          } else if roll < 0.70 {
            plan = .afterLock(UInt64.random(in: 0...(hold + hold / 10), using: &random))
          } else {
            plan = .afterTemporaryFile(UInt64.random(in: 0...(3 * Clock.millisecond / 2), using: &random))
          }
        }
        let id = String(format: "run-%03d", index)
        let pid = try CLI.spawn(
          [CLI.binary, "analyze", paths[index], "--output", data.path, "--vtt", "--model", model.path],
          stderr: logs.appendingPathComponent("\(id).txt").path)
        var run = Run(id: id, pid: pid, started: Clock.now, plan: plan)
        if case .afterStart(let delay) = plan { run.killAt = run.started + delay }
        running.append(run)
      }

      // Wait up to 1 ms for a new temporary file, then look at the lock and every run.
      let created = watcher.created(waitingUpTo: 1)
      let seen = Clock.now
      let temporaryPIDs = Set(created.compactMap(StoreFiles.temporaryFilePID))
      let holders = StoreFiles.lockHolders(of: lockPath)
      var index = 0
      while index < running.count {
        var run = running[index]
        if run.lockSeen == nil && holders.contains(run.pid) { run.lockSeen = seen }
        if run.temporarySeen == nil && temporaryPIDs.contains(run.pid) { run.temporarySeen = seen }
        if run.killAt == nil {
          switch run.plan {
          case .afterLock(let delay): if let at = run.lockSeen { run.killAt = at + delay }
          case .afterTemporaryFile(let delay): if let at = run.temporarySeen { run.killAt = at + delay }
          case .never, .afterStart: break
          }
        }
        var status: Int32 = 0
        var reaped = waitpid(run.pid, &status, WNOHANG) == run.pid
        var killed = false
        var heldLockAtKill = false
        var temporaryAtKill = false
        if !reaped, let killAt = run.killAt, killAt <= Clock.now + 2 * Clock.millisecond {
          Clock.sleep(until: killAt)
          heldLockAtKill = StoreFiles.lockHolders(of: lockPath).contains(run.pid)
          temporaryAtKill = StoreFiles.temporaryFilePIDs(in: folder.path).contains(run.pid)
          kill(run.pid, SIGKILL)
          while waitpid(run.pid, &status, 0) < 0 && errno == EINTR {}
          reaped = true
          killed = status & 0x7f == SIGKILL
        }
        if !reaped && Clock.now > deadline {
          kill(run.pid, SIGKILL)
          while waitpid(run.pid, &status, 0) < 0 && errno == EINTR {}
          report.problems.append("\(run.id) still running after 600 s; killed")
          reaped = true
        }
        guard reaped else {
          running[index] = run
          index += 1
          continue
        }
        running.remove(at: index)
        let end = Clock.now
        report.byPlan[run.plan.name, default: (0, 0)].killed += killed ? 1 : 0
        report.byPlan[run.plan.name, default: (0, 0)].ended += killed ? 0 : 1
        let temporaryLeft = StoreFiles.temporaryFilePIDs(in: folder.path).contains(run.pid)
        let bytes = try? Data(contentsOf: data)
        if killed {
          snapshots.append((run.id, .killed(heldLock: heldLockAtKill, temporaryAtKill: temporaryAtKill, temporaryLeft: temporaryLeft), bytes))
        } else if status & 0x7f == 0 && (status >> 8) & 0xff == 0 {
          snapshots.append((run.id, .finished, bytes))
          runDurations.append(end - run.started)
          if let at = run.lockSeen { lockHolds.append(end - at) }
          if temporaryLeft { report.problems.append("\(run.id) finished but left its temporary file") }
        } else {
          let log = (try? String(contentsOfFile: logs.appendingPathComponent("\(run.id).txt").path, encoding: .utf8)) ?? ""
          report.problems.append("\(run.id) ended with wait status \(status): \(log)")
          snapshots.append((run.id, .failed, bytes))
        }
      }
    }
    report.seconds = Double(Clock.now - began) / Double(Clock.second)

    for (id, ending, bytes) in snapshots {
      switch ending {
      case .killed(let heldLock, let temporaryAtKill, let temporaryLeft):
        report.killed += 1
        if check("\(id) killed", bytes)?.contains(id) == true {
          report.killedAfterRename += 1
        } else if temporaryLeft || temporaryAtKill {
          report.killedDuringWrite += 1
        } else if heldLock {
          report.killedHoldingLock += 1
        } else {
          report.killedBeforeLock += 1
        }
        if temporaryLeft { report.temporaryFilesLeft += 1 }
      case .finished:
        report.finished += 1
        finishedIDs.insert(id)
        mustHave.insert(id)
        _ = check("\(id) finished", bytes)
      case .failed:
        report.failedOtherwise += 1
        _ = check("\(id) ended", bytes)
      }
    }

    // One last run that is not killed: it must succeed and remove every temporary file.
    let final = try CLI.leamoji([
      "analyze", try StoreFiles.clip(named: "final.mp4", in: videos).path, "--output", data.path, "--vtt", "--model", model.path,
    ])
    report.finalRunStatus = final.status
    report.finalRunStderr = final.stderr
    if final.status == 0 { mustHave.insert("final") }
    _ = check("the final run", try? Data(contentsOf: data))
    report.temporaryFilesAtEnd = try StoreFiles.temporaryFiles(in: folder)
    // Every run analyses the same pictures, so every poster and subtitle file must be exactly the
    // final run's: a killed run leaves the complete file or none, never a part.
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    for suffix in [".jpg", ".vtt"] {
      guard let reference = try? Data(contentsOf: folder.appendingPathComponent("final" + suffix)), !reference.isEmpty else {
        report.problems.append("the final run wrote no final\(suffix)")
        continue
      }
      for name in names where name.hasPrefix("run-") && name.hasSuffix(suffix) {
        report.sideFiles += 1
        if (try? Data(contentsOf: folder.appendingPathComponent(name))) != reference {
          report.problems.append("\(name) differs from final\(suffix): partly written?")
        }
      }
    }
    let atEnd = StoreFiles.objects(in: data) ?? [:]
    report.entriesAtEnd = atEnd.count
    report.lostIDs.formUnion(finishedIDs.subtracting(atEnd.keys))
    // The old entries are still exactly as they were (all keys, including one leamoji does not know).
    let changed = oldObjects.filter { id, old in atEnd[id].map { !$0.isEqual(old) } ?? true }.keys.sorted()
    if !changed.isEmpty { report.problems.append("old entries changed or gone at the end: \(changed.prefix(5))") }
    report.childCPUSeconds = CPUTime.children - cpuBefore.children
    report.ownCPUSeconds = CPUTime.own - cpuBefore.own
    return report
  }
}

/// New names in a folder, from inotify (IN_CREATE).
final class DirectoryWatcher {
  private let descriptor: Int32

  init(_ folder: String) throws {
    descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard descriptor >= 0 else { throw HarnessError("inotify_init1: \(String(cString: strerror(errno)))") }
    guard inotify_add_watch(descriptor, folder, UInt32(IN_CREATE)) >= 0 else {
      close(descriptor)
      throw HarnessError("inotify_add_watch \(folder): \(String(cString: strerror(errno)))")
    }
  }

  deinit { close(descriptor) }

  /// The names created since the last call, waiting up to `milliseconds` for the first.
  func created(waitingUpTo milliseconds: Int32) -> [String] {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&request, 1, milliseconds)
    var names: [String] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return names }
      // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
      var offset = 0
      while offset + 16 <= count {
        let length = Int(buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
        let name = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
        names.append(String(decoding: name, as: UTF8.self))
        offset += 16 + length
      }
    }
  }
}

/// CPU seconds (user + system) of this process and of its reaped children.
enum CPUTime {
  static var own: Double { seconds(RUSAGE_SELF) }
  static var children: Double { seconds(RUSAGE_CHILDREN) }

  private static func seconds(_ who: __rusage_who) -> Double {
    var usage = rusage()
    guard getrusage(__rusage_who_t(who.rawValue), &usage) == 0 else { return 0 }
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }
}

// MARK: - Helpers


/// Monotonic nanoseconds.
enum Clock {
  static let millisecond: UInt64 = 1_000_000
  static let second: UInt64 = 1_000_000_000
  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  static func sleep(until time: UInt64) {
    let current = now
    guard time > current else { return }
    var request = timespec(tv_sec: Int(time - current) / 1_000_000_000, tv_nsec: Int(time - current) % 1_000_000_000)
    _ = nanosleep(&request, nil)
  }
}

/// Files, processes and locks for the store tests.
enum StoreFiles {
  /// A 1-second 64x36 clip and a tiny model (8x8 input, trained for one epoch on 6 generated
  /// scenes): an `analyze` run with them spends its time in the store, not in the network.
  private static let fixtures: Result<(clip: URL, model: URL), HarnessError> = {
    do {
      let root = try CLI.temporaryFolder("store-fixtures")
      let clip = root.appendingPathComponent("clip.mp4")
      try CLI.makeVideo(at: clip, seconds: 1, size: "64x36")
      let scenes = try CLI.leamoji(["scenes", "dataset", "--out", root.path, "--train-per-class", "2", "--test-per-class", "1", "--size", "8"])
      guard scenes.status == 0 else { return .failure(HarnessError("scenes dataset: \(scenes.stderr)")) }
      let model = root.appendingPathComponent("tiny.safetensors")
      let trained = try CLI.leamoji([
        "train", root.appendingPathComponent("Training Data").path, "--epochs", "1", "--size", "8",
        "--validation-split", "0", "--output", model.path,
      ])
      guard trained.status == 0 else { return .failure(HarnessError("train: \(trained.stderr)")) }
      return .success((clip, model))
    } catch {
      return .failure(HarnessError("\(error)"))
    }
  }()

  /// A copy of the 1-second clip under `name` in `folder`.
  static func clip(named name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: try fixtures.get().clip, to: url)
    return url
  }

  /// The tiny model (pass it with --model).
  static func tinyModel() throws -> URL { try fixtures.get().model }

  /// Writes a MovieData.json with `count` entries `old-0000`, … (with a key leamoji does not
  /// know, which must survive), pretty-printed like leamoji's own.
  static func writeOldEntries(count: Int, to url: URL) throws {
    let entries: [[String: Any]] = (0..<count).map { i in
      [
        "description": "", "duration": 10, "id": String(format: "old-%04d", i), "markers": [] as [Any],
        "model": ["labels": ["happy"], "sha256": ""], "seekAhead": 5,
        "title": "Old film \(i), with a title long enough to make the file big", "note": "kept \(i)",
      ]
    }
    let data = try JSONSerialization.data(withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: url)
  }

  /// The entries of a file by id; nil when it cannot be read or does not parse (see below).
  static func objects(in url: URL) -> [String: NSDictionary]? {
    (try? Data(contentsOf: url)).flatMap { objects(in: $0) }
  }

  /// The entries by id; nil unless `data` is a JSON array of objects with distinct string ids.
  private static func objects(in data: Data) -> [String: NSDictionary]? {
    guard let array = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else { return nil }
    var result: [String: NSDictionary] = [:]
    for object in array {
      guard let id = object["id"] as? String, result[id] == nil else { return nil }
      result[id] = NSDictionary(dictionary: object)
    }
    return result
  }

  static func ids(in url: URL) throws -> [String]? {
    objects(in: url).map { $0.keys.sorted() }
  }

  /// The ids of the entries; nil unless `data` is a JSON array of objects with distinct string ids.
  static func ids(in data: Data) -> Set<String>? {
    guard let array = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else { return nil }
    let ids = Set(array.compactMap { $0["id"] as? String })
    return ids.count == array.count ? ids : nil
  }

  /// Names of temporary files (`*.tmp`) in `folder`.
  static func temporaryFiles(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
  }

  /// The process id in the name of a store temporary file, `.MovieData.json.<pid>.<random>.tmp`.
  static func temporaryFilePID(_ name: String) -> pid_t? {
    let prefix = ".MovieData.json."
    guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return nil }
    return name.dropFirst(prefix.count).split(separator: ".").first.flatMap { pid_t($0) }
  }

  /// The process ids of the store temporary files in `folder`.
  static func temporaryFilePIDs(in folder: String) -> Set<pid_t> {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var pids = Set<pid_t>()
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if let pid = temporaryFilePID(name) { pids.insert(pid) }
    }
    return pids
  }

  /// The processes holding a `flock` on `path`, from `/proc/locks` (waiters are not holders).
  static func lockHolders(of path: String) -> Set<pid_t> {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    let inode = ":\(info.st_ino)"
    var pids = Set<pid_t>()
    for line in readSmallFile("/proc/locks").split(separator: "\n") where !line.contains("->") {
      let fields = line.split(separator: " ")
      guard fields.count >= 6, fields[1] == "FLOCK", fields[5].hasSuffix(inode), let pid = pid_t(fields[4]) else { continue }
      pids.insert(pid)
    }
    return pids
  }

  private static func readSmallFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16384)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Runs leamoji under `/bin/sh -c 'ulimit -f BLOCKS; exec leamoji …'`.
  static func withFileSizeLimit(blocks: Int, _ arguments: [String]) throws -> CLI.Result {
    try CLI.run("/bin/sh", ["-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\"", CLI.binary] + arguments)
  }
}

/// A small tmpfs mounted for one test (root with CAP_SYS_ADMIN only).
struct Tmpfs {
  let url: URL
  let pageSize: Int

  /// Whether this process may mount a tmpfs (tried once, on a throw-away folder).
  static let mountable: Bool = {
    guard geteuid() == 0, let folder = try? CLI.temporaryFolder("tmpfs-probe") else { return false }
    defer { try? FileManager.default.removeItem(at: folder) }
    guard let disk = try? Tmpfs(size: "16k", in: folder, name: "probe") else { return false }
    disk.unmount()
    return true
  }()

  init(size: String, in folder: URL, name: String) throws {
    url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let result = try CLI.run("mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", url.path])
    guard result.status == 0 else { throw HarnessError("cannot mount a tmpfs on \(url.path): \(result.stderr)") }
    var info = statvfs()
    guard statvfs(url.path, &info) == 0 else { throw HarnessError("statvfs \(url.path) failed") }
    pageSize = Int(info.f_bsize)
  }

  var freePages: Int {
    var info = statvfs()
    return statvfs(url.path, &info) == 0 ? Int(info.f_bavail) : -1
  }

  /// Fills the file system with a file so that `pages` pages stay free.
  func fill(leavingPages pages: Int) throws {
    let free = freePages
    guard free >= pages else { throw HarnessError("only \(free) pages free, \(pages) wanted") }
    try Data(count: (free - pages) * pageSize).write(to: url.appendingPathComponent("filler"))
    guard freePages == pages else { throw HarnessError("\(freePages) pages free after filling, \(pages) wanted") }
  }

  func unmount() {
    _ = try? CLI.run("umount", [url.path])
  }
}
