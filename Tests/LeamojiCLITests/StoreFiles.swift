import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Files, processes and locks for the store tests (the clock, CPU time and inotify watcher of
/// the kill -9 experiment follow below).
enum StoreFiles {
  /// A 1-second 64x36 clip and a tiny model (8x8 input, trained for one epoch on 6 generated
  /// scenes): an `analyze` run with them spends its time in the store, not in the network.
  private static let fixtures: Result<(clip: URL, model: URL), HarnessError> = {
    do {
      let root = try ScratchFolder.url("store-fixtures")
      let clip = root.appendingPathComponent("clip.mp4")
      try FFmpegFixtures.makeVideo(at: clip, seconds: 1, size: "64x36")
      let scenes = try CLI.lab([
        "scenes", "dataset", "--out", root.path, "--train-per-class", "2", "--test-per-class", "1",
        "--size", "8",
      ])
      guard scenes.status == 0 else {
        return .failure(HarnessError("scenes dataset: \(scenes.stderr)"))
      }
      let model = root.appendingPathComponent("tiny.safetensors")
      let trained = try CLI.lab([
        "train", root.appendingPathComponent("Training Data").path, "--epochs", "1", "--size", "8",
        "--validation-split", "0", "--output", model.path,
      ])
      guard trained.status == 0 else { return .failure(HarnessError("train: \(trained.stderr)")) }
      return .success((clip, model))
    } catch {
      return .failure(HarnessError("\(error)"))
    }
  }()

  /// A copy of the 1-second clip under `name` in `folder`.
  static func clip(named name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: try fixtures.get().clip, to: url)
    return url
  }

  /// The tiny model (pass it with --model).
  static func tinyModel() throws -> URL { try fixtures.get().model }

  /// Writes a MovieData.json with `count` entries `old-0000`, … (with a key leamoji does not
  /// know, which must survive), pretty-printed like leamoji's own.
  static func writeOldEntries(count: Int, to url: URL) throws {
    let entries: [[String: Any]] = (0..<count).map { i in
      [
        "description": "", "duration": 10, "id": String(format: "old-%04d", i),
        "markers": [] as [Any],
        "model": ["labels": ["happy"], "sha256": ""], "seekAhead": 5,
        "title": "Old film \(i), with a title long enough to make the file big",
        "note": "kept \(i)",
      ]
    }
    let data = try JSONSerialization.data(
      withJSONObject: entries, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: url)
  }

  /// The entries of a file by id; nil when it cannot be read or does not parse (see below).
  static func objects(in url: URL) -> [String: NSDictionary]? {
    (try? Data(contentsOf: url)).flatMap { objects(in: $0) }
  }

  /// The entries by id; nil unless `data` is a JSON array of objects with distinct string ids.
  private static func objects(in data: Data) -> [String: NSDictionary]? {
    guard let array = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
      return nil
    }
    var result: [String: NSDictionary] = [:]
    for object in array {
      guard let id = object["id"] as? String, result[id] == nil else { return nil }
      result[id] = NSDictionary(dictionary: object)
    }
    return result
  }

  static func ids(in url: URL) throws -> [String]? {
    objects(in: url).map { $0.keys.sorted() }
  }

  /// The ids of the entries; nil unless `data` is a JSON array of objects with distinct string ids.
  static func ids(in data: Data) -> Set<String>? {
    guard let array = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] else {
      return nil
    }
    let ids = Set(array.compactMap { $0["id"] as? String })
    return ids.count == array.count ? ids : nil
  }

  /// Names of temporary files (`*.tmp`) in `folder`.
  static func temporaryFiles(in folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
  }

  /// The process id in the name of a store temporary file,
  /// `.MovieData.json.leamoji-<pid>-<hex>.tmp` (the one naming rule of every temporary file).
  static func temporaryFilePID(_ name: String) -> pid_t? {
    let prefix = ".MovieData.json.leamoji-"
    guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return nil }
    return name.dropFirst(prefix.count).split(separator: "-").first.flatMap { pid_t($0) }
  }

  /// The process ids of the store temporary files in `folder`.
  static func temporaryFilePIDs(in folder: String) -> Set<pid_t> {
    guard let directory = opendir(folder) else { return [] }
    defer { closedir(directory) }
    var pids = Set<pid_t>()
    while let entry = readdir(directory) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
      }
      if let pid = temporaryFilePID(name) { pids.insert(pid) }
    }
    return pids
  }

  /// The processes holding a `flock` on `path`, from `/proc/locks` (waiters are not holders).
  static func lockHolders(of path: String) -> Set<pid_t> {
    var info = stat()
    guard stat(path, &info) == 0 else { return [] }
    let inode = ":\(info.st_ino)"
    var pids = Set<pid_t>()
    for line in readSmallFile("/proc/locks").split(separator: "\n") where !line.contains("->") {
      let fields = line.split(separator: " ")
      guard fields.count >= 6, fields[1] == "FLOCK", fields[5].hasSuffix(inode),
        let pid = pid_t(fields[4])
      else { continue }
      pids.insert(pid)
    }
    return pids
  }

  private static func readSmallFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16384)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Runs leamoji under `/bin/sh -c 'ulimit -f BLOCKS; exec leamoji …'`.
  static func withFileSizeLimit(blocks: Int, _ arguments: [String]) throws -> ProcessResult {
    try ProcessRunner.run(
      "/bin/sh", ["-c", "ulimit -f \(blocks) && exec \"$0\" \"$@\"", CLI.binary] + arguments)
  }
}

