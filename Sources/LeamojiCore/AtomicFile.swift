import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes files so that readers see either the old content or the complete new content, never
/// a half-written file: the bytes go to a temporary file in the same folder, are flushed to
/// disk, and the temporary file is renamed over the target.
///
/// Temporary files are named `.<name>.leamoji-<pid>-<random>.tmp` and their writer holds an
/// exclusive `flock` on them until they are renamed or removed. A process killed mid-write
/// (kill -9, power loss) leaves its temporary file behind, unlocked: the first `write` of a later
/// process into the same folder removes every such file that it can lock, so leftovers do not
/// accumulate, and a file that another process is still writing is never touched.
public enum AtomicFile {
  /// Why a file could not be written; one line naming the file.
  public struct WriteError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): cannot write (\(reason))" }
  }

  /// Replaces (or creates) the file at `path` with `bytes`.
  /// - Parameter replace: when false, an existing file at `path` is an error and stays as it is.
  public static func write(_ bytes: [UInt8], to path: String, replace: Bool = true) throws(WriteError) {
    if !replace, access(path, F_OK) == 0 {
      throw WriteError(path: path, reason: "the file already exists")
    }
    let directory = (path as NSString).deletingLastPathComponent
    let name = (path as NSString).lastPathComponent
    removeStaleTemporaryFiles(in: directory.isEmpty ? "." : directory)
    let (descriptor, temporary) = try createTemporary(for: path, directory: directory, name: name)
    // Listed (TemporaryFiles) so that SIGINT, SIGTERM or SIGHUP removes it; SIGKILL leaves it
    // to the next writer's sweep.
    defer { TemporaryFiles.finished(temporary) }
    var failure = FileDescriptor.writeAll(bytes, to: descriptor).map { String(cString: strerror($0)) }
    if failure == nil, fsync(descriptor) != 0 { failure = lastErrorText() }
    if failure == nil, !replace, access(path, F_OK) == 0 { failure = "the file already exists" }
    if failure == nil, rename(temporary, path) != 0 { failure = lastErrorText() }
    if failure != nil { unlink(temporary) }
    // Closing releases the lock; the temporary name is gone by now (renamed or removed).
    close(descriptor)
    if let failure { throw WriteError(path: path, reason: failure) }
  }

  // MARK: - Temporary files

  private static let marker = ".leamoji-"

  /// Creates a new temporary file beside `path` and locks it. A sweeper in another process may
  /// remove the new file between `open` and `flock` (it was not locked yet); then the file is no
  /// longer at its name once we hold the lock, and another name is tried.
  private static func createTemporary(
    for path: String, directory: String, name: String
  ) throws(WriteError) -> (Int32, String) {
    let prefix = (directory.isEmpty ? "" : directory + "/") + "." + name + marker + "\(getpid())-"
    for _ in 0..<16 {
      let temporary = prefix + String(UInt64.random(in: .min ... .max), radix: 16) + ".tmp"
      let descriptor = TemporaryFiles.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC)
      if descriptor < 0 {
        if errno == EEXIST || errno == EINTR { continue }
        throw WriteError(path: path, reason: lastErrorText())
      }
      var locked = flock(descriptor, LOCK_EX)
      while locked != 0 && errno == EINTR { locked = flock(descriptor, LOCK_EX) }
      // Without lock support (some network file systems) sweepers cannot lock it either, so
      // they leave it alone: go on unlocked.
      if locked != 0 || isStillNamed(descriptor, temporary) { return (descriptor, temporary) }
      TemporaryFiles.finished(temporary)
      close(descriptor)
    }
    throw WriteError(path: path, reason: "cannot create a temporary file in \(directory.isEmpty ? "." : directory)")
  }

  /// Folders already swept by this process: leftovers come from processes that died, so one
  /// sweep per folder and process is enough (and `frames` writing thousands of files into one
  /// folder lists it once, not once per file).
  private static let swept = Locked<Set<String>>([])

  /// Removes the temporary files in `folder` that no live writer holds locked. Best effort.
  static func removeStaleTemporaryFiles(in folder: String) {
    guard swept.withValue({ $0.insert(folder).inserted }) else { return }
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
    for name in names where isTemporaryName(name) {
      let path = folder + "/" + name
      let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      // Locked: someone is writing it. Not lockable at all: leave it too.
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, isStillNamed(descriptor, path) {
          unlink(path)
        }
      }
      close(descriptor)
    }
  }

  /// Whether `name` is one of our temporary files: `.<name>.leamoji-<pid>-<hex>.tmp`.
  static func isTemporaryName(_ name: String) -> Bool {
    guard name.hasPrefix("."), name.hasSuffix(".tmp"), let range = name.range(of: marker, options: .backwards) else {
      return false
    }
    let parts = name[range.upperBound..<name.index(name.endIndex, offsetBy: -4)].split(separator: "-", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isNumber }
      && !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isHexDigit }
  }

  /// Whether `path` still names the file open as `descriptor`.
  private static func isStillNamed(_ descriptor: Int32, _ path: String) -> Bool {
    var open = stat()
    var named = stat()
    return fstat(descriptor, &open) == 0 && lstat(path, &named) == 0
      && open.st_dev == named.st_dev && open.st_ino == named.st_ino
  }

  private static func lastErrorText() -> String { String(cString: strerror(errno)) }
}
