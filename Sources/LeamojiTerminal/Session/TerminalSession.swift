import LeamojiCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A terminal's size in character cells.
public struct TerminalSize: Equatable, Sendable {
  public var columns: Int
  public var rows: Int
  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }
}

/// Owns the terminal while the player runs: alternate screen, hidden cursor, no autowrap, raw
/// non-blocking input, signal flags — and puts everything back.
///
/// Restoring happens exactly once, whichever comes first: `restore()` (call it on every way
/// out: normal end, q / Esc, a termination signal, a thrown error — e.g. `defer`), `deinit`,
/// the `atexit` hook (a stray `exit()`), or a crash signal. While the session runs it takes
/// SIGINT, SIGTERM and SIGHUP over from `SignalCoordinator`: they only set a flag
/// (`terminationSignal`), and the caller restores and exits with 128 + signal. SIGWINCH sets
/// `takeResize()`. Use one session at a time, from the main thread.
public final class TerminalSession {
  /// How long a lone ESC waits for the rest of an escape sequence before it counts as Esc.
  public static let escapeTimeout = 0.03

  /// The descriptor keys are read from.
  public let inputFD: Int32
  /// Where frames go; counts bytes for `--stats`.
  public let output: TerminalOutput
  private var saved = termios()
  private var restored = false
  /// The session's place among the termination-signal participants, while it runs.
  private var takeOver: SignalCoordinator.Registration? = nil
  /// Input bytes read but not parsed yet (an unfinished escape sequence).
  private var pending: [UInt8] = []

