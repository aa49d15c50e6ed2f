import Foundation
import Testing

@testable import LeamojiTerminal

@Suite("Terminal output")
struct TerminalOutputTests {
  @Test("a large buffer into a full non-blocking pipe arrives whole, and is counted")
  func partialWrites() throws {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    let (readEnd, writeEnd) = (fds[0], fds[1])
    defer { close(readEnd) }
    // Non-blocking: a 1 MiB buffer into a 64 KiB pipe gives partial writes and EAGAIN.
    #expect(fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK) == 0)
    let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let received = Received()
    let reader = Thread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, 4096) }
        if n <= 0 { break }
        received.append(buffer[0..<n])
      }
      received.finish()
    }
    reader.start()
    let output = TerminalOutput(fd: writeEnd)
    try output.write(payload)
    try output.write([])
    try output.write([1, 2, 3])
    close(writeEnd)
    received.wait()
    #expect(received.bytes == payload + [1, 2, 3])
    #expect(output.bytesWritten == payload.count + 3)
    #expect(output.buffersWritten == 2)
  }

  @Test("a write error is thrown with the call and errno")
  func writeError() {
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    close(fds[0])
    defer { close(fds[1]) }
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    let output = TerminalOutput(fd: fds[1])
    #expect(throws: TerminalError.system(call: "write", errno: EPIPE)) { try output.write([1]) }
    #expect(output.bytesWritten == 0 && output.buffersWritten == 0)
  }
}

/// Bytes collected by the reader thread.
final class Received: @unchecked Sendable {
  private let lock = NSCondition()
  private var data: [UInt8] = []
  private var done = false

  func append(_ chunk: ArraySlice<UInt8>) {
    lock.lock()
    data += chunk
    lock.unlock()
  }

  func finish() {
    lock.lock()
    done = true
    lock.broadcast()
    lock.unlock()
  }

  func wait() {
    lock.lock()
    while !done { lock.wait() }
    lock.unlock()
  }

  var bytes: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return data
  }
}
