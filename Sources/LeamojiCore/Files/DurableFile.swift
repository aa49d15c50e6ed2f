import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A file that is only ever replaced whole: readers, crashes and power loss see the old content
/// or the complete new one, never a half-written file. The one writer of leamoji's outputs
/// (MovieData.json, posters, subtitles, models, frames).
///
/// `write` puts the bytes into a temporary file beside the target (see `TemporaryFiles` for the
/// naming rule), gives it the existing file's permissions and owner, `fsync`s it, renames it
/// over the target and `fsync`s the folder. On any failure the temporary file is removed and
/// the target is left as it was.
///
/// * Stale temporary files of killed writers are removed by the first write of each process
///   into a folder; one that a live writer holds locked is never touched.
/// * `removeTemporariesOnTermination()` makes SIGINT, SIGTERM and SIGHUP remove the temporary
///   files being written before the process ends (through `SignalCoordinator`).
/// * `lock()` serialises read-modify-write cycles between processes (the timeline store).
/// * A symbolic link at `path` is replaced by the new file; resolve it first with
///   `followingLinks` to replace the file it points to.
public struct DurableFile: Sendable {
  /// A step of `write` that `failingSteps` can make fail, so that tests reach the clean-up
  /// paths without a full disk or a read-only folder (root ignores permissions).
  public enum Step: Hashable, Sendable, CaseIterable {
    /// Creating the temporary file fails with EACCES.
    case createTemporary
    /// Writing the bytes fails with ENOSPC.
    case write
    /// `fsync` of the temporary file fails with EIO.
    case sync
    /// The rename fails with EXDEV.
    case rename
    /// `fsync` of the folder fails with EIO; it is best effort, so the write still succeeds.
    case syncFolder
  }

  /// The file, as the caller named it (used in errors).
  public let path: String
  /// Steps of `write` that fail on purpose (tests only).
  public var failingSteps: Set<Step> = []

  /// The file at `path`; nothing is opened until `write`, `readIfPresent` or `lock`.
  public init(_ path: String) {
    self.path = path
  }

  /// The folder holding the file; "." for a bare file name.
  public var folder: String { Self.folder(of: path) }

  /// The file's name without its folder.
  public var name: String { PathText.lastComponent(path) }

  /// The lock file `lock()` uses: `.<name>.lock` beside the file.
  public var lockPath: String { sibling("." + name + ".lock") }

  // MARK: - Writing

  /// Replaces (or creates) the file with `bytes`, as described on the type.
  /// - Parameter replacing: when false, an existing file is an error and stays as it is.
  /// - Throws: `DurableFileError` naming the file with the system's reason.
  public func write(_ bytes: [UInt8], replacing: Bool = true) throws(DurableFileError) {
    try write(replacing: replacing) { FileDescriptor.writeAll(bytes, to: $0) }
  }

