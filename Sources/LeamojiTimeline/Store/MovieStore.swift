import FoundationEssentials
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// A new analysis result for `MovieStore.merge`.
public struct MovieUpdate: Equatable, Sendable {
  /// The entry to store (its `id` says which entry it replaces).
  public var movie: Movie
  /// Whether `movie.title` was given explicitly (command line); if not, a title already in the
  /// file is kept, because users edit titles in `MovieData.json`.
  public var titleGiven: Bool
  /// Same as `titleGiven`, for `description`.
  public var descriptionGiven: Bool

  public init(movie: Movie, titleGiven: Bool = false, descriptionGiven: Bool = false) {
    self.movie = movie
    self.titleGiven = titleGiven
    self.descriptionGiven = descriptionGiven
  }
}

/// What `MovieStore.merge` stored.
public struct MergeResult: Equatable, Sendable {
  /// The stored entry for each updated id, in the order of the updates (after keeping a
  /// user-edited title or description).
  public var movies: [Movie]
  /// The ids whose existing entry was replaced (the others were added), in update order.
  public var replacedIDs: [String]

  public init(movies: [Movie], replacedIDs: [String]) {
    self.movies = movies
    self.replacedIDs = replacedIDs
  }
}

/// `MovieData.json` on disk, shared safely by concurrent `leamoji analyze` runs.
///
/// * Reading needs no lock: the file is only ever replaced whole, by `rename`.
/// * `merge` holds an exclusive `flock` on a lock file beside the JSON
///   (`.MovieData.json.lock`, created once and left in place: deleting it would let two
///   processes lock different files), reads the current file, replaces the entries with the
///   updated ids, keeps every other entry as it was (all its keys, including keys leamoji does
///   not know), sorts by id and writes the result with `DurableFile` (temporary file in the
///   same folder, `fsync`, `rename`, `fsync` of the folder; permissions and owner kept).
///   Readers and crashes see the old or the new file, never a half-written one.
/// * A malformed existing file is an error naming it and is left byte-for-byte untouched.
/// * Temporary files of runs killed mid-write are removed by `DurableFile`'s sweep.
/// * A symbolic link at `path` is followed: the file it points to is replaced, not the link.
public struct MovieStore: Sendable {
  /// The JSON file, as given (used in error messages).
  public let path: String
  /// Steps of the durable write that fail on purpose (tests only).
  var failingSteps: Set<DurableFile.Step> = []

  public init(path: String) {
    self.path = path
  }

  /// The lock file beside the JSON: `.<name>.lock`.
  public var lockPath: String { target.lockPath }

  /// The JSON actually read and replaced: `path`, or the file a link at `path` leads to.
  private var target: DurableFile { DurableFile(DurableFile.followingLinks(path)) }

  /// The movies in the file, in file order; a missing (or empty) file has none.
  public func read() throws(MovieDataError) -> [Movie] {
    try readEntries(target).map(\.movie)
  }

  /// The entries in the file with what leamoji could tell about each (see `CatalogueEntry`), in
  /// file order; a missing (or empty) file has none.
  public func readCatalogue() throws(MovieDataError) -> [CatalogueEntry] {
    try readEntries(target).map(\.entry)
  }

  /// The ids of the file's entries in file order, repeated ids too; a missing (or empty) file
  /// has none. `analyze` reads them once, before any work, to refuse an id two entries hold
  /// (`MovieData.ambiguity`) as `merge` would after it.
  public func ids() throws(MovieDataError) -> [String] {
    try readRawEntries(target).map(\.id)
  }

  /// Whether the file exists (a link is followed).
  public var exists: Bool { access(DurableFile.followingLinks(path), F_OK) == 0 }

  /// Stores `updates` (see the type's description) and returns what was stored.
  /// An entry that replaces an existing one keeps the existing `title` / `description` unless
  /// the update says they were given, an existing `poster` that is not leamoji's own
  /// `<id>.jpg` (the app's or a hand-set one), and every key leamoji does not write; its other
  /// keys (`markers`, `model`, `duration`, `frames`, ...) are the update's. When several
  /// updates have the same id, only the last one is stored (and reported).
  /// - Throws: `MovieDataError` also when the file holds two entries with an updated id
  ///   (`MovieData.ambiguity`): nothing is written then.
  @discardableResult
  public func merge(_ updates: [MovieUpdate]) throws(MovieDataError) -> MergeResult {
    // Several updates for one id: only the last counts.
    let updates = updates.enumerated().filter { index, update in
      !updates[(index + 1)...].contains { $0.movie.id == update.movie.id }
    }.map(\.element)
    try MovieData.validate(updates.map(\.movie), path: path)
    var rawUpdates: [RawUpdate] = []
    for update in updates {
      rawUpdates.append(
        RawUpdate(
          object: try MovieData.raw(update.movie, path: path), id: update.movie.id,
          keepTitle: !update.titleGiven, keepDescription: !update.descriptionGiven))
    }
    let (stored, replaced) = try store(rawUpdates)
    return MergeResult(movies: stored.map(\.movie), replacedIDs: replaced)
  }

  /// Stores a person's corrections of entry `id` (`leamoji review`): its `userEdits` become
  /// `edits` (the key is removed when there are none), its `markers` become `markers` (the
  /// analysis' markers with the edits applied, see `UserEdits.apply`) and the labels of its
  /// `frames` follow them; every other key stays.
  /// Same lock and durable write as `merge`. Returns the stored entry.
  /// - Throws: `MovieDataError` when the file has no entry `id` or several, is malformed, or
  ///   cannot be written (the file is then unchanged).
  @discardableResult
  public func storeEdits(id: String, markers: [Marker], edits: [UserEdit]) throws(MovieDataError)
    -> Movie
  {
    let rawMarkers: RawJSON
    do {
      rawMarkers = try MovieData.rawValue(markers)
    } catch {
      throw MovieDataError(path: path, problem: "cannot encode the markers of \"\(id)\"")
    }
    let rawEdits = UserEdits.raw(edits)
    let update = RawUpdate(
      object: [:], id: id,
      change: { old in
        var object = UserEdits.relabelFrames(old, markers: markers)
        object["markers"] = rawMarkers
        object[UserEdits.key] = edits.isEmpty ? nil : rawEdits
        return object
      })
    return try store([update]).stored[0].movie
  }

