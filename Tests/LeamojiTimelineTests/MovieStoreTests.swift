import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

@testable import LeamojiTimeline

@Suite("MovieStore")
struct MovieStoreTests {
  /// Names in the folder other than the JSON and its lock file (temporary files would show here).
  func leftovers(_ folder: ScratchFolder) throws -> [String] {
    try folder.names().filter { $0 != "MovieData.json" && $0 != ".MovieData.json.lock" }
  }

  @Test("a missing file reads as empty; the first merge creates it in the documented format")
  func createFile() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let store = MovieStore(path: folder.file("MovieData.json"))
    #expect(try store.read().isEmpty)
    let result = try store.merge([
      MovieUpdate(movie: sampleMovie("b")), MovieUpdate(movie: sampleMovie("a")),
    ])
    #expect(result.movies.map(\.id) == ["b", "a"])
    #expect(result.replacedIDs.isEmpty)
    #expect(
      try folder.data("MovieData.json") == MovieData.encode([sampleMovie("a"), sampleMovie("b")]))
    #expect(try store.read() == [sampleMovie("a"), sampleMovie("b")])
    #expect(try leftovers(folder).isEmpty)
    #expect(store.lockPath == folder.file(".MovieData.json.lock"))
  }

  @Test("merge replaces the same id, keeps the others, and reports the replacement")
  func replaceAndKeep() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let store = MovieStore(path: folder.file("MovieData.json"))
    try store.merge(["c", "a", "b"].map { MovieUpdate(movie: sampleMovie($0)) })
    var newer = sampleMovie(
      "b", markers: [Marker(confidence: 0.5, cueAt: 1, emoji: "😱", label: "scary", second: 6)])
    newer.duration = 99
    let result = try store.merge([MovieUpdate(movie: newer), MovieUpdate(movie: sampleMovie("d"))])
    #expect(result.replacedIDs == ["b"])
    #expect(result.movies == [newer, sampleMovie("d")])
    #expect(try store.read() == [sampleMovie("a"), newer, sampleMovie("c"), sampleMovie("d")])
  }

  @Test("a title or description edited in the file is kept unless given again")
  func userEditsKept() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let store = MovieStore(path: folder.file("MovieData.json"))
    try store.merge([MovieUpdate(movie: sampleMovie("film"))])
    let edited = try folder.text("MovieData.json")
      .replacingOccurrences(of: "\"title\" : \"film\"", with: "\"title\" : \"My Film\"")
      .replacingOccurrences(
        of: "\"description\" : \"\"", with: "\"description\" : \"Watch with the lights on\"")
    try folder.write(edited, to: "MovieData.json")

    var again = sampleMovie("film", title: "film-from-metadata")
    again.description = "from metadata"
    let kept = try store.merge([MovieUpdate(movie: again)])
    #expect(
      kept.movies[0].title == "My Film" && kept.movies[0].description == "Watch with the lights on")
    #expect(try store.read()[0].title == "My Film")

    let given = try store.merge([
      MovieUpdate(movie: again, titleGiven: true, descriptionGiven: false)
    ])
    #expect(given.movies[0].title == "film-from-metadata")
    #expect(given.movies[0].description == "Watch with the lights on")
    let both = try store.merge([MovieUpdate(movie: again, titleGiven: true, descriptionGiven: true)]
    )
    #expect(both.movies[0].description == "from metadata")
  }

  @Test("unknown keys survive: all of an untouched entry, the top-level ones of a replaced entry")
  func unknownKeysKept() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    try folder.write(
      #"""
      [{"id":"kept","title":"K","description":"","duration":1,"seekAhead":5,"rating":"PG","tags":["a",{"b":null}],
        "model":{"labels":["happy"],"sha256":"s","trainedOn":"2024"},
        "markers":[{"confidence":1,"cueAt":0,"emoji":"😀","label":"happy","second":0.0,"note":"n"}]},
       {"id":"redo","title":"R","description":"","duration":1,"seekAhead":5,"rating":"R",
        "model":{"labels":["happy"],"sha256":"s","trainedOn":"2024"},"markers":[]}]
      """#, to: "MovieData.json")
    let store = MovieStore(path: folder.file("MovieData.json"))
    try store.merge([MovieUpdate(movie: sampleMovie("redo"))])
    let text = try folder.text("MovieData.json")
    #expect(text.contains("\"rating\" : \"PG\""))
    #expect(
      text.contains("\"tags\" : [\n      \"a\",\n      {\n        \"b\" : null\n      }\n    ]"))
    #expect(text.contains("\"note\" : \"n\""))
    #expect(text.contains("\"rating\" : \"R\""))  // the replaced entry keeps its own extra key
    // Only the untouched model keeps it.
    #expect(text.components(separatedBy: "\"trainedOn\"").count == 2)
    #expect(!text.contains("0.0"))
    #expect(try store.read().map(\.id) == ["kept", "redo"])
  }

  @Test("a malformed file is an error naming it, and stays byte-for-byte as it was")
  func malformedUntouched() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let broken = "[{\"id\": \"a\", \"title\": \"unfinished\"\n"
    try folder.write(broken, to: "MovieData.json")
    let path = folder.file("MovieData.json")
    let store = MovieStore(path: path)
    #expect(throws: MovieDataError.self) { try store.merge([MovieUpdate(movie: sampleMovie("b"))]) }
    do {
      try store.merge([MovieUpdate(movie: sampleMovie("b"))])
    } catch {
      #expect(
        error.description
          == "\(path): not valid JSON: unexpected end of file, expected ',' or '}' at line 2, column 1"
      )
    }
    #expect(throws: MovieDataError.self) { try store.read() }
    #expect(try folder.data("MovieData.json") == Data(broken.utf8))
    #expect(try leftovers(folder).isEmpty)
  }

  @Test("8 concurrent merges of different ids into one file lose nothing")
  func concurrentMerges() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let path = folder.file("MovieData.json")
    try MovieStore(path: path).merge([MovieUpdate(movie: sampleMovie("existing"))])
    let failures = Failures()
    let done = DispatchSemaphore(value: 0)
    let ids = (1...8).map { "movie-\($0)" }
    for id in ids {
      let thread = Thread {
        // A store value per thread: each merge opens the lock file itself, as separate
        // processes would (flock locks belong to the open file description).
        for round in 0..<3 {
          do {
            try MovieStore(path: path).merge([
              MovieUpdate(movie: sampleMovie(id, title: "\(id) round \(round)"))
            ])
          } catch {
            failures.add("\(error)")
          }
        }
        done.signal()
      }
      thread.start()
    }
    for _ in ids { done.wait() }
    #expect(failures.all.isEmpty)
    let movies = try MovieStore(path: path).read()
    #expect(movies.map(\.id) == ["existing"] + ids)
    #expect(try leftovers(folder).isEmpty)
  }

  @Test(
    "a failed write leaves the previous file intact, removes the temporary file, names the file",
    arguments: [
      (DurableFile.Step.createTemporary, "cannot create a temporary file: Permission denied"),
      (DurableFile.Step.write, "cannot write: No space left on device"),
      (DurableFile.Step.sync, "cannot flush to disk: Input/output error"),
      (DurableFile.Step.rename, "cannot replace the file: Invalid cross-device link"),
    ])
  func failedWrite(step: DurableFile.Step, problem: String) throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let path = folder.file("MovieData.json")
    try MovieStore(path: path).merge([MovieUpdate(movie: sampleMovie("a"))])
    let before = try folder.data("MovieData.json")
    var store = MovieStore(path: path)
    store.failingSteps = [step]
    #expect(throws: MovieDataError(path: path, problem: problem)) {
      try store.merge([MovieUpdate(movie: sampleMovie("b"))])
    }
    #expect(try folder.data("MovieData.json") == before)
    #expect(try leftovers(folder).isEmpty)
  }

  @Test(
    "an unwritable folder is an error and the previous file stays",
    .enabled(
      if: geteuid() != 0, "root ignores folder permissions; failedWrite covers the same paths"))
  func unwritableFolder() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let path = folder.file("MovieData.json")
    try MovieStore(path: path).merge([MovieUpdate(movie: sampleMovie("a"))])
    let before = try folder.data("MovieData.json")
    chmod(folder.path, 0o555)
    #expect(throws: MovieDataError.self) {
      try MovieStore(path: path).merge([MovieUpdate(movie: sampleMovie("b"))])
    }
    chmod(folder.path, 0o755)
    #expect(try folder.data("MovieData.json") == before)
    #expect(try leftovers(folder).isEmpty)
  }

  @Test("an update that cannot be written is refused before the file is touched")
  func invalidUpdate() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let path = folder.file("MovieData.json")
    let store = MovieStore(path: path)
    try store.merge([MovieUpdate(movie: sampleMovie("a"))])
    let before = try folder.data("MovieData.json")
    var bad = sampleMovie("b")
    bad.seekAhead = .nan
    #expect(
      throws: MovieDataError(path: path, problem: "entry \"b\": seekAhead is not a finite number")
    ) {
      try store.merge([MovieUpdate(movie: bad)])
    }
    #expect(try folder.data("MovieData.json") == before)
    // Several updates for one id: the last one wins.
    let result = try store.merge([
      MovieUpdate(movie: bad), MovieUpdate(movie: sampleMovie("b", title: "B"), titleGiven: true),
    ])
    #expect(result.movies.map(\.title) == ["B"] && result.replacedIDs.isEmpty)
    #expect(try leftovers(folder).isEmpty)
  }

  @Test("a missing folder is an error naming the file")
  func missingFolder() throws {
    let path = "/nonexistent-leamoji-\(UUID().uuidString)/MovieData.json"
    #expect(
      throws: MovieDataError(
        path: path,
        problem: "the folder \((path as NSString).deletingLastPathComponent) does not exist")
    ) {
      try MovieStore(path: path).merge([MovieUpdate(movie: sampleMovie("a"))])
    }
    #expect(try MovieStore(path: path).read().isEmpty)
  }

  @Test("stale temporary files of killed runs are removed; a live writer's and other files are not")
  func staleTemporaryFiles() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    try folder.write("[", to: ".MovieData.json.leamoji-4242-7b.tmp")
    try folder.write("x", to: ".Other.json.leamoji-1-2.tmp")
    try folder.write("x", to: ".MovieData.json.leamoji-4243-7c.tmp")
    try folder.write("x", to: ".MovieData.json.4242.123.tmp")
    try folder.write("x", to: "notes.tmp")
    // A writer that is alive holds its temporary file locked.
    let busy = open(folder.file(".MovieData.json.leamoji-4243-7c.tmp"), O_RDONLY | O_CLOEXEC)
    try #require(busy >= 0 && flock(busy, LOCK_EX) == 0)
    defer { close(busy) }
    try MovieStore(path: folder.file("MovieData.json")).merge([MovieUpdate(movie: sampleMovie("a"))]
    )
    let left = try folder.names()
    #expect(
      left == [
        ".MovieData.json.4242.123.tmp", ".MovieData.json.leamoji-4243-7c.tmp",
        ".MovieData.json.lock", "MovieData.json", "notes.tmp",
      ])
  }

  @Test("a symbolic link is followed: the file it points to is replaced")
  func symlink() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.file("real"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.file("link.json"), withDestinationPath: "real/data.json")
    try MovieStore(path: folder.file("link.json")).merge([MovieUpdate(movie: sampleMovie("a"))])
    let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("link.json"))
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
    #expect(try MovieStore(path: folder.file("real/data.json")).read().map(\.id) == ["a"])
  }

  @Test("the file keeps its permissions when it is replaced")
  func permissionsKept() throws {
    let folder = try ScratchFolder("store")
    defer { folder.remove() }
    let path = folder.file("MovieData.json")
    try MovieStore(path: path).merge([MovieUpdate(movie: sampleMovie("a"))])
    chmod(path, 0o600)
    try MovieStore(path: path).merge([MovieUpdate(movie: sampleMovie("b"))])
    var info = stat()
    stat(path, &info)
    #expect(info.st_mode & 0o777 == 0o600)
  }
}

/// Error texts collected from several threads.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ item: String) { lock.withLock { items.append(item) } }
  var all: [String] { lock.withLock { items } }
}
