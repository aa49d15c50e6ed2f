import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A fresh folder under the system's temporary directory (`leamoji-<label>-<UUID>`), removed by
/// `remove()`: the one scratch folder of every test target.
public struct ScratchFolder: Sendable {
  /// The folder's path.
  public let path: String

  public init(_ label: String = "tests") throws {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("leamoji-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    path = url.path
  }

  /// A new folder, as a URL (the caller removes it, or calls `remove()` on a `ScratchFolder`).
  public static func url(_ label: String = "tests") throws -> URL {
    try ScratchFolder(label).url
  }

  /// A new folder, as a URL, removed when the test process exits: for what the tests of a run
  /// share (made once, used by many, so no one test can remove it).
  public static func removedAtExit(_ label: String) throws -> URL {
    let folder = try ScratchFolder(label)
    removedAtExitLock.lock()
    defer { removedAtExitLock.unlock() }
    if removedAtExitPaths.isEmpty {
      atexit {
        removedAtExitLock.lock()
        defer { removedAtExitLock.unlock() }
        for path in removedAtExitPaths { ScratchFolder(existing: path).remove() }
      }
    }
    removedAtExitPaths.append(folder.path)
    return folder.url
  }

  private init(existing path: String) { self.path = path }

  /// The folder as a file URL.
  public var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

  /// The path of `name` inside the folder.
  public func file(_ name: String) -> String { path + "/" + name }

  /// The URL of `name` inside the folder.
  public func fileURL(_ name: String) -> URL { URL(fileURLWithPath: file(name)) }

  /// Every name in the folder, hidden ones included, sorted.
  public func names() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path).sorted()
  }

  public func write(_ text: String, to name: String) throws {
    try Data(text.utf8).write(to: fileURL(name))
  }

  /// The bytes of `name`.
  public func bytes(_ name: String) throws -> [UInt8] { [UInt8](try data(name)) }

  /// The contents of `name`.
  public func data(_ name: String) throws -> Data { try Data(contentsOf: fileURL(name)) }

  /// The contents of `name` as UTF-8 text (invalid bytes replaced).
  public func text(_ name: String) throws -> String {
    String(decoding: try data(name), as: UTF8.self)
  }

  /// Removes the folder and everything in it (after making it writable again).
  public func remove() {
    chmod(path, 0o755)
    try? FileManager.default.removeItem(atPath: path)
  }
}

/// The folders `removedAtExit` made, read by its `atexit` handler (which cannot capture context).
nonisolated(unsafe) private var removedAtExitPaths: [String] = []
private let removedAtExitLock = NSLock()

/// A problem with the test environment or a harness step (not a finding about leamoji).
public struct HarnessError: Error, CustomStringConvertible, Sendable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