  /// Replaces (or creates) the file with a copy of the file at `source`, read in pieces of
  /// 1 MiB (for files too large to hold in memory, such as videos); otherwise as `write`.
  /// - Throws: `DurableFileError` naming the file (or `source` when it cannot be read).
  public func copy(from source: String) throws(DurableFileError) {
    let input = retryingInterrupted { open(source, O_RDONLY | O_CLOEXEC) }
    guard input >= 0 else {
      let code = errno
      let reason = DurableFileError.systemReason(code)
      throw .other(source, "cannot open: \(reason)", reason: reason)
    }
    defer { close(input) }
    var readFailure: Int32? = nil
    do {
      try write(replacing: true) { descriptor in
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
          let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
          if count < 0 && errno == EINTR { continue }
          if count < 0 {
            readFailure = errno
            return EIO
          }
          if count == 0 { return nil }
          if let code = FileDescriptor.writeAll(Array(buffer[0..<count]), to: descriptor) {
            return code
          }
        }
      }
    } catch {
      if let code = readFailure {
        let reason = DurableFileError.systemReason(code)
        throw .other(source, "cannot read: \(reason)", reason: reason)
      }
      throw error
    }
  }

  /// `write`'s steps, with `fill` writing the content into the temporary file's descriptor
  /// (returning the `errno` of a failure, or nil).
  private func write(replacing: Bool, fill: (Int32) -> Int32?) throws(DurableFileError) {
    if !replacing, access(path, F_OK) == 0 {
      throw .writing(path, refused: "the file already exists")
    }
    TemporaryFiles.sweepOnce(folder)
    var existing = stat()
    let exists = stat(path, &existing) == 0
    let registry = TemporaryFiles.shared
    let (descriptor, temporary): (Int32, String)
    do throws(TemporaryFiles.SystemError) {
      if let code = planned(.createTemporary) { throw TemporaryFiles.SystemError(code: code) }
      (descriptor, temporary) = try registry.create(for: path)
    } catch {
      throw .writing(path, "cannot create a temporary file", code: error.code)
    }
    defer { registry.finished(temporary) }
    if exists {
      // Owner first: changing it clears set-user-ID bits, which the mode then puts back.
      // Both best effort (only root may give a file away).
      _ = fchown(descriptor, existing.st_uid, existing.st_gid)
      _ = fchmod(descriptor, existing.st_mode & 0o7777)
    }
    var failure: DurableFileError? = nil
    if let code = planned(.write) ?? fill(descriptor) {
      failure = .writing(path, "cannot write", code: code)
    } else if let code = failed(.sync, { retryingInterrupted { fsync(descriptor) } }) {
      failure = .writing(path, "cannot flush to disk", code: code)
    } else if !replacing, access(path, F_OK) == 0 {
      failure = .writing(path, refused: "the file already exists")
    } else if let code = failed(.rename, { rename(temporary, path) }) {
      failure = .writing(path, "cannot replace the file", code: code)
    }
    if failure != nil { unlink(temporary) }
    // Closed only now, so that the temporary file stays locked until it is renamed or removed
    // (a sweeper takes an unlocked one for stale). Any write error was reported by fsync.
    close(descriptor)
    if let failure { throw failure }
    _ = syncFolder()
  }

  /// The `errno` that `step` fails with when it is in `failingSteps`.
  private func planned(_ step: Step) -> Int32? {
    guard failingSteps.contains(step) else { return nil }
    switch step {
    case .createTemporary: return EACCES
    case .write: return ENOSPC
    case .sync, .syncFolder: return EIO
    case .rename: return EXDEV
    }
  }

  /// Runs `call` (a system call returning -1 on failure) unless `step` is planned to fail.
  /// - Returns: nil on success, else the `errno`.
  private func failed(_ step: Step, _ call: () -> Int32) -> Int32? {
    if let code = planned(step) { return code }
    return call() < 0 ? errno : nil
  }

  /// Flushes the folder's entry for the renamed file to disk. Best effort: some file systems
  /// cannot sync a folder, and the new content is in place either way.
  /// - Returns: whether the folder was synced.
  func syncFolder() -> Bool {
    let descriptor = retryingInterrupted { open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    return failed(.syncFolder, { retryingInterrupted { fsync(descriptor) } }) == nil
  }

  /// Makes SIGINT, SIGTERM and SIGHUP remove every temporary file this process is writing,
  /// then end the process by that signal (unless a participant such as the terminal player has
  /// taken termination over; see `SignalCoordinator`). Once per process; later calls do
  /// nothing. SIGKILL cannot be caught: its leftovers go in the next process's sweep.
  public static func removeTemporariesOnTermination() {
    let first = cleanUpRegistered.withValue { done -> Bool in
      defer { done = true }
      return !done
    }
    guard first else { return }
    SignalCoordinator.register(.cleanUp) { _ in TemporaryFiles.shared.removeAllForTermination() }
  }

  private static let cleanUpRegistered = Locked(false)

  // MARK: - Reading and locking

  /// The whole file, or nil when it does not exist.
  /// - Throws: `DurableFileError` (`cannot open: ...`, `cannot read: ...`,
  ///   `is a folder, not a file`).
  public func readIfPresent() throws(DurableFileError) -> [UInt8]? {
    let descriptor = retryingInterrupted { open(path, O_RDONLY | O_CLOEXEC) }
    if descriptor < 0 {
      let code = errno
      if code == ENOENT { return nil }
      throw readError("cannot open", code)
    }
    defer { close(descriptor) }
    var info = stat()
    if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
      throw .other(path, "is a folder, not a file", reason: "is a folder")
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw readError("cannot read", errno)
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  private func readError(_ doing: String, _ code: Int32) -> DurableFileError {
    let reason = DurableFileError.systemReason(code)
    return .other(path, "\(doing): \(reason)", reason: reason)
  }

  /// Waits for, and takes, the exclusive lock on `lockPath`; hold it across a read and a
  /// `write` so that concurrent processes do not lose each other's changes.
  /// - Throws: `DurableFileError` naming the file and the lock file.
  public func lock() throws(DurableFileError) -> FileLock {
    try FileLock.acquire(lockPath, naming: path)
  }

  // MARK: - Paths

  /// The path a chain of symbolic links at `path` leads to (even when the final file does not
  /// exist yet); `path` itself when it is not a link. Gives up after 32 links (a loop).
  public static func followingLinks(_ path: String) -> String {
    var current = path
    for _ in 0..<32 {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let length = readlink(current, &buffer, buffer.count - 1)
      guard length > 0 else { return current }
      let bytes = buffer[0..<length].map { UInt8(bitPattern: $0) }
      let destination = String(decoding: bytes, as: UTF8.self)
      current = destination.hasPrefix("/") ? destination : folder(of: current) + "/" + destination
    }
    return current
  }

  /// The folder part of a path ("." for a bare file name).
  static func folder(of path: String) -> String {
    let folder = PathText.deletingLastComponent(path)
    return folder.isEmpty ? "." : folder
  }

  private func sibling(_ name: String) -> String {
    PathText.appending(name, to: PathText.deletingLastComponent(path))
  }
}
