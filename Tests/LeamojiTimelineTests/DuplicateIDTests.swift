import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

@testable import LeamojiTimeline

/// A MovieData.json with two entries of one id (the original app or a person wrote them):
/// every entry is read and kept; what must pick one entry for that id refuses, naming the file,
/// the id and the entries (docs/movie-data.md, "Duplicated ids").
@Suite("Entries sharing an id: all kept, never guessed between")
struct DuplicateIDTests {
  /// Hand-written, out of order: two different "twin" entries (the first with the app's
  /// markers object), the app's Alice entry, and "b". Shared with the CLI's
  /// DuplicateIDCommandTests.
  static let handWritten: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../LeamojiCLITests/Fixtures/duplicate-ids.MovieData.json")
    do {
      return try String(contentsOf: url, encoding: .utf8)
    } catch {
      fatalError("\(url.path): \(error)")
    }
  }()

  /// The entries of `text` as JSONSerialization reads them (independent of the product).
  static func objects(_ data: Data) throws -> [NSDictionary] {
    try #require(try JSONSerialization.jsonObject(with: data) as? [NSDictionary])
  }

  static func objects(ofID id: String, in data: Data) throws -> [NSDictionary] {
    try objects(data).filter { $0["id"] as? String == id }
  }

  static let ambiguous =
    "id \"twin\" is in entries 1 and 3, so leamoji cannot tell which one is meant; "
    + "give one of them another id (or remove it) and run again"

  @Test("reading returns every entry in file order; the ambiguity names id and positions")
  func reading() throws {
    let entries = try MovieData.decodeCatalogue(Data(Self.handWritten.utf8), path: "m.json")
    #expect(entries.map(\.movie.id) == ["twin", "AliceInWonderland", "twin", "b"])
    #expect(entries.map(\.movie.title) == ["Twin one", "Alice in Wonderland", "Twin two", "Bee"])
    #expect(entries[0].markerForm == .app && entries[0].movie.markers.map(\.second) == [3, 9])
    let ids = entries.map(\.movie.id)
    #expect(
      MovieData.ambiguity(of: "twin", ids: ids, path: "m.json")
        == MovieDataError(path: "m.json", problem: Self.ambiguous))
    #expect(MovieData.ambiguity(of: "b", ids: ids, path: "m.json") == nil)
    #expect(MovieData.ambiguity(of: "gone", ids: ids, path: "m.json") == nil)
    #expect(MovieData.duplicatedIDs(ids).map(\.id) == ["twin"])
    #expect(MovieData.duplicatedIDs(ids).map(\.positions) == [[1, 3]])
    #expect(
      MovieData.ambiguity(of: "x", ids: ["x", "y", "x", "x"], path: "m.json")?.description
        == "m.json: id \"x\" is in entries 1, 3 and 4, so leamoji cannot tell which one is "
        + "meant; give all but one of them other ids (or remove them) and run again")
    // Sorting for writing keeps entries with one id in file order.
    #expect(
      MovieData.sortedByID(entries, id: \.movie.id).map(\.movie.title) == [
        "Alice in Wonderland", "Bee", "Twin one", "Twin two",
      ])
  }

  @Test("storing other ids keeps both entries of a shared id, key for key, in their order")
  func storeKeepsDuplicates() throws {
    let folder = try ScratchFolder("duplicates")
    defer { folder.remove() }
    try folder.write(Self.handWritten, to: "MovieData.json")
    let store = MovieStore(path: folder.file("MovieData.json"))
    let before = try folder.data("MovieData.json")
    // A new film and a re-analysis of the app's entry.
    let result = try store.merge([
      MovieUpdate(movie: sampleMovie("AliceInWonderland")), MovieUpdate(movie: sampleMovie("c")),
    ])
    #expect(result.replacedIDs == ["AliceInWonderland"])
    let after = try folder.data("MovieData.json")
    #expect(
      try Self.objects(after).map { $0["id"] as? String } == [
        "AliceInWonderland", "b", "c", "twin", "twin",
      ])
    #expect(try Self.objects(ofID: "twin", in: after) == Self.objects(ofID: "twin", in: before))
    #expect(try Self.objects(ofID: "b", in: after) == Self.objects(ofID: "b", in: before))
    let alice = try #require(try Self.objects(ofID: "AliceInWonderland", in: after).first)
    #expect(alice["title"] as? String == "Alice in Wonderland")
    #expect(alice["poster"] as? String == "AliceInWonderland")
    #expect(alice["markers"] is [Any])
    // Written again with nothing new: byte for byte the same.
    _ = try store.merge([MovieUpdate(movie: sampleMovie("c"))])
    #expect(try folder.data("MovieData.json") == after)
  }

  @Test("an analysis or corrections for a shared id are refused; the file is left as it was")
  func storeRefusesSharedID() throws {
    let folder = try ScratchFolder("duplicates")
    defer { folder.remove() }
    try folder.write(Self.handWritten, to: "MovieData.json")
    let store = MovieStore(path: folder.file("MovieData.json"))
    let before = try folder.data("MovieData.json")
    let error = MovieDataError(path: store.path, problem: Self.ambiguous)
    let ids = try store.ids()
    #expect(MovieData.ambiguity(of: "twin", ids: ids, path: store.path) == error)
    for id in ["b", "AliceInWonderland", "new"] {
      #expect(MovieData.ambiguity(of: id, ids: ids, path: store.path) == nil)
    }
    #expect(throws: error) {
      try store.merge([
        MovieUpdate(movie: sampleMovie("c")), MovieUpdate(movie: sampleMovie("twin")),
      ])
    }
    #expect(throws: error) {
      try store.storeEdits(
        id: "twin", markers: sampleMovie("twin").markers,
        edits: [UserEdit(from: 0, to: 2, label: "scary")])
    }
    #expect(try folder.data("MovieData.json") == before)
    // Corrections to an id held once are stored; the twins stay.
    try store.storeEdits(
      id: "b", markers: sampleMovie("b").markers, edits: [UserEdit(from: 0, to: 2, label: "scary")])
    let after = try folder.data("MovieData.json")
    #expect(try Self.objects(ofID: "twin", in: after) == Self.objects(ofID: "twin", in: before))
    #expect(try Self.objects(ofID: "b", in: after).first?["userEdits"] is [Any])
  }

  @Test("merging fragments into a store with a shared id: idempotent, order independent")
  func fragmentsIntoDuplicates() throws {
    let folder = try ScratchFolder("duplicates")
    defer { folder.remove() }
    let parts = try FragmentMergeTests.fragments(
      [sampleMovie("c"), sampleMovie("AliceInWonderland"), sampleMovie("b", title: "new")],
      in: folder)
    var results: [Data] = []
    for (index, order) in [parts, parts.reversed(), [parts[1], parts[2], parts[0]]].enumerated() {
      let name = "store\(index).json"
      try folder.write(Self.handWritten, to: name)
      let store = MovieStore(path: folder.file(name))
      let report = try store.merge(fragments: order)
      #expect(
        report
          == FragmentMergeReport(fragments: 3, added: ["c"], replaced: ["AliceInWonderland", "b"]))
      let once = try folder.data(name)
      _ = try store.merge(fragments: order + order)
      #expect(try folder.data(name) == once)
      results.append(once)
    }
    #expect(Set(results).count == 1)
    #expect(
      try Self.objects(ofID: "twin", in: results[0])
        == Self.objects(ofID: "twin", in: Data(Self.handWritten.utf8)))
    #expect(try Self.objects(ofID: "b", in: results[0]).first?["title"] as? String == "Bee")

    // A fragment for the shared id: refused whatever the order, nothing written.
    let twin = try FragmentMergeTests.fragments([sampleMovie("twin")], in: folder)
    try folder.write(Self.handWritten, to: "MovieData.json")
    let store = MovieStore(path: folder.file("MovieData.json"))
    for order in [parts + twin, twin + parts] {
      #expect(
        throws: FragmentMergeError(
          kind: .badInput, error: MovieDataError(path: store.path, problem: Self.ambiguous))
      ) {
        try store.merge(fragments: order)
      }
      #expect(try folder.text("MovieData.json") == Self.handWritten)
    }
  }

  @Test("a fragment holding one id twice: equal entries count once, different ones are refused")
  func duplicatesInAFragment() throws {
    let folder = try ScratchFolder("duplicates")
    defer { folder.remove() }
    let one = try MovieData.raw(sampleMovie("a"), path: "x")
    let same = try MovieData.encode(raw: [one, one], path: "x")
    try same.write(to: URL(fileURLWithPath: folder.file("same.json")))
    let store = MovieStore(path: folder.file("MovieData.json"))
    let report = try store.merge(fragments: [folder.file("same.json")])
    #expect(report == FragmentMergeReport(fragments: 1, added: ["a"], replaced: []))
    #expect(try store.read() == [sampleMovie("a")])

    var other = one
    other["title"] = .string("other")
    try MovieData.encode(raw: [one, other], path: "x").write(
      to: URL(fileURLWithPath: folder.file("differ.json")))
    let before = try folder.data("MovieData.json")
    #expect(
      throws: FragmentMergeError(
        kind: .badInput,
        error: MovieDataError(
          path: folder.file("differ.json"),
          problem: "entries 1 and 2 both have the id \"a\" but differ; "
            + "keep one of them (or give one another id) and run again"))
    ) {
      try store.merge(fragments: [folder.file("same.json"), folder.file("differ.json")])
    }
    #expect(try folder.data("MovieData.json") == before)
  }

  @Test("the app reads the export of a file with a shared id: every entry, in file order")
  func exportKeepsDuplicates() throws {
    let entries = try MovieData.decodeCatalogue(Data(Self.handWritten.utf8), path: "m.json")
    let output = try AppExport.export(
      MovieData.sortedByID(entries, id: \.movie.id), everySecond: false)
    let movies = try App.decode(output.data)
    #expect(movies.map(\.id) == ["AliceInWonderland", "b", "twin", "twin"])
    #expect(movies.map(\.title) == ["Alice in Wonderland", "Bee", "Twin one", "Twin two"])
    #expect(movies[2].markers == [3: .happy, 9: .scary] && movies[3].markers == nil)
    #expect(movies[0].markers == [149: .scary, 212: .happy])
  }
}
