import Foundation
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// The POSIX file operations behind `MovieStore`: whole-file reads, an advisory lock, and an
/// atomic replace (temporary file in the same folder, `fsync`, `rename`, `fsync` of the folder).
/// Errors are plain strings (`strerror` text); the store adds the path.
enum FileIO {
  /// A step of `replace` that tests can make fail, to check the clean-up paths without a full
  /// disk or a read-only folder (root ignores permissions).
  enum Step: Hashable, Sendable { case createTemporary, write, sync, rename }

  /// An error from one of the operations: which operation and the system's reason.
  struct Failure: Error {
    var message: String
  }

  /// The text of an `errno` value, e.g. "No space left on device".
  static func text(_ code: Int32) -> String { String(cString: strerror(code)) }

  /// The whole file, or nil when it does not exist.
  static func readIfPresent(_ path: String) throws(Failure) -> [UInt8]? {
    let descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC) }
    if descriptor < 0 {
      let code = errno
      if code == ENOENT { return nil }
      throw Failure(message: "cannot open: \(text(code))")
    }
    defer { close(descriptor) }
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      throw Failure(message: "is a folder, not a file")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(message: "cannot read: \(text(errno))")
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Opens (creating if needed) `path` and takes an exclusive `flock` on it, waiting for other
  /// holders. The lock belongs to the returned descriptor; closing it releases the lock (and the
  /// system releases it when a process dies, so a killed run never leaves it held).
  static func lock(_ path: String) throws(Failure) -> Int32 {
    var descriptor = retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666) }
    if descriptor < 0 && errno == EACCES {
      // Someone else's lock file that we may not write: flock needs only a read descriptor.
      descriptor = retrying { open(path, O_RDONLY | O_CLOEXEC) }
    }
    if descriptor < 0 { throw Failure(message: "cannot create the lock file \(path): \(text(errno))") }
    if retrying({ flock(descriptor, LOCK_EX) }) != 0 {
      let code = errno
      close(descriptor)
      throw Failure(message: "cannot lock \(path): \(text(code))")
    }
    return descriptor
  }

  /// Replaces `target` with `bytes` so that readers see the old or the new content, never a mix,
  /// even after a crash. The temporary file gets the existing file's permissions (and owner, when
  /// allowed); on any failure it is removed and `target` is left as it was.
  static func replace(
    _ target: String, with bytes: [UInt8], temporary: String, failing: Set<Step> = []
  ) throws(Failure) {
    var existing = stat()
    let exists = stat(target, &existing) == 0
    let descriptor: Int32 =
      failing.contains(.createTemporary)
      ? { errno = EACCES; return -1 }()
      : retrying { TemporaryFiles.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o666) }
    if descriptor < 0 { throw Failure(message: "cannot create a temporary file: \(text(errno))") }
    defer { TemporaryFiles.finished(temporary) }
    var failure: String? = nil
    if exists {
      _ = fchmod(descriptor, existing.st_mode & 0o7777)
      _ = fchown(descriptor, existing.st_uid, existing.st_gid)
    }
    if failing.contains(.write) {
      failure = "cannot write: \(text(ENOSPC))"
    } else if let code = FileDescriptor.writeAll(bytes, to: descriptor) {
      failure = "cannot write: \(text(code))"
    }
    if failure == nil {
      if failing.contains(.sync) {
        failure = "cannot flush to disk: \(text(EIO))"
      } else if retrying({ fsync(descriptor) }) != 0 {
        failure = "cannot flush to disk: \(text(errno))"
      }
    }
    if close(descriptor) != 0, failure == nil { failure = "cannot write: \(text(errno))" }
    if failure == nil {
      if failing.contains(.rename) {
        failure = "cannot replace the file: \(text(EXDEV))"
      } else if rename(temporary, target) != 0 {
        failure = "cannot replace the file: \(text(errno))"
      }
    }
    if let failure {
      unlink(temporary)
      throw Failure(message: failure)
    }
    syncFolder(of: target)
  }

  /// Flushes the folder entry of a renamed file. Best effort: some file systems cannot sync a
  /// folder, and the new content is already in place at this point.
  static func syncFolder(of path: String) {
    let folder = folderPath(of: path)
    let descriptor = retrying { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard descriptor >= 0 else { return }
    _ = retrying { fsync(descriptor) }
    close(descriptor)
  }

  /// The path a chain of symbolic links at `path` leads to (even when the final file does not
  /// exist yet); `path` itself when it is not a link. Gives up after 32 links (a loop).
  static func followingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<32 {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length > 0 else { return current }
      let destination = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current = destination.hasPrefix("/") ? destination : folderPath(of: current) + "/" + destination
    }
    return current
  }

  /// Names in `folder` (nothing when it cannot be listed).
  static func names(in folder: String) -> [String] {
    (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
  }

  /// Removes a regular file; returns whether it did.
  @discardableResult
  static func removeFile(_ path: String) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
    return unlink(path) == 0
  }

  /// Whether `path` is an existing folder.
  static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// The folder part of a path ("." for a bare file name).
  static func folderPath(of path: String) -> String {
    let folder = (path as NSString).deletingLastPathComponent
    return folder.isEmpty ? "." : folder
  }

  /// Repeats a system call interrupted by a signal.
  private static func retrying(_ call: () -> Int32) -> Int32 {
    while true {
      let result = call()
      if result >= 0 || errno != EINTR { return result }
    }
  }
}
