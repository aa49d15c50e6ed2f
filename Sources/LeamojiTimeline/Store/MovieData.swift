import FoundationEssentials
import LeamojiCore

/// Reading and writing the `MovieData.json` document (docs/movie-data.md).
///
/// Written form: a JSON array of movies sorted by `id`, `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (as the original iOS app, plus
/// unescaped slashes for poster paths), UTF-8 with emoji unescaped, whole numbers without `.0`
/// (Foundation on Linux already writes `7`, not `7.0`), and a trailing newline.
///
/// Read form: any valid JSON array of objects with a string `id`, whoever wrote them (compact or
/// pretty, any key order, any other keys missing or extra: see `CatalogueEntry`; `MovieStore`
/// keeps every key when it rewrites the file). An empty file is an empty list. Anything else is
/// a `MovieDataError` naming the file and the problem.
public enum MovieData {
  /// The conventional file name.
  public static let defaultFileName = "MovieData.json"

  /// The bytes of the document for `movies`, sorted by `id`.
  /// - Parameter path: only used to name the file in an error.
  /// - Throws: for an empty id, two movies with one id (leamoji never makes them), or a number
  ///   that is not finite (JSON has no NaN or infinity).
  public static func encode(_ movies: [Movie], path: String = defaultFileName)
    throws(MovieDataError) -> Data
  {
    try validate(movies, path: path)
    let sorted = movies.sorted { $0.id < $1.id }
    do {
      return terminalSafe(try makeEncoder().encode(sorted)) + [0x0A]
    } catch {
      throw MovieDataError(path: path, problem: "cannot encode: \(describe(encodingError: error))")
    }
  }

  /// The movies of a document, in file order (see `decodeCatalogue` for what is accepted).
  /// - Parameter path: the file the bytes came from, for error messages.
  public static func decode(_ data: Data, path: String) throws(MovieDataError) -> [Movie] {
    try parse(data, path: path).map(\.entry.movie)
  }

  /// The entries of a document, in file order, however they were written: any object with a
  /// string `id` is an entry (see `CatalogueEntry`).
  /// - Throws: for what is not JSON, not an array, or an entry that is not an object or has no
  ///   string `id`. Two entries with one id are both returned, in file order (see
  ///   `ambiguity(of:ids:path:)` for the commands that must pick one).
  public static func decodeCatalogue(_ data: Data, path: String) throws(MovieDataError)
    -> [CatalogueEntry]
  {
    try parse(data, path: path).map(\.entry)
  }

  /// One entry as read: the lenient typed view and every key the file had (for rewriting it as
  /// it was).
  struct Entry {
    var entry: CatalogueEntry
    var raw: [String: RawJSON]
    var movie: Movie { entry.movie }
  }

  /// Parses a document: valid JSON, an array, objects with a string `id` (ids may repeat).
  /// Everything else in an entry is optional (`CatalogueEntry.read`).
  static func parse(_ data: Data, path: String) throws(MovieDataError) -> [Entry] {
    try parseRaw(data, path: path).map { id, raw in
      Entry(entry: CatalogueEntry.read(raw, id: id), raw: raw)
    }
  }

