import LeamojiCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Process-wide state shared between a `TerminalSession`, its signal handlers and the `atexit`
/// hook. One session at a time; set up and torn down from the main thread.
///
/// SIGINT, SIGTERM and SIGHUP belong to `SignalCoordinator`: the session registers with it to
/// take them over, and `noteTermination` (on the coordinator's thread) records the signal and
/// wakes the player's `poll`; the main loop sees the flag and restores the terminal itself.
/// The session's own handlers: SIGWINCH only stores into an atomic (and writes one byte to the
/// wake pipe); a crash signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT), after which no main
/// loop will run, restores the terminal with async-signal-safe calls only (`write`,
/// `tcsetattr`, from data prepared in advance), puts the previous handler back and returns, so
/// the fault repeats and the runtime's own crash report (or the default action) follows.
enum TerminalSignals {
  /// The last termination signal handed over (SIGINT, SIGTERM or SIGHUP); 0 for none.
  static let termination = Atomic<Int32>(0)
  /// Set by SIGWINCH, cleared by `TerminalSession.takeResize()`.
  static let resized = Atomic<Bool>(false)
  /// True while a session has changed the terminal and not restored it yet.
  static let active = Atomic<Bool>(false)
  /// True from a session's start to the end of its `restore()`: one session at a time.
  private static let owned = Atomic<Bool>(false)
  private static let atexitRegistered = Atomic<Bool>(false)

  /// What the crash handler and the `atexit` hook need to restore the terminal. Written only
  /// while `active` is false, read only after `active` was seen true.
  struct Record {
    var inputFD: Int32 = 0
    var outputFD: Int32 = 1
    var saved = termios()
    var endBytes: UnsafeMutablePointer<UInt8>? = nil
    var endCount = 0
  }
  nonisolated(unsafe) static var record = Record()

  /// A pipe the flag handlers write one byte to, so that a `poll` waiting for keys on any
  /// thread wakes up at once (the "self-pipe" trick); created once, non-blocking both ends.
  nonisolated(unsafe) static var wakeRead: Int32 = -1
  nonisolated(unsafe) private(set) static var wakeWrite: Int32 = -1

  static let flagSignals: [Int32] = [SIGWINCH]
  static let crashSignals: [Int32] = {
    var signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT]
    #if arch(arm64)
      signals.append(SIGTRAP)  // Swift traps are `brk` here, `ud2` (SIGILL) on x86-64
    #endif
    return signals
  }()
  /// The handlers in place before `install`, indexed by signal number.
  nonisolated(unsafe) private static var previous: UnsafeMutablePointer<sigaction> = {
    let table = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    table.initialize(repeating: sigaction(), count: 65)
    return table
  }()

  /// Makes the caller the one session; false when another one is running.
  static func claim() -> Bool {
    owned.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
      .exchanged
  }

  /// Ends the claim taken by `claim()`.
  static func release() {
    owned.store(false, ordering: .releasing)
  }

  /// Prepares the restore record for a session on `input` / `output` with the saved `termios`.
  static func prepare(input: Int32, output: Int32, saved: termios) {
    if record.endBytes == nil {
      let bytes = TerminalEscape.sessionEnd
      let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count)
      buffer.initialize(from: bytes, count: bytes.count)
      record.endBytes = buffer
      record.endCount = bytes.count
    }
    record.inputFD = input
    record.outputFD = output
    record.saved = saved
    if wakeRead < 0 {
      var fds: [Int32] = [-1, -1]
      if pipe(&fds) == 0 {
        for fd in fds {
          _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
          _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
      }
    }
    if !atexitRegistered.exchange(true, ordering: .relaxed) {
      atexit { TerminalSignals.restoreNow() }
    }
  }

  /// Records a termination signal handed over by `SignalCoordinator` and wakes a waiting
  /// `poll` (one byte into the wake pipe).
  static func noteTermination(_ signal: Int32) {
    termination.store(signal, ordering: .relaxed)
    var byte: UInt8 = 1
    _ = write(wakeWrite, &byte, 1)
  }

  /// Installs the resize handler and the crash handlers, remembering the previous ones.
  static func install() {
    termination.store(0, ordering: .relaxed)
    resized.store(false, ordering: .relaxed)
    _ = previous  // initialise before any handler can run
    for signal in flagSignals + crashSignals {
      let handler: @convention(c) (Int32) -> Void =
        crashSignals.contains(signal) ? crashHandler : flagHandler
      var action = makeAction(handler)
      sigaction(signal, &action, previous + Int(signal))
    }
  }

  /// Puts back the handlers that were there before `install`.
  static func uninstall() {
    for signal in flagSignals + crashSignals {
      sigaction(signal, previous + Int(signal), nil)
    }
  }

  /// Restores the terminal from `record` with async-signal-safe calls, once (whoever flips
  /// `active` first does it): the crash handler and the `atexit` hook.
  static func restoreNow() {
    guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
    if let bytes = record.endBytes {
      var offset = 0
      while offset < record.endCount {
        let n = write(record.outputFD, bytes + offset, record.endCount - offset)
        if n > 0 {
          offset += n
        } else if n < 0 && errno == EINTR {
          continue
        } else {
          break
        }
      }
    }
    var saved = record.saved
    _ = tcsetattr(record.inputFD, TCSAFLUSH, &saved)
  }
}

/// SIGWINCH: remember the resize, then one byte into the wake pipe (async-signal-safe `write`,
/// errno preserved). Nothing else.
private let flagHandler: @convention(c) (Int32) -> Void = { _ in
  TerminalSignals.resized.store(true, ordering: .relaxed)
  let savedErrno = errno
  var byte: UInt8 = 1
  _ = write(TerminalSignals.wakeWrite, &byte, 1)
  errno = savedErrno
}

/// A crash: restore the terminal, put the previous handler back, return to fault again.
private let crashHandler: @convention(c) (Int32) -> Void = { signal in
  TerminalSignals.restoreNow()
  TerminalSignals.restorePrevious(signal)
}

extension TerminalSignals {
  fileprivate static func restorePrevious(_ signal: Int32) {
    sigaction(signal, previous + Int(signal), nil)
  }
}

/// A `sigaction` running `handler`, no flags (so blocking calls return `EINTR` and the main
/// loop gets to look at the flags), nothing blocked.
private func makeAction(_ handler: @escaping @convention(c) (Int32) -> Void) -> sigaction {
  var action = sigaction()
  #if canImport(Darwin)
    action.__sigaction_u.__sa_handler = handler
  #elseif canImport(Musl)
    action.__sa_handler.sa_handler = handler
  #else
    action.__sigaction_handler.sa_handler = handler
  #endif
  sigemptyset(&action.sa_mask)
  action.sa_flags = 0
  return action
}
