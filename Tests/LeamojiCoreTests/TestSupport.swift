import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder under the system's temporary directory, removed by `remove()`.
struct Scratch {
  let path: String

  init(_ label: String) throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("leamoji-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  func file(_ name: String) -> String { path + "/" + name }

  /// Every name in the folder, hidden ones included, sorted.
  func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  func write(_ text: String, to name: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: file(name)))
  }

  func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: file(name))))
  }

  func remove() {
    chmod(path, 0o755)
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The `stat` of `path`, following links.
func status(_ path: String) -> stat {
  var info = stat()
  stat(path, &info)
  return info
}

/// Opens `path` and takes an exclusive `flock` on it, as a live writer holds its temporary
/// file; close the descriptor to let go.
func lockedDescriptor(_ path: String) -> Int32? {
  let descriptor = open(path, O_RDONLY | O_CLOEXEC)
  guard descriptor >= 0 else { return nil }
  guard flock(descriptor, LOCK_EX) == 0 else {
    close(descriptor)
    return nil
  }
  return descriptor
}

/// Polls `condition` for up to `seconds`.
func eventually(within seconds: Double = 2, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(seconds)
  while Date() < deadline {
    if condition() { return true }
    usleep(1_000)
  }
  return condition()
}
