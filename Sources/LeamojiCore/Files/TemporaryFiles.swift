import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// The temporary files of `DurableFile`: one naming rule, creation, the list of the ones this
/// process has open, and the sweep of the ones dead writers left behind.
///
/// * Name: `.<name>.leamoji-<pid>-<16 hex digits>.tmp` beside the target `<name>` (the name
///   part is shortened when the whole would pass the system's 255-byte limit).
/// * A writer holds an exclusive `flock` on its temporary file from creation until it has
///   renamed or removed it. The system drops the lock when the writer dies, so an unlocked
///   temporary file is one whose writer is gone (killed by SIGKILL, power loss): stale.
/// * Listed from creation to rename or removal, so that a termination signal removes them
///   (`removeAllForTermination`).
final class TemporaryFiles: @unchecked Sendable {
  /// The list of this process; `DurableFile` uses it.
  static let shared = TemporaryFiles()

  private let lock = ThreadLock()
  private var listed: Set<String> = []

  /// `.leamoji-`: what every temporary name has between the target's name and the pid.
  static let marker = ".leamoji-"

  // MARK: - Naming

  /// A new temporary name for the file `name` (no folder), for process `pid`.
  static func name(for name: String, pid: Int32 = getpid()) -> String {
    let random = String(UInt64.random(in: .min ... .max), radix: 16)
    let tail =
      marker + "\(pid)-" + String(repeating: "0", count: 16 - random.count) + random + ".tmp"
    // 255 bytes is NAME_MAX on Linux file systems; the dot and the tail must fit.
    var head = Array(name.utf8)
    if 1 + head.count + tail.utf8.count > 255 { head = Array(head.prefix(254 - tail.utf8.count)) }
    return "." + String(decoding: head, as: UTF8.self) + tail
  }

  /// Whether `name` follows the naming rule: `.`, a name, `.leamoji-`, decimal digits, `-`,
  /// hexadecimal digits, `.tmp`.
  static func isTemporaryName(_ name: String) -> Bool {
    guard name.hasPrefix("."), name.hasSuffix(".tmp"),
      let range = name.ranges(of: marker).last, range.lowerBound > name.startIndex
    else { return false }
    let numbers = name[range.upperBound..<name.index(name.endIndex, offsetBy: -4)]
    let parts = numbers.split(separator: "-", omittingEmptySubsequences: false)
    return parts.count == 2
      && !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isNumber }
      && !parts[1].isEmpty && parts[1].allSatisfy { $0.isASCII && $0.isHexDigit }
  }

  // MARK: - Creating

  /// Creates a new temporary file for `target` (mode `0o666` less the umask), locked and
  /// listed.
  /// - Returns: the descriptor and the temporary file's path.
  /// - Throws: the `errno` of the failure.
  func create(for target: String) throws(SystemError) -> (descriptor: Int32, path: String) {
    let parent = PathText.deletingLastComponent(target)
    let name = PathText.lastComponent(target)
    for _ in 0..<16 {
      let temporary = PathText.appending(Self.name(for: name), to: parent)
      let descriptor = open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o666)
      if descriptor < 0 {
        if errno == EEXIST || errno == EINTR { continue }
        throw SystemError(code: errno)
      }
      var locked = flock(descriptor, LOCK_EX)
      while locked != 0 && errno == EINTR { locked = flock(descriptor, LOCK_EX) }
      // A sweeper in another process may have removed the file between `open` and `flock`
      // (it was not locked yet): then it is no longer at its name, and another name is tried.
      // Without lock support (some network file systems) sweepers cannot lock it either and
      // leave it alone: go on unlocked.
      if locked != 0 || Self.isStillNamed(descriptor, temporary) { return (descriptor, temporary) }
      finished(temporary)
      close(descriptor)
    }
    throw SystemError(code: EEXIST)
  }

  /// A failed system call's `errno`.
  struct SystemError: Error { let code: Int32 }

  /// Creates `path` with `open(2)` and lists it, as one step: a termination signal either
  /// removes the file or comes before it exists.
  /// - Returns: the descriptor, or -1 with `errno` set.
  func open(_ path: String, flags: Int32, mode: mode_t) -> Int32 {
    lock.lock()
    defer { lock.unlock() }
    let descriptor = Glibc.open(path, flags, mode)
    if descriptor >= 0 { listed.insert(path) }
    return descriptor
  }

  /// Records that `path` has been renamed into place or removed.
  func finished(_ path: String) {
    lock.lock()
    listed.remove(path)
    lock.unlock()
  }

  /// The listed paths (tests).
  var paths: Set<String> {
    lock.lock()
    defer { lock.unlock() }
    return listed
  }

  /// Removes every listed file and keeps the list locked for good, so that no thread creates
  /// another one: only for a process about to end (termination signal). Takes no other lock.
  func removeAllForTermination() {
    lock.lock()
    for path in listed { unlink(path) }
    listed.removeAll()
  }

  // MARK: - Sweeping

  /// Folders already swept by this process. Stale files come from writers that died, so one
  /// sweep per folder and process is enough (`frames`, writing thousands of files into one
  /// folder, lists it once).
  private static let swept = Locked<Set<String>>([])

  /// Removes the stale temporary files in `folder` (see the type's notes) the first time it is
  /// called for that folder in this process. Best effort: what cannot be listed, opened or
  /// locked stays.
  static func sweepOnce(_ folder: String) {
    guard swept.withValue({ $0.insert(folder).inserted }) else { return }
    sweep(folder)
  }

  /// Removes every temporary file in `folder` that follows the naming rule, is a regular file
  /// and that no live writer holds locked. Returns the names removed.
  @discardableResult
  static func sweep(_ folder: String) -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      return []
    }
    var removed: [String] = []
    for name in names where isTemporaryName(name) {
      let path = folder + "/" + name
      let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      // Locked: its writer is alive. Not lockable at all: leave it too.
      if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
          isStillNamed(descriptor, path), unlink(path) == 0
        {
          removed.append(name)
        }
      }
      close(descriptor)
    }
    return removed
  }

  /// Whether `path` still names the file open as `descriptor`.
  static func isStillNamed(_ descriptor: Int32, _ path: String) -> Bool {
    var open = stat()
    var named = stat()
    return fstat(descriptor, &open) == 0 && lstat(path, &named) == 0
      && open.st_dev == named.st_dev && open.st_ino == named.st_ino
  }
}
