import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary files this process has created and not yet renamed or removed, so that an
/// interrupted run (Ctrl-C, `kill`, a closed terminal) leaves none behind.
///
/// Writers create temporary files with `open` here and call `finished` once they have been
/// renamed into place or unlinked. `removeOnTermination()` installs handlers for SIGINT,
/// SIGTERM and SIGHUP that only write the signal number to a pipe (all a handler may safely do);
/// a watcher thread reads it, deletes every listed file, and ends the process with the same
/// signal, so the shell still sees "killed by SIGINT". SIGKILL cannot be caught: files left by
/// it are removed by the next write to the same folder (`MovieStore` under its lock,
/// `AtomicFile` when it can lock the dead writer's file).
public enum TemporaryFiles {
  private static let listed = Locked<Set<String>>([])
  nonisolated(unsafe) private static var pipeWrite: Int32 = -1
  private static let installed = Locked(false)

  /// The signals after which listed files are deleted.
  public static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Creates the temporary file `path` (`open(2)` with `flags`, which should include
  /// `O_CREAT | O_EXCL`) and lists it, as one step: a termination signal either removes it or
  /// comes before it exists, and no file is created once the clean-up has begun.
  /// - Returns: the descriptor, or -1 with `errno` set.
  public static func open(_ path: String, flags: Int32, mode: mode_t = 0o644) -> Int32 {
    listed.withValue { paths in
      let descriptor = Glibc.open(path, flags, mode)
      if descriptor >= 0 { paths.insert(path) }
      return descriptor
    }
  }

  /// Records that `path` has been renamed into place or removed.
  public static func finished(_ path: String) {
    listed.withValue { _ = $0.remove(path) }
  }

  /// Installs the termination handlers (once per process). Commands that show a terminal
  /// player install their own handlers instead and write no temporary files.
  public static func removeOnTermination() {
    let first = installed.withValue { done -> Bool in
      defer { done = true }
      return !done
    }
    guard first else { return }
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return }
    _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
    _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
    pipeWrite = ends[1]
    let readEnd = ends[0]
    let watcher = Thread {
      var signalNumber: Int32 = 0
      while read(readEnd, &signalNumber, MemoryLayout<Int32>.size) < 0 && errno == EINTR {}
      // The list's lock is taken and never given back: the process ends inside it, so no
      // thread can create a temporary file after the clean-up.
      listed.withValue { paths in
        for path in paths { unlink(path) }
        TemporaryFiles.end(by: signalNumber)
      }
    }
    watcher.start()
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for signalNumber in terminationSignals { sigaddset(&unblocked, signalNumber) }
    // A parent may have started us with these blocked; Ctrl-C must still work.
    pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    for signalNumber in terminationSignals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        var value = number
        _ = write(TemporaryFiles.pipeWrite, &value, MemoryLayout<Int32>.size)
      }
      sigemptyset(&action.sa_mask)
      action.sa_flags = SA_RESTART
      sigaction(signalNumber, &action, nil)
    }
  }

  /// Ends the process by `signalNumber` with its default action, as if no handler were set.
  private static func end(by signalNumber: Int32) -> Never {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&action.sa_mask)
    sigaction(signalNumber, &action, nil)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, signalNumber)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    raise(signalNumber)
    _exit(128 + signalNumber)
  }
}