  /// `parse` without the typed view: each entry's id and keys, in file order (what merging
  /// needs). The index of an entry in the result is its index in the file: every entry is
  /// returned, including entries whose id an earlier entry already has.
  static func parseRaw(_ data: Data, path: String) throws(MovieDataError) -> [(
    id: String, raw: [String: RawJSON]
  )] {
    let bytes = [UInt8](data)
    if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return [] }
    let document: RawJSON
    do {
      document = try RawJSON.parse(bytes)
    } catch {
      throw MovieDataError(path: path, problem: "not valid JSON: \(error.message)")
    }
    guard case .array(let values) = document else {
      throw MovieDataError(
        path: path, problem: "expected a JSON array of movies, found \(document.kindDescription)")
    }
    var entries: [(id: String, raw: [String: RawJSON])] = []
    entries.reserveCapacity(values.count)
    for (index, value) in values.enumerated() {
      let object = try entryObject(value, index: index, path: path)
      guard case .string(let id)? = object["id"] else { continue }  // checked by entryObject
      entries.append((id, object))
    }
    return entries
  }

  // MARK: - Duplicated ids

  /// Why a command cannot act on the entry `id` of a file whose entries have `ids` (in file
  /// order): `nil` when at most one entry has it.
  ///
  /// A file may hold two entries with one id (the original app or a person wrote them); every
  /// entry is read and kept. But storing an analysis, a person's corrections or a fragment under
  /// that id, or showing or playing "the" entry for it, would have to guess which entry is meant
  /// — the two may be one film twice or two films — so such a command refuses, naming the file,
  /// the id and the entries' positions (1-based, as `list` and a text editor count them), and
  /// says how to fix it (docs/movie-data.md, "Duplicated ids").
  public static func ambiguity(of id: String, ids: [String], path: String) -> MovieDataError? {
    let positions = ids.indices.filter { ids[$0] == id }.map { $0 + 1 }
    guard positions.count > 1 else { return nil }
    return MovieDataError(path: path, problem: ambiguityProblem(id: id, positions: positions))
  }

  /// The ids held by more than one entry of `ids` (in file order), each with the 1-based
  /// positions of its entries, in order of first appearance.
  public static func duplicatedIDs(_ ids: [String]) -> [(id: String, positions: [Int])] {
    var positions: [String: [Int]] = [:]
    var order: [String] = []
    for (index, id) in ids.enumerated() {
      if positions[id] == nil { order.append(id) }
      positions[id, default: []].append(index + 1)
    }
    return order.compactMap { id in
      positions[id].flatMap { $0.count > 1 ? (id, $0) : nil }
    }
  }

  /// `id "x" is in entries 2 and 5: ...; give one of them another id or remove it`.
  static func ambiguityProblem(id: String, positions: [Int]) -> String {
    let numbers = positions.map(String.init)
    let list = numbers.dropLast().joined(separator: ", ") + " and " + numbers.last!
    let fix =
      positions.count == 2
      ? "give one of them another id (or remove it)"
      : "give all but one of them other ids (or remove them)"
    return "id \"\(id)\" is in entries \(list), so leamoji cannot tell which one is meant; "
      + "\(fix) and run again"
  }

  /// `entries` sorted by id, entries with one id kept in their file order (the written order).
  public static func sortedByID<T>(_ entries: [T], id: (T) -> String) -> [T] {
    entries.enumerated().sorted { a, b in
      let (ia, ib) = (id(a.element), id(b.element))
      return ia != ib ? ia < ib : a.offset < b.offset
    }.map(\.element)
  }

  /// `value` as an entry: an object with a string `id`.
  static func entryObject(_ value: RawJSON, index: Int, path: String) throws(MovieDataError)
    -> [String: RawJSON]
  {
    let entry = "entry \(index + 1)"
    guard case .object(let object) = value else {
      throw MovieDataError(
        path: path, problem: "\(entry) is \(value.kindDescription), expected a movie object")
    }
    guard let idValue = object["id"] else {
      throw MovieDataError(path: path, problem: "\(entry) has no \"id\"")
    }
    guard case .string = idValue else {
      throw MovieDataError(
        path: path, problem: "\(entry): \"id\" must be a string, found \(idValue.kindDescription)")
    }
    return object
  }

  /// Refuses what leamoji itself never writes: empty ids, two movies with one id (a file may
  /// hold them, but leamoji does not make them), and non-finite numbers.
  static func validate(_ movies: [Movie], path: String) throws(MovieDataError) {
    var seen = Set<String>()
    for movie in movies {
      guard !movie.id.isEmpty else {
        throw MovieDataError(path: path, problem: "cannot store a movie with an empty id")
      }
      guard seen.insert(movie.id).inserted else {
        throw MovieDataError(
          path: path, problem: "cannot store two movies with the id \"\(movie.id)\"")
      }
      if let field = nonFiniteField(movie) {
        throw MovieDataError(
          path: path, problem: "entry \"\(movie.id)\": \(field) is not a finite number")
      }
    }
  }

  /// The first number of `movie` that JSON cannot hold, as a path ("markers[2].cueAt").
  private static func nonFiniteField(_ movie: Movie) -> String? {
    if !movie.duration.isFinite { return "duration" }
    if !movie.seekAhead.isFinite { return "seekAhead" }
    for (index, marker) in movie.markers.enumerated() {
      for (name, value) in [
        ("confidence", marker.confidence), ("cueAt", marker.cueAt), ("second", marker.second),
      ]
      where !value.isFinite {
        return "markers[\(index)].\(name)"
      }
    }
    for (index, event) in (movie.events ?? []).enumerated() {
      if !event.second.isFinite { return "events[\(index)].second" }
      if !event.cueAt.isFinite { return "events[\(index)].cueAt" }
    }
    for (index, frame) in (movie.frames ?? []).enumerated() {
      if !frame.second.isFinite { return "frames[\(index)].second" }
      if let intensity = frame.intensity, !intensity.isFinite {
        return "frames[\(index)].intensity"
      }
      if let label = frame.probabilities.keys.sorted().first(where: {
        !frame.probabilities[$0]!.isFinite
      }) {
        return "frames[\(index)].probabilities.\(label)"
      }
    }
    return nil
  }

  /// The document for raw entries (already sorted and validated), formatted like `encode`.
  static func encode(raw entries: [[String: RawJSON]], path: String) throws(MovieDataError) -> Data
  {
    do {
      return terminalSafe(try makeEncoder().encode(entries.map(RawJSON.object))) + [0x0A]
    } catch {
      throw MovieDataError(path: path, problem: "cannot encode: \(describe(encodingError: error))")
    }
  }

  /// Every key of `movie` as the file will hold it.
  static func raw(_ movie: Movie, path: String) throws(MovieDataError) -> [String: RawJSON] {
    let data: Data
    do {
      data = try JSONEncoder().encode(movie)
    } catch {
      throw MovieDataError(path: path, problem: "cannot encode: \(describe(encodingError: error))")
    }
    guard case .object(let object)? = try? RawJSON.parse([UInt8](data)) else {
      throw MovieDataError(path: path, problem: "cannot encode entry \"\(movie.id)\"")
    }
    return object
  }

  /// Any encodable value (markers, ...) as the file will hold it.
  static func rawValue<T: Encodable>(_ value: T) throws -> RawJSON {
    try RawJSON.parse([UInt8](try JSONEncoder().encode(value)))
  }

  /// `json` with C1 controls, DEL, line separators and bidi controls escaped as `\uXXXX` (the
  /// encoder escapes only C0): the same values, and safe to `cat` on a terminal.
  static func terminalSafe(_ json: Data) -> Data {
    Data(UnsafeText.jsonEscaped(String(decoding: json, as: UTF8.self)).utf8)
  }

  /// The one encoder configuration of the file format.
  static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  // MARK: - Error messages

  /// "markers[1].second".
  private static func pathText(_ path: ArraySlice<any CodingKey>) -> String {
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    return text
  }

  private static func describe(encodingError error: any Error) -> String {
    guard case EncodingError.invalidValue(let value, let context) = error else { return "\(error)" }
    let path = pathText(context.codingPath[...])
    return
      "\(path.isEmpty ? "" : path + ": ")\(value) is not a valid JSON value (numbers must be finite)"
  }
}
