#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why the terminal could not be used or written to.
public enum TerminalError: Error, Equatable, CustomStringConvertible {
  /// Standard input or output is not a terminal (e.g. piped): play needs one.
  case notATerminal
  /// Another `TerminalSession` is active in this process.
  case sessionAlreadyActive
  /// A system call failed: its name and `errno`.
  case system(call: String, errno: Int32)

  public var description: String {
    switch self {
    case .notATerminal: return "standard input and output must be a terminal"
    case .sessionAlreadyActive: return "a terminal session is already active"
    case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
    }
  }
}
