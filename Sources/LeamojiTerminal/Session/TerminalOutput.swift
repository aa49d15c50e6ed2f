#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one place that writes bytes to the terminal: whole buffers, with counters.
///
/// `write(_:)` wraps `write(2)`: it retries on `EINTR`, continues after partial writes, and
/// waits with `poll(2)` when the descriptor is non-blocking and full (`EAGAIN`), so a frame is
/// either written entirely or an error is thrown.
public final class TerminalOutput {
  /// The descriptor written to.
  public let fd: Int32
  /// Bytes written so far (for `--stats`: divide by frames shown).
  public private(set) var bytesWritten = 0
  /// Buffers written so far (one per frame in the player).
  public private(set) var buffersWritten = 0

  /// Writes to `fd` (1 for standard output); the descriptor stays owned by the caller.
  public init(fd: Int32) {
    self.fd = fd
  }

  /// Writes all of `bytes`.
  /// - Throws: `TerminalError.system(call: "write", …)` on any error other than `EINTR` and
  ///   `EAGAIN`, e.g. `EIO` after the terminal went away.
  public func write(_ bytes: [UInt8]) throws(TerminalError) {
    guard !bytes.isEmpty else { return }
    let result: TerminalError? = bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return nil }
      var offset = 0
      while offset < raw.count {
        let n = systemWrite(fd, base + offset, raw.count - offset)
        if n > 0 {
          offset += n
          bytesWritten += n
          continue
        }
        let code = n < 0 ? errno : EAGAIN
        if code == EINTR { continue }
        if code == EAGAIN || code == EWOULDBLOCK {
          var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
          _ = poll(&pfd, 1, 1000)
          continue
        }
        return .system(call: "write", errno: code)
      }
      return nil
    }
    if let result { throw result }
    buffersWritten += 1
  }
}

/// `write(2)` under a name that does not clash with the method.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(fd, buffer, count)
}
