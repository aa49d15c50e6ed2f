#if canImport(Glibc)
  import Glibc
#endif

/// An exclusive advisory lock (`flock`) on a lock file, held from `acquire` until `release()`
/// (or until the value goes away). The system drops the lock when the process dies, so a killed
/// run never leaves it held. The lock file itself stays: deleting it would let two processes
/// lock different files under one name.
///
/// A `flock` belongs to an open file description: two `FileLock`s on one path exclude each
/// other even within one process.
public final class FileLock {
  /// The lock file.
  public let path: String
  private var descriptor: Int32

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { release() }

  /// Opens (creating if needed) the lock file `path` and waits until this process holds the
  /// lock on it.
  /// - Parameter naming: the file the lock protects, named in errors (default: `path`).
  /// - Throws: `DurableFileError` naming `naming`, e.g.
  ///   `cannot create the lock file .x.lock: Permission denied`.
  public static func acquire(_ path: String, naming: String? = nil) throws(DurableFileError)
    -> FileLock
  {
    let named = naming ?? path
    var descriptor = retryingInterrupted { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666) }
    if descriptor < 0 && errno == EACCES {
      // Someone else's lock file that we may not write: flock needs only a read descriptor.
      descriptor = retryingInterrupted { open(path, O_RDONLY | O_CLOEXEC) }
    }
    if descriptor < 0 {
      let reason = DurableFileError.systemReason(errno)
      throw .other(named, "cannot create the lock file \(path): \(reason)", reason: reason)
    }
    if retryingInterrupted({ flock(descriptor, LOCK_EX) }) != 0 {
      let reason = DurableFileError.systemReason(errno)
      close(descriptor)
      throw .other(named, "cannot lock \(path): \(reason)", reason: reason)
    }
    return FileLock(path: path, descriptor: descriptor)
  }

  /// Gives the lock up. Safe to call more than once.
  public func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }
}

/// Repeats a system call that a signal interrupted (`EINTR`).
func retryingInterrupted(_ call: () -> Int32) -> Int32 {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}
