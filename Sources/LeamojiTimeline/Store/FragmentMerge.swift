import FoundationEssentials
import LeamojiCore

/// Why `MovieStore.merge(fragments:)` stopped; the store is then left as it was.
public struct FragmentMergeError: Error, CustomStringConvertible, Equatable, Sendable {
  /// `noInput`: a fragment does not exist or cannot be read; `badInput`: a fragment (or the
  /// store) is malformed, or two fragments disagree about one id; `cannotWrite`: the store
  /// could not be written.
  public var kind: ProblemKind
  /// One line naming the file and the problem.
  public var error: MovieDataError

  public var description: String { error.description }
}

/// What `MovieStore.merge(fragments:)` stored.
public struct FragmentMergeReport: Codable, Equatable, Sendable {
  /// Fragment files read.
  public var fragments: Int
  /// Ids that were not in the store before, sorted.
  public var added: [String]
  /// Ids whose entry in the store was replaced, sorted.
  public var replaced: [String]
  /// Posters and subtitles copied from beside their fragment to beside the store.
  public var copied: Int = 0
}

extension MovieStore {
  /// Merges per-film fragments — `MovieData.json` files such as `analyze --output part.json`
  /// writes, usually on other machines — into this store, by the store's rules: each fragment
  /// entry replaces the store's entry with its id, keeping the store's title, description,
  /// hand-set poster and keys leamoji does not write (`combine`); every other entry stays as it
  /// was.
  ///
  /// Idempotent (merging the same fragments again changes nothing) and independent of the
  /// order of `paths`: two fragments with one id must hold the same entry, else nothing is
  /// written and the error names both files; within one fragment, entries sharing an id count
  /// once when they are equal and are refused when they differ. An id that two entries of the
  /// store hold is refused (`MovieData.ambiguity`): which one to replace cannot be known; the
  /// store's other entries sharing an id are kept as they are. Fragments are read one at a
  /// time, so memory holds the store and the fragments' entries, not every fragment's text at
  /// once.
  public func merge(fragments paths: [String]) throws(FragmentMergeError) -> FragmentMergeReport {
    var updates: [String: (update: RawUpdate, file: String)] = [:]
    var companions: [(from: String, name: String)] = []
    for fragment in paths {
      let bytes: [UInt8]?
      do {
        bytes = try DurableFile(fragment).readIfPresent()
      } catch {
        throw FragmentMergeError(
          kind: .noInput, error: MovieDataError(path: fragment, problem: error.problem))
      }
      guard let bytes else {
        throw FragmentMergeError(
          kind: .noInput, error: MovieDataError(path: fragment, problem: "no such file"))
      }
      let entries: [(id: String, raw: [String: RawJSON])]
      do {
        entries = try MovieData.parseRaw(Data(bytes), path: fragment)
      } catch {
        throw FragmentMergeError(kind: .badInput, error: error)
      }
      // One id twice in this fragment: the same entry twice counts once; two different
      // entries cannot both be stored under it (as for two fragments).
      var firstInFragment: [String: Int] = [:]
      for (index, entry) in entries.enumerated() {
        let id = entry.id
        if let first = firstInFragment[id] {
          guard entries[first].raw == entry.raw else {
            throw FragmentMergeError(
              kind: .badInput,
              error: MovieDataError(
                path: fragment,
                problem:
                  "entries \(first + 1) and \(index + 1) both have the id \"\(id)\" but differ; "
                  + "keep one of them (or give one another id) and run again"))
          }
          continue
        }
        firstInFragment[id] = index
        if let earlier = updates[id], earlier.update.object != entry.raw {
          let (first, second) = [earlier.file, fragment].sorted().pair
          throw FragmentMergeError(
            kind: .badInput,
            error: MovieDataError(
              path: first,
              problem:
                "entry \"\(id)\" differs from the one in \(second); merge only one of them"))
        }
        if updates[id] == nil {
          companions += Self.companionNames(entry.raw, id: id).map { (fragment, $0) }
        }
        updates[id] = (RawUpdate(object: entry.raw, id: id), updates[id]?.file ?? fragment)
      }
    }
    let ids = updates.keys.sorted()
    let replaced: [String]
    do {
      replaced = try storeOrFail(ids.compactMap { updates[$0]?.update }).replaced
    } catch {
      switch error {
      case .read(let error): throw FragmentMergeError(kind: .badInput, error: error)
      case .write(let error): throw FragmentMergeError(kind: .cannotWrite, error: error)
      }
    }
    let replacedSet = Set(replaced)
    var report = FragmentMergeReport(
      fragments: paths.count, added: ids.filter { !replacedSet.contains($0) },
      replaced: replaced.sorted())
    report.copied = try copy(companions)
    return report
  }

  /// The files an entry names beside its document: its poster and `<id>.vtt` / `<id>.srt`,
  /// only as plain file names (a name with `/`, or `.`/`..`, could reach outside the folder).
  static func companionNames(_ raw: [String: RawJSON], id: String) -> [String] {
    var names: [String] = []
    if case .string(let poster)? = raw["poster"] { names.append(poster) }
    names += ["\(id).vtt", "\(id).srt"]
    return names.filter { name in
      !name.isEmpty && !name.contains("/") && name != "." && name != ".."
        && !name.unicodeScalars.contains { $0.value < 0x20 }
    }
  }

  /// Copies each companion that exists beside its fragment to beside the store, when the two
  /// folders differ (durably, replacing an older copy). Returns how many were copied.
  private func copy(_ companions: [(from: String, name: String)]) throws(FragmentMergeError) -> Int
  {
    let storeFolder = Self.canonicalFolder(of: DurableFile.followingLinks(path))
    var copied = 0
    for (fragment, name) in companions {
      let sourceFolder = Self.canonicalFolder(of: fragment)
      guard sourceFolder != storeFolder else { continue }
      let source = DurableFile(PathText.appending(name, to: sourceFolder))
      let target = PathText.appending(name, to: storeFolder)
      do {
        guard let bytes = try source.readIfPresent() else { continue }
        try DurableFile(target).write(bytes)
        copied += 1
      } catch {
        throw FragmentMergeError(
          kind: .cannotWrite, error: MovieDataError(path: target, problem: error.problem))
      }
    }
    return copied
  }

  /// The real path of the folder `file` is in.
  private static func canonicalFolder(of file: String) -> String {
    let folder = PathText.deletingLastComponent(file)
    return URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL
      .resolvingSymlinksInPath().path
  }
}

extension Array where Element == String {
  /// The first two elements of a two-element array.
  fileprivate var pair: (String, String) { (self[0], self[1]) }
}