  /// True when both descriptors are terminals (`isatty`); `play` needs this.
  public static func isTerminal(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> Bool
  {
    isatty(input) == 1 && isatty(output) == 1
  }

  /// Takes over the terminal: saves its settings, installs the signal handlers, switches input
  /// to raw mode and sends the alternate-screen / hide-cursor sequences.
  ///
  /// Raw mode is `cfmakeraw` minus two things: output processing stays on (a stray newline
  /// still returns the carriage) and Ctrl-C still raises SIGINT (handled as a flag); the
  /// suspend (Ctrl-Z) and quit (Ctrl-\) characters are disabled, since a stopped or dumped
  /// player would leave the terminal raw. Reads return at once (`VMIN` = `VTIME` = 0).
  /// - Throws: `TerminalError.notATerminal` unless both descriptors are terminals;
  ///   `.sessionAlreadyActive`; `.system` when the terminal cannot be set up (nothing is left
  ///   changed then).
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(TerminalError) {
    inputFD = input
    self.output = TerminalOutput(fd: output)
    restored = true  // nothing to restore until the terminal is ours
    guard Self.isTerminal(input: input, output: output) else { throw .notATerminal }
    guard tcgetattr(input, &saved) == 0 else { throw .system(call: "tcgetattr", errno: errno) }
    guard TerminalSignals.claim() else { throw .sessionAlreadyActive }
    restored = false
    TerminalSignals.prepare(input: input, output: output, saved: saved)
    TerminalSignals.install()
    takeOver = SignalCoordinator.register(.takeOver) { TerminalSignals.noteTermination($0) }
    TerminalSignals.active.store(true, ordering: .releasing)
    do throws(TerminalError) {
      var raw = Self.rawMode(from: saved)
      guard tcsetattr(input, TCSANOW, &raw) == 0 else {
        throw .system(call: "tcsetattr", errno: errno)
      }
      try self.output.write(TerminalEscape.sessionStart)
    } catch {
      restore()
      throw error
    }
  }

  deinit { restore() }

  /// The window size from `ioctl(TIOCGWINSZ)`; nil when the terminal does not say.
  public func size() -> TerminalSize? {
    var ws = winsize()
    guard ioctl(output.fd, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 else {
      return nil
    }
    return TerminalSize(columns: Int(ws.ws_col), rows: Int(ws.ws_row))
  }

  /// The termination signal received while the session ran (SIGINT, SIGTERM or SIGHUP), if
  /// any: leave the loop, `restore()`, exit with `128 + signal`.
  public var terminationSignal: Int32? {
    let signal = TerminalSignals.termination.load(ordering: .relaxed)
    return signal == 0 ? nil : signal
  }

  /// True once after each SIGWINCH (re-read `size()`, resize the canvas).
  public func takeResize() -> Bool {
    TerminalSignals.resized.exchange(false, ordering: .relaxed)
  }

  /// Waits up to `timeout` seconds for input and returns the keys read (often none).
  ///
  /// This is also the player's way to sleep until a frame's deadline: it returns early when a
  /// key arrives or a signal interrupts the wait, so check `terminationSignal` and
  /// `takeResize()` after it. A lone ESC is read as Esc after `escapeTimeout` without more bytes.
  /// - Throws: `TerminalError.system` when the terminal is gone (hang-up, read error).
  public func readKeys(timeout: Double) throws(TerminalError) -> [Key] {
    var keys: [Key] = []
    if try waitForInput(timeout: timeout) { try readAvailable() }
    parsePending(isFinal: false, into: &keys)
    if !pending.isEmpty {
      if try waitForInput(timeout: Self.escapeTimeout) {
        try readAvailable()
        parsePending(isFinal: false, into: &keys)
      }
      if !pending.isEmpty { parsePending(isFinal: true, into: &keys) }
    }
    return keys
  }

  /// Gives the terminal back: default attributes, autowrap, cursor, normal screen, the saved
  /// settings (pending input discarded), the previous signal handlers; then termination
  /// signals end the process again (`SignalCoordinator`). Safe to call repeatedly.
  public func restore() {
    guard !restored else { return }
    restored = true
    if TerminalSignals.active.exchange(false, ordering: .acquiringAndReleasing) {
      try? output.write(TerminalEscape.sessionEnd)
      _ = tcsetattr(inputFD, TCSAFLUSH, &saved)
    }
    TerminalSignals.uninstall()
    takeOver?.cancel()
    takeOver = nil
    TerminalSignals.release()
  }

  // MARK: - Input

  private func parsePending(isFinal: Bool, into keys: inout [Key]) {
    let (parsed, used) = KeyParser.parse(pending, isFinal: isFinal)
    keys += parsed
    pending.removeFirst(used)
  }

  /// `poll` for input (and the signal wake pipe); false on timeout or when a signal arrived.
  private func waitForInput(timeout: Double) throws(TerminalError) -> Bool {
    let milliseconds =
      timeout.isFinite ? Int32(min(max(0, (timeout * 1000).rounded(.up)), 60_000)) : 0
    var fds = [
      pollfd(fd: inputFD, events: Int16(POLLIN), revents: 0),
      pollfd(fd: TerminalSignals.wakeRead, events: Int16(POLLIN), revents: 0),
    ]
    let n = poll(&fds, nfds_t(fds.count), milliseconds)
    if n < 0 {
      if errno == EINTR || errno == EAGAIN { return false }
      throw .system(call: "poll", errno: errno)
    }
    if fds[1].revents & Int16(POLLIN) != 0 {
      var drain = [UInt8](repeating: 0, count: 64)
      while drain.withUnsafeMutableBytes({
        read(TerminalSignals.wakeRead, $0.baseAddress, $0.count)
      }) > 0 {}
    }
    let input = fds[0].revents
    if input & Int16(POLLIN) != 0 { return true }
    if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
      throw .system(call: "poll", errno: EIO)  // the terminal is gone
    }
    return false
  }

  private func readAvailable() throws(TerminalError) {
    var buffer = [UInt8](repeating: 0, count: 256)
    let n = buffer.withUnsafeMutableBytes { read(inputFD, $0.baseAddress, $0.count) }
    if n > 0 {
      pending += buffer[0..<n]
    } else if n < 0 && errno != EINTR && errno != EAGAIN {
      throw .system(call: "read", errno: errno)
    }
  }

  /// `saved` with the raw-mode changes described at `init`.
  static func rawMode(from saved: termios) -> termios {
    var raw = saved
    raw.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | IEXTEN)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 0
      cc[Int(VTIME)] = 0
      cc[Int(VSUSP)] = 0  // _POSIX_VDISABLE on Linux
      cc[Int(VQUIT)] = 0
    }
    return raw
  }
}
