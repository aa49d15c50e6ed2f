import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The `stat` of `path`, following links.
func status(_ path: String) -> stat {
  var info = stat()
  stat(path, &info)
  return info
}

/// Opens `path` and takes an exclusive `flock` on it, as a live writer holds its temporary
/// file; close the descriptor to let go.
func lockedDescriptor(_ path: String) -> Int32? {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return nil }
  guard flock(descriptor, LOCK_EX) == 0 else {
    close(descriptor)
    return nil
  }
  return descriptor
}
