import Foundation
import LeamojiCore
import Testing

/// leamoji links only FoundationEssentials; these helpers stand in for the Foundation calls it
/// used, and must answer as Foundation does for what leamoji passes them.
@Suite("Foundation stand-ins: paths, number formats, error texts")
struct FoundationFreeTests {
  static let paths = [
    "/", "a", "a/", "a//", "/a", "/a/", "a/b", "a/b/", "/a/b", "/a//b", "a//b//",
    "./a", "../a/b", ".", "..", "/a/b.mp4", "b.mp4", "a/.hidden", ".hidden", "a/b.c.d",
    "a.b/c", "a.b/c/", "dir.x/file", "film.", "my film (2019).MKV", "Ça/été.mp4",
  ]

  @Test("path arithmetic answers as NSString does", arguments: paths)
  func pathsAsNSString(path: String) {
    let ns = path as NSString
    #expect(PathText.lastComponent(path) == ns.lastPathComponent)
    #expect(PathText.pathExtension(path) == ns.pathExtension)
    // (NSString also turns "//" into "/" here; leamoji only strips extensions off names.)
    if !path.contains("//") {
      #expect(PathText.deletingExtension(path) == ns.deletingPathExtension)
    }
    for name in ["x", "x.png", "sub/x"] {
      #expect(PathText.appending(name, to: path) == ns.appendingPathComponent(name), "\(name)")
    }
  }

  @Test(
    "the folder of a path, as NSString gives it where it does not trap",
    arguments: [
      ("/", "/"), ("/a", "/"), ("/a/", "/"), ("a/b", "a"), ("a/b/", "a"), ("/a/b", "/a"),
      ("/a//b", "/a"), ("a//b//", "a"), ("./a", "."), ("../a/b", "../a"), ("..", ""),
      ("b.mp4", ""), (".hidden", ""), ("Ça/été.mp4", "Ça"), ("/tmp/x/MovieData.json", "/tmp/x"),
      // NSString traps on these three.
      ("a", ""), ("MovieData.json", ""), (".", ""),
    ])
  func folderOfPath(path: String, folder: String) {
    #expect(PathText.deletingLastComponent(path) == folder)
  }

  @Test("the empty path: no name, no folder")
  func emptyPath() {
    // (NSString traps on deletingLastPathComponent of "".)
    #expect(PathText.lastComponent("") == "")
    #expect(PathText.deletingLastComponent("") == "")
    #expect(PathText.appending("x", to: "") == "x")
    #expect(PathText.pathExtension("") == "")
  }

  @Test("printf formats give what String(format:) gives")
  func formats() {
    let whole: [Int] = [0, 7, 59, 61, 3599, 3600, 86_399, 1_000_000]
    for n in whole {
      #expect(CFormat.string("%06ld.png", n) == String(format: "%06ld.png", n))
      #expect(
        CFormat.string("%ld:%02ld", n / 60, n % 60) == String(format: "%ld:%02ld", n / 60, n % 60))
      #expect(CFormat.string("%03ld", n % 1000) == String(format: "%03ld", n % 1000))
    }
    let values: [Double] = [0, 0.05, 0.5, 1, 2.25, 99.95, 12_345.678, 1e15, -3.5, .infinity, .nan]
    for x in values {
      for format in ["%.1f", "%.3f", "%.4f", "%.0f%%", "%g", "%g s", "  %.1f/s"] {
        #expect(CFormat.string(format, x) == String(format: format, x), "\(format) \(x)")
      }
    }
    // Longer than the first buffer.
    #expect(CFormat.string("%0300ld", 5) == String(repeating: "0", count: 299) + "5")
  }

  @Test("white space trimmed as Foundation does; columns padded as printf's %-8s")
  func trimmingAndPadding() {
    for text in ["", "  ", " a ", "\ta b\n", "flip", " crop,"] {
      #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    for text in ["", "happy", "neutral", "scary", "longer than eight"] {
      let printf = text.withCString { CFormat.string("%-8s", $0) }
      #expect(text.padded(toWidth: 8) == printf)
    }
  }

  @Test("file system errors read as the system's words for their errno")
  func errorTexts() throws {
    let missing = "/nonexistent-\(getpid())/folder"
    #expect(throws: (any Error).self) {
      try FileManager.default.createDirectory(
        atPath: missing + "/x", withIntermediateDirectories: false)
    }
    do {
      try FileManager.default.createDirectory(
        atPath: missing + "/x", withIntermediateDirectories: false)
    } catch {
      #expect(ErrorText.describe(error) == "No such file or directory")
    }
    do {
      _ = try Data(contentsOf: URL(fileURLWithPath: missing))
    } catch {
      #expect(ErrorText.describe(error) == "No such file or directory")
    }
    #expect(ErrorText.text(errno: EACCES) == "Permission denied")
  }

  @Test("a lock excludes: counting from two threads loses nothing")
  func lockExcludes() {
    final class Counter: @unchecked Sendable {
      let lock = ThreadLock()
      var count = 0
    }
    let counter = Counter()
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<10_000 { counter.lock.withLock { counter.count += 1 } }
    }
    #expect(counter.count == 40_000)
  }

  @Test("a detached thread runs its work")
  func detachedThread() {
    let done = DispatchSemaphore(value: 0)
    #expect(DetachedThread.start { done.signal() })
    #expect(done.wait(timeout: .now() + 10) == .success)
  }
}
