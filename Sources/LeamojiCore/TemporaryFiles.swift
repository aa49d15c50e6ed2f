import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary files this process has created and not yet renamed or removed, so that an
/// interrupted run (Ctrl-C, `kill`, a closed terminal) leaves none behind.
///
/// Writers call `created` right after making a temporary file and `finished` once it has been
/// renamed into place or unlinked. `removeOnTermination()` installs handlers for SIGINT,
/// SIGTERM and SIGHUP that only write the signal number to a pipe (all a handler may safely do);
/// a watcher thread reads it, deletes every listed file, and ends the process with the same
/// signal, so the shell still sees "killed by SIGINT". SIGKILL cannot be caught: files left by
/// it are removed by the next write to the same folder (`MovieStore` does this under its lock).
public enum TemporaryFiles {
  private static let listed = Locked<Set<String>>([])
  nonisolated(unsafe) private static var pipeWrite: Int32 = -1
  private static let installed = Locked(false)

  /// The signals after which listed files are deleted.
  public static let terminationSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// Records that `path` is a temporary file of this process.
  public static func created(_ path: String) {
    listed.withValue { _ = $0.insert(path) }
  }

  /// Records that `path` has been renamed into place or removed.
  public static func finished(_ path: String) {
    listed.withValue { _ = $0.remove(path) }
  }

  /// The files listed now (for tests and diagnostics).
  public static var current: Set<String> { listed.withValue { $0 } }

  /// Deletes every listed file and empties the list.
  public static func removeAll() {
    listed.withValue { paths in
      for path in paths { unlink(path) }
      paths.removeAll()
    }
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
      TemporaryFiles.removeAll()
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
    watcher.start()
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
}
