import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Temporary files: one naming rule, one sweep")
struct TemporaryFilesTests {
  @Test("new names follow the rule: .<name>.leamoji-<pid>-<16 hex>.tmp")
  func naming() {
    let name = TemporaryFiles.name(for: "MovieData.json", pid: 4242)
    #expect(name.hasPrefix(".MovieData.json.leamoji-4242-"))
    #expect(name.hasSuffix(".tmp"))
    #expect(name.utf8.count == ".MovieData.json.leamoji-4242-".utf8.count + 16 + 4)
    #expect(TemporaryFiles.isTemporaryName(name))
    #expect(TemporaryFiles.name(for: "a.jpg") != TemporaryFiles.name(for: "a.jpg"))
    #expect(TemporaryFiles.name(for: "x", pid: getpid()).hasPrefix(".x.leamoji-\(getpid())-"))
  }

  @Test("a name too long for the rule is shortened to fit 255 bytes, and still follows it")
  func longNames() {
    let long = String(repeating: "é", count: 120) + ".jpg"  // 244 bytes
    let name = TemporaryFiles.name(for: long, pid: 123_456)
    #expect(name.utf8.count <= 255)
    #expect(TemporaryFiles.isTemporaryName(name))
    #expect(name.hasPrefix(".éé"))
  }

  @Test(
    "what counts as a temporary name",
    arguments: [
      (".MovieData.json.leamoji-4242-1f2e3d.tmp", true),
      (".a.leamoji-1-0.tmp", true),
      (".a.leamoji-b.leamoji-12-ff.tmp", true),
      (".MovieData.json.4242.99.tmp", false),
      ("MovieData.json.leamoji-4242-1f.tmp", false),
      (".leamoji-4242-1f.tmp", false),
      (".a.leamoji-42a-1f.tmp", false),
      (".a.leamoji-42-1g.tmp", false),
      (".a.leamoji--1f.tmp", false),
      (".a.leamoji-42-.tmp", false),
      (".a.leamoji-42-1f-3.tmp", false),
      (".a.leamoji-42-1f.tmpx", false),
      ("notes.tmp", false),
    ])
  func rule(name: String, matches: Bool) {
    #expect(TemporaryFiles.isTemporaryName(name) == matches)
  }

  @Test("the sweep removes unlocked temporaries only: not a locked one, a link, a folder, others")
  func sweep() throws {
    let folder = try ScratchFolder("sweep")
    defer { folder.remove() }
    let stale = [".a.jpg.leamoji-4242-1f.tmp", ".MovieData.json.leamoji-\(getpid())-77.tmp"]
    let busy = ".b.vtt.leamoji-4243-2e.tmp"
    let others = [".MovieData.json.4242.99.tmp", "notes.tmp", "a.jpg", ".a.jpg.leamoji-1-x.tmp"]
    for name in stale + [busy] + others { try folder.write("partial", to: name) }
    #expect(symlink(folder.file("a.jpg"), folder.file(".link.leamoji-5-5.tmp")) == 0)
    #expect(mkdir(folder.file(".dir.leamoji-6-6.tmp"), 0o755) == 0)
    let holder = try #require(lockedDescriptor(folder.file(busy)))
    defer { close(holder) }

    let removed = TemporaryFiles.sweep(folder.path)
    #expect(removed.sorted() == stale.sorted())
    let expected = [busy, ".link.leamoji-5-5.tmp", ".dir.leamoji-6-6.tmp"] + others
    #expect(try folder.names() == expected.sorted())
    #expect(try folder.bytes("a.jpg") == Array("partial".utf8), "the link's target is untouched")
  }

  @Test("a write sweeps its folder once per process; the writer's own temporary is locked")
  func writeSweeps() throws {
    let folder = try ScratchFolder("sweep")
    defer { folder.remove() }
    try folder.write("partial", to: ".old.jpg.leamoji-4242-1f.tmp")
    try DurableFile(folder.file("new.jpg")).write([1])
    #expect(try folder.names() == ["new.jpg"])
    // Later leftovers wait for the next process: dead writers left them before it started.
    try folder.write("partial", to: ".old.jpg.leamoji-4242-2f.tmp")
    try DurableFile(folder.file("new.jpg")).write([2])
    #expect(try folder.names() == [".old.jpg.leamoji-4242-2f.tmp", "new.jpg"])

    let (descriptor, path) = try TemporaryFiles.shared.create(for: folder.file("next.jpg"))
    defer {
      unlink(path)
      TemporaryFiles.shared.finished(path)
      close(descriptor)
    }
    #expect(TemporaryFiles.shared.paths.contains(path))
    #expect(TemporaryFiles.isTemporaryName((path as NSString).lastPathComponent))
    #expect((path as NSString).deletingLastPathComponent == folder.path)
    #expect(!TemporaryFiles.sweep(folder.path).contains((path as NSString).lastPathComponent))
    #expect(FileManager.default.fileExists(atPath: path), "a live writer's file stays")
  }

  @Test("the termination clean-up removes every listed file, and only those")
  func terminationCleanUp() throws {
    let folder = try ScratchFolder("sweep")
    defer { folder.remove() }
    // A list of its own: the clean-up keeps its lock for good.
    let registry = TemporaryFiles()
    let first = try registry.create(for: folder.file("a.json"))
    let second = try registry.create(for: folder.file("b.jpg"))
    try folder.write("keep", to: "c.txt")
    #expect(registry.paths == [first.path, second.path])
    registry.removeAllForTermination()
    close(first.descriptor)
    close(second.descriptor)
    #expect(try folder.names() == ["c.txt"])
  }
}
