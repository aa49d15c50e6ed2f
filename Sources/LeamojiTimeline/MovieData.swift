import Foundation
import LeamojiCore

/// Reading and writing the `MovieData.json` document (docs/movie-data.md).
///
/// Written form: a JSON array of movies sorted by `id`, `JSONEncoder` with
/// `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` (as the original iOS app, plus
/// unescaped slashes for poster paths), UTF-8 with emoji unescaped, whole numbers without `.0`
/// (Foundation on Linux already writes `7`, not `7.0`), and a trailing newline.
///
/// Read form: any valid JSON array of movie objects (compact or pretty, any key order; unknown
/// keys are ignored by `decode` — `MovieStore` keeps them when it rewrites the file). An empty
/// file is an empty list. Anything else is a `MovieDataError` naming the file and the problem.
public enum MovieData {
  /// The conventional file name.
  public static let defaultFileName = "MovieData.json"

  /// The bytes of the document for `movies`, sorted by `id`.
  /// - Parameter path: only used to name the file in an error.
  /// - Throws: when the document could not be read back: an empty or duplicate id, or a number
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

  /// The movies of a document, in file order.
  /// - Parameter path: the file the bytes came from, for error messages.
  public static func decode(_ data: Data, path: String) throws(MovieDataError) -> [Movie] {
    try parse(data, path: path).map(\.movie)
  }

  /// One entry as read: the typed movie and every key the file had (for rewriting it as is).
  struct Entry {
    var movie: Movie
    var raw: [String: RawJSON]
  }

  /// Parses and validates a document: valid JSON, an array, objects with a unique non-empty
  /// string `id`, and every required key of `Movie` with the right type.
  static func parse(_ data: Data, path: String) throws(MovieDataError) -> [Entry] {
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
    var objects: [[String: RawJSON]] = []
    var firstEntryForID: [String: Int] = [:]
    for (index, value) in values.enumerated() {
      let entry = "entry \(index + 1)"
      guard case .object(let object) = value else {
        throw MovieDataError(
          path: path, problem: "\(entry) is \(value.kindDescription), expected a movie object")
      }
      guard let idValue = object["id"] else {
        throw MovieDataError(path: path, problem: "\(entry) has no \"id\"")
      }
      guard case .string(let id) = idValue, !id.isEmpty else {
        throw MovieDataError(path: path, problem: "\(entry): \"id\" must be a non-empty string")
      }
      if let first = firstEntryForID[id] {
        throw MovieDataError(
          path: path, problem: "duplicate id \"\(id)\" (entries \(first + 1) and \(index + 1))")
      }
      firstEntryForID[id] = index
      objects.append(object)
    }
    let movies: [Movie]
    do {
      movies = try JSONDecoder().decode([Movie].self, from: data)
    } catch let error as DecodingError {
      throw MovieDataError(path: path, problem: describe(decodingError: error, in: values))
    } catch {
      throw MovieDataError(path: path, problem: "cannot read: \(error)")
    }
    return zip(movies, objects).map { Entry(movie: $0, raw: $1) }
  }

  /// Refuses what `decode` would refuse: empty or duplicate ids, and non-finite numbers.
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
    for (index, frame) in (movie.frames ?? []).enumerated() {
      if !frame.second.isFinite { return "frames[\(index)].second" }
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

  /// "entry 2 (\"forest-walk\"): markers[1].second: expected a number, found a string".
  static func describe(decodingError: DecodingError, in values: [RawJSON]) -> String {
    let context: DecodingError.Context
    var problem: String
    switch decodingError {
    case .keyNotFound(let key, let c):
      context = c
      problem = "missing key \"\(key.stringValue)\""
    case .typeMismatch(let type, let c):
      context = c
      let found = value(at: c.codingPath, in: values)?.kindDescription ?? "something else"
      problem = "expected \(describe(type: type)), found \(found)"
    case .valueNotFound(let type, let c):
      context = c
      problem = "expected \(describe(type: type)), found null"
    case .dataCorrupted(let c):
      context = c
      problem = c.debugDescription
    @unknown default:
      return "cannot read: \(decodingError)"
    }
    guard let index = context.codingPath.first?.intValue else { return problem }
    var entry = "entry \(index + 1)"
    if index < values.count, case .object(let object) = values[index],
      case .string(let id)? = object["id"]
    {
      entry += " (\"\(id)\")"
    }
    let inner = pathText(context.codingPath.dropFirst())
    return inner.isEmpty ? "\(entry): \(problem)" : "\(entry): \(inner): \(problem)"
  }

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

  private static func value(at path: [any CodingKey], in values: [RawJSON]) -> RawJSON? {
    var current = RawJSON.array(values)
    for key in path {
      switch current {
      case .array(let items):
        guard let index = key.intValue, items.indices.contains(index) else { return nil }
        current = items[index]
      case .object(let members):
        guard let next = members[key.stringValue] else { return nil }
        current = next
      default:
        return nil
      }
    }
    return current
  }

  private static func describe(type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Float.Type, is Int.Type: return "a number"
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    default:
      let name = String(describing: type)
      if name.hasPrefix("Array") || name.hasPrefix("[") && !name.contains(":") { return "an array" }
      return "an object"
    }
  }

  private static func describe(encodingError error: any Error) -> String {
    guard case EncodingError.invalidValue(let value, let context) = error else { return "\(error)" }
    let path = pathText(context.codingPath[...])
    return
      "\(path.isEmpty ? "" : path + ": ")\(value) is not a valid JSON value (numbers must be finite)"
  }
}
