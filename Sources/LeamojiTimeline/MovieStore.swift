import Foundation
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

  /// Stores `updates` (see the type's description) and returns what was stored.
  /// An entry that replaces an existing one keeps the existing `title` / `description` unless
  /// the update says they were given, and keeps the existing entry's unknown keys; its other
  /// keys (`markers`, `model`, `poster`, `frames`, ...) are the update's. When several updates
  /// have the same id, only the last one is stored (and reported).
  @discardableResult
  public func merge(_ updates: [MovieUpdate]) throws(MovieDataError) -> MergeResult {
    var file = target
    // Several updates for one id: only the last counts.
    let updates = updates.enumerated().filter { index, update in
      !updates[(index + 1)...].contains { $0.movie.id == update.movie.id }
    }.map(\.element)
    try MovieData.validate(updates.map(\.movie), path: path)
    guard Self.isFolder(file.folder) else {
      throw MovieDataError(path: path, problem: "the folder \(file.folder) does not exist")
    }
    let lock: FileLock
    do {
      lock = try file.lock()
    } catch {
      throw MovieDataError(path: path, problem: error.problem)
    }
    defer { lock.release() }

    var entries: [String: [String: RawJSON]] = [:]
    var existing: [String: Movie] = [:]
    for entry in try readEntries(file) {
      entries[entry.movie.id] = entry.raw
      existing[entry.movie.id] = entry.movie
    }
    let knownKeys = Set(Movie.CodingKeys.allCases.map(\.stringValue))
    var stored: [Movie] = []
    var replaced: [String] = []
    for update in updates {
      var movie = update.movie
      var raw: [String: RawJSON] = [:]
      if let old = existing[movie.id] {
        if !update.titleGiven { movie.title = old.title }
        if !update.descriptionGiven { movie.description = old.description }
        raw = (entries[movie.id] ?? [:]).filter { !knownKeys.contains($0.key) }
        replaced.append(movie.id)
      }
      raw.merge(try MovieData.raw(movie, path: path)) { _, new in new }
      entries[movie.id] = raw
      stored.append(movie)
    }
    let document = try MovieData.encode(
      raw: entries.keys.sorted().compactMap { entries[$0] }, path: path)
    file.failingSteps = failingSteps
    do {
      try file.write([UInt8](document))
    } catch {
      throw MovieDataError(path: path, problem: error.problem)
    }
    return MergeResult(movies: stored, replacedIDs: replaced)
  }

  // MARK: - Internals

  private func readEntries(_ file: DurableFile) throws(MovieDataError) -> [MovieData.Entry] {
    let bytes: [UInt8]?
    do {
      bytes = try file.readIfPresent()
    } catch {
      throw MovieDataError(path: path, problem: error.problem)
    }
    guard let bytes else { return [] }
    return try MovieData.parse(Data(bytes), path: path)
  }

  /// Whether `path` is an existing folder.
  private static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }
}
