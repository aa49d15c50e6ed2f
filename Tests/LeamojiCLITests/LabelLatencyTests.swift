import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

// The pty functions need _XOPEN_SOURCE, which the Glibc module does not define: look them up.
private func libc<T>(_ name: String, as type: T.Type) -> T {
  guard let symbol = dlsym(nil, name) else { fatalError("libc has no \(name)") }
  return unsafeBitCast(symbol, to: type)
}
private let openMaster = libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
private let grantMaster = libc("grantpt", as: (@convention(c) (Int32) -> Int32).self)
private let unlockMaster = libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
private let slaveName = libc(
  "ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

/// The goal "a key press updates the screen within 50 ms", measured where tmux's own
/// delays do not blur it: `leamoji label` runs on a pseudo-terminal this test holds, and the
/// time is from writing a key's byte to reading the end of the screen update it causes (the
/// canvas ends every update by parking the cursor on the last row).
///
/// Speed goals are not pass/fail in unit tests here (the suite shares two cores with whatever
/// else runs): the test prints the figures for the goal, and fails only when a key's update
/// does not come at all or the median passes 1 s — the screen waiting on work it should not
/// wait for, not noise (a loaded 2-core machine has shown medians of 280 ms).
@Suite("leamoji label: key → screen time")
struct LabelLatencyTests {
  @Test("each decision key's screen update comes at once: figures for the 50 ms goal")
  func keyToScreen() throws {
    let work = try ScratchFolder.url("label-latency")
    defer { try? FileManager.default.removeItem(at: work) }
    let master = openMaster(O_RDWR | O_NOCTTY)
    try #require(master >= 0 && grantMaster(master) == 0 && unlockMaster(master) == 0)
    defer { close(master) }
    let name = try #require(slaveName(master).map { String(cString: $0) })
    var size = winsize(ws_row: 40, ws_col: 120, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
    let slave = try #require(FileHandle(forUpdatingAtPath: name))

    let process = try ProcessRunner.start(
      CLI.binary,
      [
        "label", LabelTmuxTests.video, "--into", work.appendingPathComponent("labels").path,
        "--order", "time",
      ], stdin: slave, stdout: slave, stderr: slave)
    defer {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
    }

    var screen: [UInt8] = []
    func read(until done: ([UInt8]) -> Bool, within seconds: Double) -> Bool {
      let deadline = Date().addingTimeInterval(seconds)
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while Date() < deadline {
        let n = buffer.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        if n > 0 {
          screen += buffer[0..<n]
          if done(screen) { return true }
        } else {
          var fds = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
          _ = poll(&fds, 1, 1)
        }
      }
      return false
    }
    let parked = Array("\u{1B}[40;1H".utf8)
    func endsUpdate(_ bytes: [UInt8]) -> Bool {
      bytes.count >= parked.count && Array(bytes.suffix(parked.count)) == parked
    }
    let heading = Array("frame 1 of 24".utf8)
    try #require(
      read(
        until: { bytes in bytes.count >= heading.count && bytes.firstRange(of: heading) != nil },
        within: 60),
      "the first frame is drawn: \(String(decoding: screen, as: UTF8.self).suffix(300))")
    _ = read(until: endsUpdate, within: 5)

    var times: [Double] = []
    for key in Array("123x123x1231".utf8) {
      usleep(150_000)  // a person's pace: the next frame is decoded ahead meanwhile
      _ = read(until: { _ in false }, within: 0.01)  // nothing pending
      screen = []
      let start = Date()
      _ = withUnsafeBytes(of: key) { Glibc.write(master, $0.baseAddress, 1) }
      try #require(read(until: endsUpdate, within: 10), "key \(key) updated the screen")
      times.append(Date().timeIntervalSince(start))
    }
    _ = withUnsafeBytes(of: UInt8(ascii: "q")) { Glibc.write(master, $0.baseAddress, 1) }
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)

    let sorted = times.sorted()
    let median = sorted[sorted.count / 2]
    print(
      "label: key → screen update (ms): "
        + times.map { String(format: "%.1f", $0 * 1000) }.joined(separator: " ")
        + String(format: "; median %.1f, worst %.1f", median * 1000, sorted.last! * 1000))
    #expect(median <= 1.0, "median key → screen \(median * 1000) ms")
  }
}
