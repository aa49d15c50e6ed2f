import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Drives a program in a real terminal: a private tmux server with a 120x40 window.
public struct Tmux: Sendable {
  public let socket = "leamoji-test-\(UUID().uuidString.prefix(8))"
  public let session = "play"

  public init() {}

  /// Runs a tmux client through `sh -c` started with posix_spawn and reaped with waitpid
  /// (Foundation's Process does not reap a client whose server daemonises) and returns its
  /// standard output. Not `system()`: it sets SIGINT and SIGQUIT to "ignore" in this whole test
  /// process while the client runs and puts back what it saw before, which can undo a handler
  /// that another test installs meanwhile (a signal test then never sees its SIGINT).
  @discardableResult
  public func run(_ arguments: [String]) throws -> ProcessResult {
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tmux-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    let quoted = (["tmux", "-L", socket] + arguments).map {
      "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
    let pid = try ProcessRunner.spawn(
      ["/bin/sh", "-c", quoted.joined(separator: " ") + " >'\(output.path)' 2>&1"],
      stderr: "/dev/null")
    var wait: Int32 = 0
    while true {
      let reaped = waitpid(pid, &wait, 0)
      if reaped == pid || (reaped < 0 && errno != EINTR) { break }
    }
    let status = wait & 0x7F == 0 ? (wait >> 8) & 0xFF : 128 + (wait & 0x7F)
    let text = (try? Data(contentsOf: output)) ?? Data()
    return ProcessResult(status: status, stdoutData: text, stderrData: Data(), signalled: false)
  }

  public func start(in folder: URL) throws {
    let result = try run([
      "new-session", "-d", "-s", session, "-x", "120", "-y", "40", "-c", folder.path, "sh",
    ])
    guard result.status == 0 else {
      throw HarnessError("tmux could not start (apt-get install tmux): \(result.stdout)")
    }
    try run(["set-option", "-t", session, "status", "off"])
  }

  public func type(_ keys: String...) throws { try type(keys) }

  public func type(_ keys: [String]) throws { _ = try run(["send-keys", "-t", session] + keys) }

  /// The screen as text; with `escapes`, including colour sequences.
  public func screen(escapes: Bool = false) throws -> String {
    try run(["capture-pane", "-t", session, "-p"] + (escapes ? ["-e"] : [])).stdout
  }

  public func alternateScreenOn() throws -> Bool {
    try run(["display-message", "-t", session, "-p", "#{alternate_on}"]).stdout.hasPrefix("1")
  }

  public func stop() { _ = try? run(["kill-server"]) }
}
