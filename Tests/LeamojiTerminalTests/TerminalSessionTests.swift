import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiCore
@testable import LeamojiTerminal

// The pty functions need _XOPEN_SOURCE, which the Glibc module does not define: look them up.
private func libc<T>(_ name: String, as type: T.Type) -> T {
  guard let symbol = dlsym(nil, name) else { fatalError("libc has no \(name)") }
  return unsafeBitCast(symbol, to: type)
}
private let posix_openpt = libc("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
private let grantpt = libc("grantpt", as: (@convention(c) (Int32) -> Int32).self)
private let unlockpt = libc("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
private let ptsname = libc(
  "ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)

/// A pseudo-terminal pair: the session gets the terminal side, the test plays the user.
final class PseudoTerminal {
  let master: Int32
  let slave: Int32

  init() throws {
    master = posix_openpt(O_RDWR | O_NOCTTY)
    guard master >= 0, grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master)
    else {
      throw TerminalError.system(call: "posix_openpt", errno: errno)
    }
    slave = open(name, O_RDWR | O_NOCTTY)
    guard slave >= 0 else { throw TerminalError.system(call: "open", errno: errno) }
    _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    close(slave)
    close(master)
  }

  /// Types `bytes` as the user.
  func type(_ bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// What the program wrote, read until `expected` shows up or `seconds` pass.
  func screenBytes(until expected: [UInt8], within seconds: Double = 1) -> [UInt8] {
    var all: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = MonotonicClock().now() + seconds
    while MonotonicClock().now() < deadline {
      let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
      if n > 0 { all += buffer[0..<n] } else { usleep(2_000) }
      if all.count >= expected.count, Array(all.suffix(expected.count)) == expected { break }
    }
    return all
  }

  func setSize(columns: Int, rows: Int) {
    var ws = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &ws)
  }

  func settings() -> termios {
    var t = termios()
    tcgetattr(slave, &t)
    return t
  }
}

/// Signal handlers are process-wide and only one session may run: these tests run one at a time.
@Suite("Terminal session", .serialized)
struct TerminalSessionTests {
  /// How long a signal may take to be handled (on some thread): generous, since a loaded 2-core
  /// machine can leave the signal thread unscheduled for a second; this checks that it happens,
  /// not how fast (CI runs this beside tmux and decoding tests).
  static let signalWait = 30.0

  @Test("not a terminal: a pipe is refused before anything changes")
  func notATerminal() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    #expect(!TerminalSession.isTerminal(input: fds[0], output: fds[1]))
    #expect(throws: TerminalError.notATerminal) {
      try TerminalSession(input: fds[0], output: fds[1])
    }
  }

  @Test(
    "start: alternate screen, hidden cursor, raw input with signals kept; restore undoes it all")
  func startAndRestore() throws {
    let pty = try PseudoTerminal()
    let before = pty.settings()
    var previous = sigaction()
    sigaction(SIGWINCH, nil, &previous)
    let takersBefore = SignalCoordinator.shared.count(.takeOver)
    let session = try TerminalSession(input: pty.slave, output: pty.slave)
    // Termination signals are taken over from the coordinator, not handled by the session.
    #expect(SignalCoordinator.shared.count(.takeOver) == takersBefore + 1)
    #expect(pty.screenBytes(until: TerminalEscape.sessionStart) == TerminalEscape.sessionStart)
    let raw = pty.settings()
    #expect(raw.c_lflag & tcflag_t(ICANON | ECHO) == 0)
    #expect(raw.c_lflag & tcflag_t(ISIG) != 0)  // Ctrl-C still raises SIGINT
    #expect(raw.c_oflag & tcflag_t(OPOST) != 0)  // output processing stays on
    #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
    #expect(throws: TerminalError.sessionAlreadyActive) {
      try TerminalSession(input: pty.slave, output: pty.slave)
    }

    session.restore()
    #expect(pty.screenBytes(until: TerminalEscape.sessionEnd) == TerminalEscape.sessionEnd)
    let after = pty.settings()
    #expect(
      after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag
        && after.c_oflag == before.c_oflag)
    var now = sigaction()
    sigaction(SIGWINCH, nil, &now)
    #expect(
      unsafeBitCast(now.__sigaction_handler, to: Int.self)
        == unsafeBitCast(previous.__sigaction_handler, to: Int.self))
    #expect(SignalCoordinator.shared.count(.takeOver) == takersBefore)
    session.restore()  // idempotent: nothing more is written
    #expect(pty.screenBytes(until: [0xFF], within: 0.1).isEmpty)
    // The terminal is free again.
    let next = try TerminalSession(input: pty.slave, output: pty.slave)
    next.restore()
  }

  @Test("keys typed on the terminal: q, arrows, a lone Esc after its timeout")
  func keys() throws {
    let pty = try PseudoTerminal()
    let session = try TerminalSession(input: pty.slave, output: pty.slave)
    defer { session.restore() }
    let none = try session.readKeys(timeout: 0)
    #expect(none == [])
    pty.type(Array("q".utf8))
    let q = try session.readKeys(timeout: 1)
    #expect(q == [.quit])
    pty.type(Array("\u{1B}[C \u{1B}OD".utf8))
    let arrows = try session.readKeys(timeout: 1)
    #expect(arrows == [.right, .space, .left])
    pty.type([0x1B])
    let start = MonotonicClock().now()
    let escape = try session.readKeys(timeout: 1)
    #expect(escape == [.escape])
    #expect(MonotonicClock().now() - start >= TerminalSession.escapeTimeout * 0.9)
  }

  @Test("window size from TIOCGWINSZ; SIGWINCH and SIGTERM (via the coordinator) only set flags")
  func sizeAndSignals() throws {
    let pty = try PseudoTerminal()
    pty.setSize(columns: 120, rows: 40)
    let session = try TerminalSession(input: pty.slave, output: pty.slave)
    defer { session.restore() }
    #expect(session.size() == TerminalSize(columns: 120, rows: 40))
    #expect(!session.takeResize())
    pty.setSize(columns: 80, rows: 24)
    kill(getpid(), SIGWINCH)
    #expect(
      eventually(within: Self.signalWait) { session.takeResize() }, "SIGWINCH sets the resize flag")
    #expect(!session.takeResize())
    #expect(session.size() == TerminalSize(columns: 80, rows: 24))
    #expect(session.terminationSignal == nil)
    kill(getpid(), SIGTERM)  // the handler only records it; the loop decides
    #expect(
      eventually(within: Self.signalWait) { session.terminationSignal == SIGTERM },
      "SIGTERM handed over")
    // A wait for keys is cut short by a signal (handled on any thread) rather than sleeping on.
    _ = try session.readKeys(timeout: 0)  // drain the wake-ups of the signals above first
    let start = MonotonicClock().now()
    kill(getpid(), SIGINT)
    let keys = try session.readKeys(timeout: 60)
    #expect(keys.isEmpty)
    #expect(
      eventually(within: Self.signalWait) { session.terminationSignal == SIGINT },
      "SIGINT handed over")
    #expect(MonotonicClock().now() - start < 30, "cut short, not the full 60 s")
  }
}
