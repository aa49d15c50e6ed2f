import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Writes files so that readers see either the old content or the complete new content, never
/// a half-written file: the bytes go to a temporary file in the same folder, are flushed to
/// disk, and the temporary file is renamed over the target.
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
    let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    if descriptor < 0 { throw WriteError(path: path, reason: lastErrorText()) }
    TemporaryFiles.created(temporary)
    defer { TemporaryFiles.finished(temporary) }
    var failure = FileDescriptor.writeAll(bytes, to: descriptor).map { String(cString: strerror($0)) }
    if failure == nil, fsync(descriptor) != 0 { failure = lastErrorText() }
    if close(descriptor) != 0, failure == nil { failure = lastErrorText() }
    if failure == nil, !replace, access(path, F_OK) == 0 { failure = "the file already exists" }
    if failure == nil, rename(temporary, path) != 0 { failure = lastErrorText() }
    if let failure {
      unlink(temporary)
      throw WriteError(path: path, reason: failure)
    }
  }

  private static func lastErrorText() -> String { String(cString: strerror(errno)) }
}
