import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// One short phrase for an error from the file system, for messages such as
/// `x: cannot create the folder (Permission denied)`: the system's words for the underlying
/// `errno` when there is one, in place of Foundation's `localizedDescription` (leamoji links
/// only FoundationEssentials, see `PathText`).
public enum ErrorText {
  public static func describe(_ error: any Error) -> String {
    if let posix = error as? POSIXError { return text(errno: posix.code.rawValue) }
    if let cocoa = error as? CocoaError {
      if let posix = cocoa.underlying as? POSIXError { return text(errno: posix.code.rawValue) }
      return cocoaText(cocoa.code)
    }
    return String(describing: error)
  }

  /// `strerror`'s text for `code`.
  public static func text(errno code: Int32) -> String {
    guard let message = strerror(code) else { return "error \(code)" }
    return String(cString: message)
  }

  private static func cocoaText(_ code: CocoaError.Code) -> String {
    switch code {
    case .fileNoSuchFile, .fileReadNoSuchFile: return text(errno: ENOENT)
    case .fileReadNoPermission, .fileWriteNoPermission: return text(errno: EACCES)
    case .fileWriteFileExists: return text(errno: EEXIST)
    case .fileWriteOutOfSpace: return text(errno: ENOSPC)
    case .fileWriteVolumeReadOnly: return text(errno: EROFS)
    case .fileReadCorruptFile: return "the file is damaged"
    default: return "file system error \(code.rawValue)"
    }
  }
}
