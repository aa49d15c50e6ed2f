import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What a finished process did.
public struct ProcessResult: Sendable {
  /// The exit status, or the signal's number when it ended by a signal.
  public var status: Int32
  /// Standard output and standard error, exactly as written.
  public var stdoutData: Data
  public var stderrData: Data
  /// Whether the process ended by a signal (a crash, or the timeout's SIGKILL).
  public var signalled: Bool
  /// Whether the timeout killed it.
  public var timedOut = false
  /// Wall-clock seconds from start to exit.
  public var seconds = 0.0

  public init(
    status: Int32, stdoutData: Data, stderrData: Data, signalled: Bool, timedOut: Bool = false,
    seconds: Double = 0
  ) {
    self.status = status
    self.stdoutData = stdoutData
    self.stderrData = stderrData
    self.signalled = signalled
    self.timedOut = timedOut
    self.seconds = seconds
  }

  public var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
  public var stderr: String { String(decoding: stderrData, as: UTF8.self) }
  /// The lines of stderr, empty ones included (a message must not spill onto a blank line).
  public var stderrLines: [String] {
    stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
  }
}

/// The one way tests run other programs: the built leamoji, ffmpeg, tmux, chromium, python.
public enum ProcessRunner {
  /// Runs `program` (looked up on PATH when not absolute) with `arguments` in `directory`;
  /// `environment` adds to (or replaces entries of) the test's own; `stdin` is fed to it (empty
  /// when nil). Its output goes to files, read when it ends: no pipe can fill up and block it,
  /// and children it leaves behind (a browser's helpers) cannot hold the run open. With a
  /// `timeout`, SIGKILL ends it when that many seconds pass, so a hang fails the test. Throws
  /// when the program cannot start.
  public static func run(
    _ program: String, _ arguments: [String] = [], in directory: URL? = nil,
    environment: [String: String] = [:], stdin: Data? = nil, timeout: Double? = nil
  ) throws -> ProcessResult {
    if stdin != nil { ignoreSIGPIPE }
    let process = Process()
    if program.hasPrefix("/") {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [program] + arguments
    }
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let outputs = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leamoji-run-\(UUID().uuidString)")
    let outFile = outputs.appendingPathExtension("out")
    let errFile = outputs.appendingPathExtension("err")
    _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: outFile)
      try? FileManager.default.removeItem(at: errFile)
    }
    let outHandle = try FileHandle(forWritingTo: outFile)
    let errHandle = try FileHandle(forWritingTo: errFile)
    defer {
      try? outHandle.close()
      try? errHandle.close()
    }
    let input = stdin.map { _ in Pipe() }
    process.standardOutput = outHandle
    process.standardError = errHandle
    process.standardInput = input ?? FileHandle.nullDevice
    let start = Date()
    try process.run()
    let timedOut = LockedFlag()
    let watchdog = DispatchWorkItem {
      if process.isRunning {
        timedOut.set()
        kill(process.processIdentifier, SIGKILL)
      }
    }
    if let timeout {
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    }
    if let stdin, let input {
      try? input.fileHandleForWriting.write(contentsOf: stdin)
      try? input.fileHandleForWriting.close()
    }
    process.waitUntilExit()
    watchdog.cancel()
    return ProcessResult(
      status: process.terminationStatus, stdoutData: (try? Data(contentsOf: outFile)) ?? Data(),
      stderrData: (try? Data(contentsOf: errFile)) ?? Data(),
      signalled: process.terminationReason == .uncaughtSignal, timedOut: timedOut.get(),
      seconds: Date().timeIntervalSince(start))
  }

  /// Starts `program` (an absolute path) in the background with the given standard streams
  /// (/dev/null for those not given); the caller waits for it or kills it.
  public static func start(
    _ program: String, _ arguments: [String], stdin: FileHandle? = nil,
    stdout: FileHandle? = nil, stderr: FileHandle? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardInput = stdin ?? FileHandle.nullDevice
    process.standardOutput = stdout ?? FileHandle.nullDevice
    process.standardError = stderr ?? FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Starts `arguments[0]` (an absolute path) with posix_spawn, stdin and stdout on /dev/null
  /// and stderr into the file `stderr`, with default signal dispositions and an empty signal
  /// mask; returns its pid, for the caller to reap with `waitpid` (Foundation's Process does
  /// not reap a child whose own child daemonises, and cannot give its resource usage).
  public static func spawn(_ arguments: [String], stderr: String = "/dev/null") throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let code = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
    guard code == 0 else {
      throw HarnessError("cannot start \(arguments[0]): \(String(cString: strerror(code)))")
    }
    return pid
  }

  /// The absolute path of `tool` on PATH (or in /usr/bin, /usr/local/bin), nil when missing.
  public static func locate(_ tool: String) -> String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
      .split(separator: ":").map(String.init)
    for folder in paths + ["/usr/bin", "/usr/local/bin"] where !folder.isEmpty {
      let candidate = "\(folder)/\(tool)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Set once, when a run is first fed: writing to a pipe whose reader died must be an error, not
  /// a signal that kills the whole test process.
  private static let ignoreSIGPIPE: Void = {
    _ = signal(SIGPIPE, SIG_IGN)
  }()
}

/// A flag set on one thread and read on another.
final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  func get() -> Bool { lock.withLock { value } }
}
