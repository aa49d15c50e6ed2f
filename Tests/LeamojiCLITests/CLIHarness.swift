import Foundation
import LeamojiCore

/// Runs the built `leamoji` binary and external tools for the CLI tests.
enum CLI {
  /// The folder holding the built products (the test runner sits next to the binary).
  static let productsFolder: URL = {
    var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    while url.path != "/"
      && !FileManager.default.fileExists(atPath: url.appendingPathComponent("leamoji").path)
    {
      url.deleteLastPathComponent()
    }
    return url
  }()

  static var binary: String { productsFolder.appendingPathComponent("leamoji").path }

  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
    /// Whether the process ended by a signal (a crash, or the `timeout` watchdog's SIGKILL).
    let signalled: Bool
    /// Whether the `timeout` watchdog killed it.
    var timedOut = false
    /// Wall-clock seconds from start to exit.
    var seconds = 0.0
    /// The lines of stderr, empty ones included (a message must not spill onto a blank line).
    var stderrLines: [String] {
      stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }
  }

  /// Runs `leamoji` with `arguments` in `directory`; killed with SIGKILL after `timeout` seconds.
  static func leamoji(_ arguments: [String], in directory: URL? = nil, timeout: Double? = nil)
    throws -> Result
  {
    try run(binary, arguments, in: directory, timeout: timeout)
  }

  /// Starts `leamoji` with `arguments` in the background, output discarded.
  static func spawnLeamoji(_ arguments: [String]) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Starts `arguments[0]` with stdin and stdout on /dev/null and stderr into `stderr`, with
  /// default signal dispositions and an empty signal mask; returns its pid (reap it with waitpid).
  static func spawn(_ arguments: [String], stderr: String) throws -> pid_t {
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

  /// Runs any program (looked up on PATH when not absolute); with a `timeout`, a watchdog kills
  /// it with SIGKILL when that many seconds pass, so an input that makes it hang fails the test.
  static func run(
    _ program: String, _ arguments: [String], in directory: URL? = nil, timeout: Double? = nil
  ) throws -> Result {
    let process = Process()
    if program.hasPrefix("/") {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
    } else {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [program] + arguments
    }
    if let directory { process.currentDirectoryURL = directory }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let start = Date()
    try process.run()
    let timedOut = Locked(false)
    let watchdog = DispatchWorkItem {
      if process.isRunning {
        timedOut.withValue { $0 = true }
        kill(process.processIdentifier, SIGKILL)
      }
    }
    if let timeout {
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    }
    // Read both pipes while the process runs so neither can fill up and block it.
    nonisolated(unsafe) var errData = Data()
    let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    while !reader.isFinished { usleep(1000) }
    return Result(
      status: process.terminationStatus,
      stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self),
      signalled: process.terminationReason == .uncaughtSignal,
      timedOut: timedOut.withValue { $0 }, seconds: Date().timeIntervalSince(start))
  }

  /// A new empty temporary folder.
  static func temporaryFolder(_ name: String = "cli") throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("leamoji-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// Makes a small test video with the ffmpeg CLI (its test pattern), `seconds` long.
  static func makeVideo(at url: URL, seconds: Int, size: String = "160x90", rate: Int = 25) throws {
    let result = try run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-t",
        "\(seconds)",
        "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path,
      ])
    if result.status != 0 {
      throw HarnessError("ffmpeg could not make \(url.lastPathComponent): \(result.stderr)")
    }
  }

  /// Width and height of a PNG, read from its header.
  static func pngSize(_ url: URL) throws -> (Int, Int) {
    let data = try Data(contentsOf: url)
    guard data.count > 24, data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else {
      throw HarnessError("not a PNG: \(url.path)")
    }
    func be32(_ offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    return (be32(16), be32(20))
  }
}

struct HarnessError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
