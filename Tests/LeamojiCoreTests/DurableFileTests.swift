import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("DurableFile")
struct DurableFileTests {
  @Test("writes, replaces, and leaves no temporary file behind nor listed")
  func writeAndReplace() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let file = DurableFile(folder.file("a.bin"))
    try file.write([1, 2, 3])
    #expect(try folder.bytes("a.bin") == [1, 2, 3])
    try file.write([4])
    #expect(try folder.bytes("a.bin") == [4])
    try file.write([])
    #expect(try folder.bytes("a.bin") == [])
    #expect(try folder.names() == ["a.bin"])
    #expect(!TemporaryFiles.shared.paths.contains { $0.hasPrefix(folder.path) })
  }

  @Test("copy: a large file is copied whole in pieces; a missing source is named")
  func copy() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let content = (0..<(3 << 20) + 17).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try DurableFile(folder.file("big.bin")).write(content)
    try DurableFile(folder.file("copy.bin")).write([9])
    try DurableFile(folder.file("copy.bin")).copy(from: folder.file("big.bin"))
    #expect(try folder.bytes("copy.bin") == content)
    #expect(try folder.names() == ["big.bin", "copy.bin"])
    let missing = folder.file("none.bin")
    do {
      try DurableFile(folder.file("copy.bin")).copy(from: missing)
      Issue.record("a missing source was copied")
    } catch {
      #expect(error.description.hasPrefix(missing + ": cannot open"))
    }
    var failing = DurableFile(folder.file("copy.bin"))
    failing.failingSteps = [.rename]
    #expect(throws: DurableFileError.self) { try failing.copy(from: folder.file("big.bin")) }
    #expect(try folder.bytes("copy.bin") == content)
    #expect(try folder.names() == ["big.bin", "copy.bin"])
  }

  @Test("replacing: false keeps an existing file and says so")
  func noReplace() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let path = folder.file("keep.txt")
    try DurableFile(path).write(Array("mine".utf8))
    #expect(throws: DurableFileError.self) { try DurableFile(path).write([0], replacing: false) }
    do {
      try DurableFile(path).write([0], replacing: false)
    } catch {
      #expect(error.description == "\(path): cannot write (the file already exists)")
    }
    #expect(try folder.bytes("keep.txt") == Array("mine".utf8))
    #expect(try folder.names() == ["keep.txt"])
    try DurableFile(folder.file("new.txt")).write([7], replacing: false)
    #expect(try folder.bytes("new.txt") == [7])
  }

  @Test("an unwritable place is an error naming the file with the system's reason")
  func unwritable() {
    let path = "/nonexistent-folder-\(UUID().uuidString)/x.png"
    #expect(throws: DurableFileError.self) { try DurableFile(path).write([1]) }
    do {
      try DurableFile(path).write([1])
    } catch {
      #expect(error.description == "\(path): cannot write (No such file or directory)")
      #expect(error.problem == "cannot create a temporary file: No such file or directory")
      #expect(error.reason == "No such file or directory")
    }
  }

  @Test("a replaced file keeps its permissions; a new one gets 0666 less the umask")
  func modeKept() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let path = folder.file("private.json")
    try DurableFile(path).write([1])
    let mask = umask(0o022)
    umask(mask)
    #expect(status(path).st_mode & 0o7777 == 0o666 & ~mask)
    for mode: mode_t in [0o600, 0o640, 0o755, 0o444] {
      chmod(path, mode)
      try DurableFile(path).write([2])
      #expect(status(path).st_mode & 0o7777 == mode, "mode \(String(mode, radix: 8))")
    }
  }

  @Test(
    "a replaced file keeps its owner and group",
    .enabled(if: geteuid() == 0, "only root may give a file to another user"))
  func ownerKept() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let path = folder.file("shared.json")
    try DurableFile(path).write([1])
    #expect(chown(path, 4321, 8765) == 0)
    chmod(path, 0o640)
    try DurableFile(path).write([2])
    let info = status(path)
    #expect(info.st_uid == 4321 && info.st_gid == 8765)
    #expect(info.st_mode & 0o7777 == 0o640)
    #expect(try folder.bytes("shared.json") == [2])
  }

  @Test(
    "each failing step leaves the previous file intact, removes the temporary file, names the file",
    arguments: [
      (DurableFile.Step.createTemporary, "cannot create a temporary file: Permission denied"),
      (DurableFile.Step.write, "cannot write: No space left on device"),
      (DurableFile.Step.sync, "cannot flush to disk: Input/output error"),
      (DurableFile.Step.rename, "cannot replace the file: Invalid cross-device link"),
    ])
  func failingStep(step: DurableFile.Step, problem: String) throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let path = folder.file("poster.jpg")
    try DurableFile(path).write(Array("old".utf8))
    var file = DurableFile(path)
    file.failingSteps = [step]
    #expect(throws: DurableFileError.self) { try file.write(Array("new".utf8)) }
    do {
      try file.write(Array("new".utf8))
    } catch {
      #expect(error.problem == problem)
      #expect(error.description == "\(path): cannot write (\(error.reason))")
      #expect(problem.hasSuffix(": " + error.reason))
    }
    #expect(try folder.bytes("poster.jpg") == Array("old".utf8))
    #expect(try folder.names() == ["poster.jpg"])
    #expect(!TemporaryFiles.shared.paths.contains { $0.hasPrefix(folder.path) })
  }

  @Test("the folder is synced after the rename; a folder that cannot be synced is no error")
  func folderSync() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let path = folder.file("MovieData.json")
    #expect(DurableFile(path).folder == folder.path)
    #expect(DurableFile("MovieData.json").folder == ".")
    #expect(DurableFile(path).syncFolder())
    #expect(DurableFile("bare-name.json").syncFolder())  // the current folder
    #expect(!DurableFile("/nonexistent-\(UUID().uuidString)/x.json").syncFolder())
    var file = DurableFile(path)
    file.failingSteps = [.syncFolder]
    #expect(!file.syncFolder())
    try file.write(Array("new".utf8))
    #expect(try folder.bytes("MovieData.json") == Array("new".utf8))
    #expect(try folder.names() == ["MovieData.json"])
  }

  @Test("a link at the path is replaced by the file; followingLinks finds the file it points to")
  func links() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.file("real"), withIntermediateDirectories: true)
    #expect(symlink("real/data.json", folder.file("link.json")) == 0)
    #expect(symlink(folder.file("link.json"), folder.file("second.json")) == 0)
    #expect(DurableFile.followingLinks(folder.file("second.json")) == folder.file("real/data.json"))
    #expect(DurableFile.followingLinks(folder.file("plain.json")) == folder.file("plain.json"))
    #expect(symlink("loop-b", folder.file("loop-a")) == 0)
    #expect(symlink("loop-a", folder.file("loop-b")) == 0)
    _ = DurableFile.followingLinks(folder.file("loop-a"))  // returns instead of looping

    try DurableFile(DurableFile.followingLinks(folder.file("link.json"))).write([1])
    #expect(try folder.bytes("real/data.json") == [1])
    var info = stat()
    #expect(lstat(folder.file("link.json"), &info) == 0 && info.st_mode & S_IFMT == S_IFLNK)
    try DurableFile(folder.file("link.json")).write([2])
    #expect(lstat(folder.file("link.json"), &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    #expect(try folder.bytes("real/data.json") == [1])
  }

  @Test("whole-file reads: missing is nil, a folder is an error, bytes come back whole")
  func reading() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    #expect(try DurableFile(folder.file("none.json")).readIfPresent() == nil)
    #expect(throws: DurableFileError.self) { try DurableFile(folder.path).readIfPresent() }
    do {
      _ = try DurableFile(folder.path).readIfPresent()
    } catch {
      #expect(error.description == "\(folder.path): is a folder, not a file")
    }
    let big = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    try DurableFile(folder.file("big.bin")).write(big)
    #expect(try DurableFile(folder.file("big.bin")).readIfPresent() == big)
  }

  @Test("lock(): the lock file beside the file, exclusive between holders, left in place")
  func locking() throws {
    let folder = try ScratchFolder("durable")
    defer { folder.remove() }
    let file = DurableFile(folder.file("MovieData.json"))
    #expect(file.lockPath == folder.file(".MovieData.json.lock"))
    #expect(DurableFile("MovieData.json").lockPath == ".MovieData.json.lock")
    let first = try file.lock()
    #expect(first.path == file.lockPath)
    // Another holder cannot take it while the first has it.
    let probe = open(file.lockPath, O_RDONLY | O_CLOEXEC)
    defer { close(probe) }
    #expect(flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    let order = Locked<[String]>([])
    let done = DispatchSemaphore(value: 0)
    let waiter = Thread {
      if let second = try? file.lock() {
        order.withValue { $0.append("second locked") }
        second.release()
      }
      done.signal()
    }
    waiter.start()
    usleep(100_000)
    order.withValue { $0.append("first released") }
    first.release()
    first.release()  // a second release does nothing
    done.wait()
    #expect(order.withValue { $0 } == ["first released", "second locked"])
    #expect(flock(probe, LOCK_EX | LOCK_NB) == 0)
    #expect(try folder.names() == [".MovieData.json.lock"])
  }

  @Test("a lock file that cannot be created is an error naming the file and the lock file")
  func lockFailure() {
    let path = "/nonexistent-\(UUID().uuidString)/MovieData.json"
    let lockPath = DurableFile(path).lockPath
    #expect(
      throws: DurableFileError.other(
        path, "cannot create the lock file \(lockPath): No such file or directory",
        reason: "No such file or directory")
    ) { try DurableFile(path).lock() }
  }
}
