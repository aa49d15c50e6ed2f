#if canImport(Glibc)
  import Glibc
#endif

/// Why `DurableFile` could not read, lock or write a file: one line naming the file with the
/// system's reason, e.g. `site/new.jpg: cannot write (No space left on device)`.
public struct DurableFileError: Error, CustomStringConvertible, Equatable, Sendable {
  /// The file as the caller named it.
  public let path: String
  /// What failed, without the path, worded by step: `cannot write: File too large`,
  /// `cannot flush to disk: Input/output error`, `cannot lock .x.lock: ...`. Callers that put
  /// their own path in front (the timeline store) use this.
  public let problem: String
  /// The system's reason alone (`strerror` text), or what else was wrong
  /// (`the file already exists`).
  public let reason: String
  /// Whether the error happened while writing (shown as `cannot write (reason)`).
  let whileWriting: Bool

  /// `path: cannot write (reason)` for a failed write; `path: problem` for reads and locks.
  public var description: String {
    whileWriting ? "\(path): cannot write (\(reason))" : "\(path): \(problem)"
  }

  /// A write that failed in a system call with `code` (`errno`); `doing` words the step.
  static func writing(_ path: String, _ doing: String, code: Int32) -> DurableFileError {
    let reason = systemReason(code)
    return DurableFileError(
      path: path, problem: "\(doing): \(reason)", reason: reason, whileWriting: true)
  }

  /// A write refused for a reason of leamoji's own (no `errno`).
  static func writing(_ path: String, refused reason: String) -> DurableFileError {
    DurableFileError(path: path, problem: reason, reason: reason, whileWriting: true)
  }

  /// A read or lock that failed; `problem` is the whole text after the path.
  static func other(_ path: String, _ problem: String, reason: String) -> DurableFileError {
    DurableFileError(path: path, problem: problem, reason: reason, whileWriting: false)
  }

  /// The text of an `errno` value, e.g. "No space left on device".
  static func systemReason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