/// A small tmpfs mounted for one test (root with CAP_SYS_ADMIN only).
struct Tmpfs {
  let url: URL
  let pageSize: Int

  /// Whether this process may mount a tmpfs (tried once, on a throw-away folder).
  static let mountable: Bool = {
    guard geteuid() == 0, let folder = try? ScratchFolder.url("tmpfs-probe") else { return false }
    defer { try? FileManager.default.removeItem(at: folder) }
    guard let disk = try? Tmpfs(size: "16k", in: folder, name: "probe") else { return false }
    disk.unmount()
    return true
  }()

  init(size: String, in folder: URL, name: String) throws {
    url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    let result = try ProcessRunner.run(
      "mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0755", "tmpfs", url.path])
    guard result.status == 0 else {
      throw HarnessError("cannot mount a tmpfs on \(url.path): \(result.stderr)")
    }
    var info = statvfs()
    guard statvfs(url.path, &info) == 0 else { throw HarnessError("statvfs \(url.path) failed") }
    pageSize = Int(info.f_bsize)
  }

  var freePages: Int {
    var info = statvfs()
    return statvfs(url.path, &info) == 0 ? Int(info.f_bavail) : -1
  }

  /// Fills the file system with a file so that `pages` pages stay free.
  func fill(leavingPages pages: Int) throws {
    let free = freePages
    guard free >= pages else { throw HarnessError("only \(free) pages free, \(pages) wanted") }
    try Data(count: (free - pages) * pageSize).write(to: url.appendingPathComponent("filler"))
    guard freePages == pages else {
      throw HarnessError("\(freePages) pages free after filling, \(pages) wanted")
    }
  }

  func unmount() {
    _ = try? ProcessRunner.run("umount", [url.path])
  }
}

/// New names in a folder, from inotify (IN_CREATE).
final class DirectoryWatcher {
  private let descriptor: Int32

  init(_ folder: String) throws {
    descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
    guard descriptor >= 0 else {
      throw HarnessError("inotify_init1: \(String(cString: strerror(errno)))")
    }
    guard inotify_add_watch(descriptor, folder, UInt32(IN_CREATE)) >= 0 else {
      close(descriptor)
      throw HarnessError("inotify_add_watch \(folder): \(String(cString: strerror(errno)))")
    }
  }

  deinit { close(descriptor) }

  /// The names created since the last call, waiting up to `milliseconds` for the first.
  func created(waitingUpTo milliseconds: Int32) -> [String] {
    var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    _ = poll(&request, 1, milliseconds)
    var names: [String] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return names }
      // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
      var offset = 0
      while offset + 16 <= count {
        let length = Int(
          buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self) })
        let name = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
        names.append(String(decoding: name, as: UTF8.self))
        offset += 16 + length
      }
    }
  }
}

/// CPU seconds (user + system) of this process and of its reaped children.
enum CPUTime {
  static var own: Double { seconds(RUSAGE_SELF) }
  static var children: Double { seconds(RUSAGE_CHILDREN) }

  private static func seconds(_ who: __rusage_who) -> Double {
    var usage = rusage()
    guard getrusage(__rusage_who_t(who.rawValue), &usage) == 0 else { return 0 }
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
      usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }
}

/// Monotonic nanoseconds.
enum Clock {
  static let millisecond: UInt64 = 1_000_000
  static let second: UInt64 = 1_000_000_000
  static var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

  static func sleep(until time: UInt64) {
    let current = now
    guard time > current else { return }
    var request = timespec(
      tv_sec: Int(time - current) / 1_000_000_000, tv_nsec: Int(time - current) % 1_000_000_000)
    _ = nanosleep(&request, nil)
  }
}
