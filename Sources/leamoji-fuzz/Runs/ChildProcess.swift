#if canImport(Glibc)
  import Glibc
#endif

/// How a child process ended.
struct ChildResult {
  /// The exit status, when the process exited.
  var status: Int32?
  /// The signal that ended it, when it did not exit (including our SIGKILL after a timeout).
  var signal: Int32?
  /// Whether it ran past the time limit and was killed.
  var timedOut: Bool
  /// What it wrote on stderr (the first 256 KB).
  var stderr: String
  var seconds: Double
}

/// Runs a program with posix_spawn in its own process group: stdin and stdout on /dev/null,
/// stderr to a file that is read back afterwards (so no pipe can fill up and block it), and a
/// time limit enforced by SIGKILL to the group and waitpid. Give it absolute paths: the child
/// starts in the fuzzer's current folder.
struct ChildProcess {
  let executable: String
  let arguments: [String]
  /// The folder of the stderr file.
  let folder: String
  let timeout: Double

  func run() throws(FuzzError) -> ChildResult {
    let stderrPath = folder + "/stderr.txt"
    let start = Clock.now()
    let pid = try spawn(stderrPath: stderrPath)
    var waitStatus: Int32 = 0
    var timedOut = false
    while true {
      let finished = waitpid(pid, &waitStatus, WNOHANG)
      if finished == pid { break }
      if finished < 0, errno != EINTR {
        throw FuzzError("waitpid failed: \(String(cString: strerror(errno)))")
      }
      if Clock.now() - start > timeout {
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        while waitpid(pid, &waitStatus, 0) < 0, errno == EINTR {}
        timedOut = true
        break
      }
      usleep(finished == 0 && Clock.now() - start < 0.2 ? 2_000 : 10_000)
    }
    let seconds = Clock.now() - start
    let stderr = Self.readPrefix(of: stderrPath, limit: 256 * 1024)
    let low = waitStatus & 0x7F
    if low == 0 {
      return ChildResult(
        status: (waitStatus >> 8) & 0xFF, signal: nil, timedOut: timedOut, stderr: stderr,
        seconds: seconds)
    }
    return ChildResult(
      status: nil, signal: low, timedOut: timedOut, stderr: stderr, seconds: seconds)
  }

  private func spawn(stderrPath: String) throws(FuzzError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let error = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
    guard error == 0 else {
      throw FuzzError("cannot run \(executable): \(String(cString: strerror(error)))")
    }
    return pid
  }

  /// The first `limit` bytes of a file as text (empty when it cannot be read).
  static func readPrefix(of path: String, limit: Int) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: limit)
    var total = 0
    while total < limit {
      let count = buffer.withUnsafeMutableBytes {
        read(descriptor, $0.baseAddress! + total, limit - total)
      }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      total += count
    }
    return String(decoding: buffer.prefix(total), as: UTF8.self)
  }
}

/// Limits of this process that every child inherits: no core files (a crash found by fuzzing
/// must not drop one into the current folder) and at most `memoryMB` of address space (0: no
/// limit), so a mutant that makes leamoji allocate gigabytes fails there, as a crash, instead
/// of starving the machine.
func limitChildren(memoryMB: Int) {
  var core = rlimit(rlim_cur: 0, rlim_max: 0)
  getrlimit(Int32(RLIMIT_CORE.rawValue), &core)
  core.rlim_cur = 0
  setrlimit(Int32(RLIMIT_CORE.rawValue), &core)
  guard memoryMB > 0 else { return }
  var memory = rlimit(rlim_cur: 0, rlim_max: 0)
  getrlimit(Int32(RLIMIT_AS.rawValue), &memory)
  memory.rlim_cur = min(memory.rlim_max, rlim_t(memoryMB) << 20)
  setrlimit(Int32(RLIMIT_AS.rawValue), &memory)
}

/// Seconds on the monotonic clock.
enum Clock {
  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
