import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

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
      let plans = ["never", "after start", "after lock", "after temporary file"].map {
        "\($0) \(byPlan[$0]?.killed ?? 0)/\(byPlan[$0]?.ended ?? 0)"
      }
      func oneDecimal(_ value: Double) -> String { String(format: "%.1f", value) }
      return [
        "kill -9 experiment: \(runs) analyze runs, \(concurrency) at a time, into a MovieData.json"
          + " with \(entriesOld) entries",
        "  killed \(killed): \(killedBeforeLock) before holding the lock, \(killedHoldingLock)"
          + " holding the lock before writing, \(killedDuringWrite) during the write (temporary"
          + " file present), \(killedAfterRename) after the rename",
        "  finished \(finished) (exit 0), other endings \(failedOtherwise)",
        "  \(checks) checks of MovieData.json: parse failures \(parseFailures), entries lost"
          + " \(lostIDs.count)",
        "  MovieData.json temporary files found right after a kill \(temporaryFilesLeft);"
          + " temporary files after the final clean run \(temporaryFilesAtEnd.count);"
          + " \(entriesAtEnd) entries, \(sideFiles) complete posters and subtitles at the end",
        "  by plan, killed/ended first: " + plans.joined(separator: ", "),
        "  the runs took \(oneDecimal(seconds)) s (wall); CPU: leamoji processes"
          + " \(oneDecimal(childCPUSeconds)) s, this test process \(oneDecimal(ownCPUSeconds)) s",
      ].joined(separator: "\n")
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
    for url in [videos, folder, logs] {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    let data = folder.appendingPathComponent("MovieData.json")
    let lockPath = folder.appendingPathComponent(".MovieData.json.lock").path
    try StoreFiles.writeOldEntries(count: oldEntries, to: data)
    let oldObjects = try #require(StoreFiles.objects(in: data))
    var mustHave = Set(oldObjects.keys)  // every id ever seen in the file: it may never disappear
    let model = try StoreFiles.tinyModel()
    var paths: [String] = []
    for index in 0..<runs {
      paths.append(
        try StoreFiles.clip(named: String(format: "run-%03d.mp4", index), in: videos).path)
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
    enum Ending {
      case killed(heldLock: Bool, temporaryAtKill: Bool, temporaryLeft: Bool)
      case finished, failed
    }
    var snapshots: [(id: String, ending: Ending, bytes: Data?)] = []

    func check(_ event: String, _ bytes: Data?) -> Set<String>? {
      report.checks += 1
      guard let ids = bytes.flatMap(StoreFiles.ids(in:)) else {
        report.parseFailures += 1
        report.problems.append(
          "\(event): MovieData.json does not parse as an array of entries with distinct ids")
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
            plan = .afterTemporaryFile(
              UInt64.random(in: 0...(3 * Clock.millisecond / 2), using: &random))
          }
        }
        let id = String(format: "run-%03d", index)
        let pid = try ProcessRunner.spawn(
          [
            CLI.binary, "analyze", paths[index], "--output", data.path, "--vtt", "--model",
            model.path,
          ],
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
          case .afterTemporaryFile(let delay):
            if let at = run.temporarySeen { run.killAt = at + delay }
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
          snapshots.append(
            (
              run.id,
              .killed(
                heldLock: heldLockAtKill, temporaryAtKill: temporaryAtKill,
                temporaryLeft: temporaryLeft), bytes
            ))
        } else if status & 0x7f == 0 && (status >> 8) & 0xff == 0 {
          snapshots.append((run.id, .finished, bytes))
          runDurations.append(end - run.started)
          if let at = run.lockSeen { lockHolds.append(end - at) }
          if temporaryLeft {
            report.problems.append("\(run.id) finished but left its temporary file")
          }
        } else {
          let log =
            (try? String(
              contentsOfFile: logs.appendingPathComponent("\(run.id).txt").path, encoding: .utf8))
            ?? ""
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
      "analyze", try StoreFiles.clip(named: "final.mp4", in: videos).path, "--output", data.path,
      "--vtt", "--model", model.path,
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
      guard let reference = try? Data(contentsOf: folder.appendingPathComponent("final" + suffix)),
        !reference.isEmpty
      else {
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
    // The old entries are still exactly as they were (all keys, including one leamoji does not
    // know).
    let changed = oldObjects.filter { id, old in atEnd[id].map { !$0.isEqual(old) } ?? true }.keys
      .sorted()
    if !changed.isEmpty {
      report.problems.append("old entries changed or gone at the end: \(changed.prefix(5))")
    }
    report.childCPUSeconds = CPUTime.children - cpuBefore.children
    report.ownCPUSeconds = CPUTime.own - cpuBefore.own
    return report
  }
}
