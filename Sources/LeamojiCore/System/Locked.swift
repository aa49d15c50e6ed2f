import FoundationEssentials

/// A value shared between threads, reached only through `withValue` under a lock: the one
/// small synchronisation tool for parallel loops (job counters, result slots, failure lists).
public final class Locked<Value>: @unchecked Sendable {
  private let lock = ThreadLock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  /// Runs `body` with exclusive access to the value.
  public func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// Writing whole buffers to file descriptors.
public enum FileDescriptor {
  /// Writes all of `bytes` to `descriptor`, retrying after partial writes and interruptions.
  /// - Returns: nil on success, else the `errno` of the failed write.
  public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
  }
}