  /// One entry to store as raw keys, and which of the existing entry's keys win.
  struct RawUpdate {
    var object: [String: RawJSON]
    var id: String
    var keepTitle = true
    var keepDescription = true
    /// When set, the entry is the existing one changed by this (under the lock), not `object`.
    var change: (([String: RawJSON]) -> [String: RawJSON])? = nil
  }

  /// Under the lock: reads the file, combines each update with the entry of its id (see
  /// `combine`; an id two entries hold is refused as `.read`, nothing written), and writes the
  /// whole file durably. Returns the stored entries (in update order)
  /// and the ids that replaced an existing entry.
  func store(_ updates: [RawUpdate]) throws(MovieDataError) -> (
    stored: [CatalogueEntry], replaced: [String]
  ) {
    do {
      return try storeOrFail(updates)
    } catch {
      switch error {
      case .read(let error), .write(let error): throw error
      }
    }
  }

  /// Why `store` failed: the existing file could not be read (malformed), or writing failed.
  enum StoreFailure: Error {
    case read(MovieDataError)
    case write(MovieDataError)
  }

  /// `store`, telling a malformed existing file from a failed write.
  func storeOrFail(_ updates: [RawUpdate]) throws(StoreFailure) -> (
    stored: [CatalogueEntry], replaced: [String]
  ) {
    var file = target
    guard Self.isFolder(file.folder) else {
      throw .write(MovieDataError(path: path, problem: "the folder \(file.folder) does not exist"))
    }
    let lock: FileLock
    do {
      lock = try file.lock()
    } catch {
      throw .write(MovieDataError(path: path, problem: error.problem))
    }
    defer { lock.release() }

    // Every entry of the file in file order, ids repeating or not: none is dropped.
    var entries: [(id: String, raw: [String: RawJSON])]
    do {
      entries = try readRawEntries(file)
    } catch {
      throw .read(error)
    }
    var positions: [String: [Int]] = [:]
    for (index, entry) in entries.enumerated() { positions[entry.id, default: []].append(index) }
    var stored: [CatalogueEntry] = []
    var replaced: [String] = []
    for update in updates {
      let found = positions[update.id] ?? []
      guard found.count < 2 else {
        // Which of the entries is meant cannot be known: refuse rather than guess.
        throw .read(
          MovieDataError(
            path: path,
            problem: MovieData.ambiguityProblem(id: update.id, positions: found.map { $0 + 1 })))
      }
      var object = update.object
      if let change = update.change {
        guard let index = found.first else {
          throw .write(
            MovieDataError(
              path: path, problem: "no entry \"\(update.id)\" (analyse the video first)"))
        }
        object = change(entries[index].raw)
        replaced.append(update.id)
      } else if let index = found.first {
        object = Self.combine(old: entries[index].raw, new: update)
        replaced.append(update.id)
      }
      // A person's corrections win over the model's markers, after every analysis too.
      object = UserEdits.reapply(object, id: update.id)
      if let index = found.first {
        entries[index].raw = object
      } else {
        positions[update.id] = [entries.count]
        entries.append((update.id, object))
      }
      stored.append(CatalogueEntry.read(object, id: update.id))
    }
    let document: Data
    do {
      document = try MovieData.encode(
        raw: MovieData.sortedByID(entries, id: \.id).map(\.raw), path: path)
    } catch {
      throw .write(error)
    }
    file.failingSteps = failingSteps
    do {
      try file.write([UInt8](document))
    } catch {
      throw .write(MovieDataError(path: path, problem: error.problem))
    }
    return (stored, replaced)
  }

  /// The store's rule for an entry analysed again: the new entry's keys, plus every key of the
  /// old one the new one lacks and leamoji does not write, the old `title` / `description` when
  /// kept, and the old `poster` when it is not leamoji's `<id>.jpg`.
  static func combine(old: [String: RawJSON], new update: RawUpdate) -> [String: RawJSON] {
    var object = update.object
    for (key, value) in old where object[key] == nil && !CatalogueEntry.leamojiKeys.contains(key) {
      object[key] = value
    }
    if update.keepTitle, let title = old["title"] { object["title"] = title }
    if update.keepDescription, let description = old["description"] {
      object["description"] = description
    }
    if case .string(let poster)? = old["poster"], poster != "\(update.id).jpg" {
      object["poster"] = .string(poster)
    }
    return object
  }

  // MARK: - Internals

  private func readEntries(_ file: DurableFile) throws(MovieDataError) -> [MovieData.Entry] {
    try readRawEntries(file).map { id, raw in
      MovieData.Entry(entry: CatalogueEntry.read(raw, id: id), raw: raw)
    }
  }

  private func readRawEntries(_ file: DurableFile) throws(MovieDataError) -> [(
    id: String, raw: [String: RawJSON]
  )] {
    let bytes: [UInt8]?
    do {
      bytes = try file.readIfPresent()
    } catch {
      throw MovieDataError(path: path, problem: error.problem)
    }
    guard let bytes else { return [] }
    return try MovieData.parseRaw(Data(bytes), path: path)
  }

  /// Whether `path` is an existing folder.
  private static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }
}
