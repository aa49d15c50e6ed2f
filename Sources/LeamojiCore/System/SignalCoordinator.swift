import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The one owner of SIGINT, SIGTERM and SIGHUP in the process. Parts of the program that must
/// act on them register as participants instead of installing handlers of their own:
///
/// * `.cleanUp` participants (temporary-file clean-up) run when a termination signal is about
///   to end the process; then the process ends by that signal, as if no handler were set, so a
///   shell still sees "killed by SIGINT" (status 130).
/// * `.takeOver` participants (the terminal session) keep the process alive: while one is
///   registered, a termination signal is only handed to them. Each must then wind its work
///   down and end the process itself; the player restores the terminal and exits with
///   128 + signal.
///
/// So a command registers both and needs no choice in `main`: `play` analysing a video first
/// (writing files) cleans up and ends on Ctrl-C, and once it plays, Ctrl-C goes to the player.
///
/// The handler itself only writes the signal number to a pipe (all a handler may safely do);
/// a watcher thread reads it and calls the participants, so they may take locks and allocate.
/// Handlers are installed with the first registration and stay for the life of the process;
/// other signals (SIGWINCH, crashes) are not the coordinator's. A SIGHUP that the process was
/// started ignoring (`nohup leamoji …`) stays ignored.
public enum SignalCoordinator {
  /// The signals the coordinator owns.
  public static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// What a participant does with a termination signal.
  public enum Role: Sendable {
    /// Cleans up before the process ends by the signal. Must be quick and must not wait for
    /// other threads (they keep running meanwhile).
    case cleanUp
    /// Takes the signal over: the process is not ended; the participant is told the signal
    /// and ends the process itself.
    case takeOver
  }

  /// A registered participant; `cancel()` removes it.
  public final class Registration: Sendable {
    private let id: UInt64
    private let participants: SignalParticipants

    init(id: UInt64, participants: SignalParticipants) {
      self.id = id
      self.participants = participants
    }

    /// Removes the participant: once this returns, its action is not called again.
    public func cancel() { participants.remove(id) }
  }

  /// Registers `action` for termination signals in `role`, installing the handlers first if
  /// this is the first registration. `action` runs on the coordinator's thread with the signal.
  @discardableResult
  public static func register(
    _ role: Role, _ action: @escaping @Sendable (Int32) -> Void
  ) -> Registration {
    installOnce()
    return shared.add(role, action)
  }

  static let shared = SignalParticipants()
  private static let installed = Locked(false)
  nonisolated(unsafe) private static var pipeWrite: Int32 = -1

  /// Creates the pipe and the watcher thread, unblocks the signals and installs the handlers.
  private static func installOnce() {
    installed.withValue { done in
      guard !done else { return }
      done = true
      var ends: [Int32] = [-1, -1]
      guard pipe(&ends) == 0 else { return }
      for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      // A handler must never block: with a full pipe (thousands of unread signals) it drops one.
      _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
      pipeWrite = ends[1]
      let readEnd = ends[0]
      DetachedThread.start { watch(readEnd) }
      var unblocked = sigset_t()
      sigemptyset(&unblocked)
      for signal in terminationSignals { sigaddset(&unblocked, signal) }
      // A parent may have started us with these blocked; Ctrl-C must still work.
      pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
      for signal in terminationSignals {
        // `nohup` starts a program with SIGHUP ignored so that it outlives the terminal: keep
        // it ignored (the hang-up then ends nothing and cleans nothing, as the user asked).
        if signal == SIGHUP && isIgnored(signal) { continue }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        // Interrupted reads and writes resume (a writer must not fail with EINTR while the
        // watcher ends the process); `poll` is never resumed, and participants that wait in
        // it get a wake-up byte of their own anyway.
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, nil)
      }
    }
  }

  /// Whether `signal`'s disposition is "ignore" (inherited through exec, as `nohup` sets it).
  static func isIgnored(_ signal: Int32) -> Bool {
    var current = sigaction()
    sigaction(signal, nil, &current)
    return unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
      == unsafeBitCast(SIG_IGN, to: Int.self)
  }

  /// The handler: the signal number into the pipe, errno preserved. Nothing else.
  private static let handler: @convention(c) (Int32) -> Void = { signal in
    let savedErrno = errno
    var value = signal
    _ = write(SignalCoordinator.pipeWrite, &value, MemoryLayout<Int32>.size)
    errno = savedErrno
  }

  /// The watcher thread: each signal goes to the participants; when none takes it over, the
  /// clean-ups have run and the process ends by the signal.
  private static func watch(_ readEnd: Int32) {
    while true {
      var signal: Int32 = 0
      let count = read(readEnd, &signal, MemoryLayout<Int32>.size)
      if count < 0 && errno == EINTR { continue }
      guard count == MemoryLayout<Int32>.size else { return }
      if shared.dispatch(signal, keepLockedWhenEnding: true) == .ending { end(by: signal) }
    }
  }

  /// Ends the process by `signal` with its default action, as if no handler were set.
  static func end(by signal: Int32) -> Never {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    sigaction(signal, &action, nil)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, signal)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    raise(signal)
    _exit(128 + signal)
  }
}

/// The registered participants and what a signal does to them; the coordinator's logic apart
/// from the system calls (tests make their own).
final class SignalParticipants: @unchecked Sendable {
  private struct Entry {
    let id: UInt64
    let role: SignalCoordinator.Role
    let action: @Sendable (Int32) -> Void
  }

  private let lock = ThreadLock()
  private var entries: [Entry] = []
  private var nextID: UInt64 = 0

  /// What `dispatch` decided.
  enum Outcome: Equatable { case takenOver, ending }

  @discardableResult
  func add(_ role: SignalCoordinator.Role, _ action: @escaping @Sendable (Int32) -> Void)
    -> SignalCoordinator.Registration
  {
    lock.lock()
    defer { lock.unlock() }
    nextID += 1
    entries.append(Entry(id: nextID, role: role, action: action))
    return SignalCoordinator.Registration(id: nextID, participants: self)
  }

  func remove(_ id: UInt64) {
    lock.lock()
    entries.removeAll { $0.id == id }
    lock.unlock()
  }

  /// The number of participants in `role`.
  func count(_ role: SignalCoordinator.Role) -> Int {
    lock.lock()
    defer { lock.unlock() }
    return entries.filter { $0.role == role }.count
  }

  /// Hands `signal` to every `.takeOver` participant, if there is one (`.takenOver`); otherwise
  /// runs every `.cleanUp` participant in registration order (`.ending`: the caller ends the
  /// process). Actions run under the lock, so a participant cancelled meanwhile is not called.
  /// - Parameter keepLockedWhenEnding: keep the lock for good after the clean-ups, so that no
  ///   participant registers while the process ends (a terminal session starting then would
  ///   change the terminal for nobody to restore).
  func dispatch(_ signal: Int32, keepLockedWhenEnding: Bool) -> Outcome {
    lock.lock()
    let takers = entries.filter { $0.role == .takeOver }
    if !takers.isEmpty {
      for taker in takers { taker.action(signal) }
      lock.unlock()
      return .takenOver
    }
    for entry in entries where entry.role == .cleanUp { entry.action(signal) }
    if !keepLockedWhenEnding { lock.unlock() }
    return .ending
  }
}
