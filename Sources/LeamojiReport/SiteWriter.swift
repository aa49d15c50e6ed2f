import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// Writes the files of one report into the site folder, skipping those that are unchanged
/// since the last report (by `ReportCache`), and at the end removes what the last report wrote
/// that this one did not, then records the new manifest.
struct SiteWriter {
  let root: String
  let previous: ReportCache
  private(set) var current = ReportCache()
  private(set) var written = 0
  private(set) var unchanged = 0
  private var madeFolders: Set<String> = []

  init(root: String, previous: ReportCache) {
    self.root = root
    self.previous = previous
  }

  /// `root/path`.
  func full(_ path: String) -> String { PathText.appending(path, to: root) }

  private func exists(_ path: String) -> Bool { access(full(path), F_OK) == 0 }

  /// Writes `bytes` at the site-relative `path` unless the last report wrote the same bytes
  /// there (and they are still there). `source` records what the file was made from.
  mutating func write(_ bytes: [UInt8], to path: String, source: String? = nil) throws(ReportError)
  {
    let hash = FNV1a.hex(bytes)
    current.files[path] = hash
    if let source { current.sources[path] = source }
    if previous.files[path] == hash && (source == nil || previous.sources[path] == source)
      && exists(path)
    {
      unchanged += 1
      return
    }
    try makeFolder(of: path)
    try SiteFiles.write(bytes, to: full(path))
    written += 1
  }

  /// Whether the file at `path` was made by the last report from `source` and is still there;
  /// if so it is kept (and counted unchanged).
  mutating func keep(_ path: String, source: String) -> Bool {
    guard previous.sources[path] == source, exists(path) else { return false }
    current.sources[path] = source
    if let hash = previous.files[path] { current.files[path] = hash }
    unchanged += 1
    return true
  }

  /// Copies the file `source` to `path` unless the last report copied the same version.
  mutating func copy(_ source: String, to path: String) throws(ReportError) {
    guard let identity = SiteFiles.identity(of: source) else {
      throw ReportError("\(source): no such file", kind: .noInput)
    }
    if keep(path, source: identity) { return }
    try makeFolder(of: path)
    try SiteFiles.copy(source, to: full(path))
    current.sources[path] = identity
    written += 1
  }

  /// Removes the files of the last report that this one did not make, and writes the manifest.
  /// - Returns: how many files were removed.
  mutating func finish() throws(ReportError) -> Int {
    let stale = previous.paths.subtracting(current.paths).sorted()
    for path in stale where !path.contains("..") && !path.hasPrefix("/") {
      SiteFiles.remove(full(path))
    }
    let bytes: [UInt8]
    do {
      bytes = try current.encoded()
    } catch {
      throw ReportError(
        "\(full(ReportCache.fileName)): cannot encode (\(error))", kind: .cannotWrite)
    }
    try SiteFiles.write(bytes, to: full(ReportCache.fileName))
    return stale.count
  }

  private mutating func makeFolder(of path: String) throws(ReportError) {
    let folder = PathText.deletingLastComponent(path)
    guard !folder.isEmpty, !madeFolders.contains(folder) else { return }
    try SiteFiles.makeFolder(full(folder))
    madeFolders.insert(folder)
  }
}
