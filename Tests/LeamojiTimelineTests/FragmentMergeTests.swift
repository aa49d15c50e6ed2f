import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

@testable import LeamojiTimeline

@Suite("Merging fragments from several machines into one store")
struct FragmentMergeTests {
  /// Writes one fragment per movie (as `analyze --output part.json` does) and returns the paths.
  static func fragments(_ movies: [Movie], in folder: ScratchFolder) throws -> [String] {
    try movies.map { movie in
      let name = "\(movie.id).part.json"
      try MovieData.encode([movie]).write(to: URL(fileURLWithPath: folder.file(name)))
      return folder.file(name)
    }
  }

  @Test("idempotent, independent of the order, keeps the store's other entries and edits")
  func idempotentAndOrderIndependent() throws {
    let folder = try ScratchFolder("fragments")
    defer { folder.remove() }
    let parts = try Self.fragments(
      [sampleMovie("c"), sampleMovie("a", title: "new title"), sampleMovie("b")], in: folder)
    // The store already has `a` with an edited title and a key of its own, and `z`.
    var edited = String(
      decoding: try MovieData.encode([sampleMovie("a", title: "Edited"), sampleMovie("z")]),
      as: UTF8.self)
    edited = edited.replacingOccurrences(
      of: "\"id\" : \"a\",", with: "\"id\" : \"a\",\n    \"rating\" : \"PG\",")
    var results: [Data] = []
    for (index, order) in [parts, parts.reversed(), [parts[1], parts[2], parts[0]]].enumerated() {
      let name = "store\(index).json"
      try folder.write(edited, to: name)
      let store = MovieStore(path: folder.file(name))
      let report = try store.merge(fragments: order)
      #expect(report == FragmentMergeReport(fragments: 3, added: ["b", "c"], replaced: ["a"]))
      let once = try folder.data(name)
      _ = try store.merge(fragments: order + order)
      #expect(try folder.data(name) == once)
      results.append(once)
    }
    #expect(Set(results).count == 1)
    let entries = try MovieStore(path: folder.file("store0.json")).readCatalogue()
    #expect(entries.map(\.movie.id) == ["a", "b", "c", "z"])
    #expect(entries[0].movie.title == "Edited" && entries[0].otherKeys == ["rating"])
  }

  @Test("two fragments disagreeing about one id: an error naming both, nothing written")
  func conflict() throws {
    let folder = try ScratchFolder("fragments")
    defer { folder.remove() }
    try MovieData.encode([sampleMovie("a", title: "one")]).write(
      to: URL(fileURLWithPath: folder.file("1.json")))
    try MovieData.encode([sampleMovie("a", title: "two")]).write(
      to: URL(fileURLWithPath: folder.file("2.json")))
    try MovieData.encode([sampleMovie("a", title: "one")]).write(
      to: URL(fileURLWithPath: folder.file("3.json")))
    let store = MovieStore(path: folder.file("MovieData.json"))
    for order in [["2.json", "1.json"], ["1.json", "2.json"]] {
      #expect(
        throws: FragmentMergeError(
          kind: .badInput,
          error: MovieDataError(
            path: folder.file("1.json"),
            problem: "entry \"a\" differs from the one in \(folder.file("2.json")); "
              + "merge only one of them"))
      ) {
        try store.merge(fragments: order.map(folder.file))
      }
    }
    #expect(!store.exists)
    // The same entry twice is no conflict.
    _ = try store.merge(fragments: ["1.json", "3.json"].map(folder.file))
    #expect(try store.read().map(\.title) == ["one"])
  }

  @Test("posters and subtitles beside a fragment are copied beside the store, plain names only")
  func companions() throws {
    let folder = try ScratchFolder("fragments")
    defer { folder.remove() }
    try FileManager.default.createDirectory(
      atPath: folder.file("parts"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: folder.file("site"), withIntermediateDirectories: true)
    var evil = sampleMovie("evil")
    evil.poster = "../outside.jpg"
    try MovieData.encode([sampleMovie("a"), evil]).write(
      to: URL(fileURLWithPath: folder.file("parts/a.part.json")))
    try folder.write("jpeg a", to: "parts/a.jpg")
    try folder.write("WEBVTT", to: "parts/a.vtt")
    try folder.write("jpeg evil", to: "outside.jpg")
    let store = MovieStore(path: folder.file("site/MovieData.json"))
    let report = try store.merge(fragments: [folder.file("parts/a.part.json")])
    #expect(report.copied == 2)
    #expect(try folder.text("site/a.jpg") == "jpeg a" && folder.text("site/a.vtt") == "WEBVTT")
    #expect(try folder.names() == ["outside.jpg", "parts", "site"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.file("site")).sorted() == [
        ".MovieData.json.lock", "MovieData.json", "a.jpg", "a.vtt",
      ])
  }

  @Test("a missing or malformed fragment is an error naming it; the store stays as it was")
  func badFragments() throws {
    let folder = try ScratchFolder("fragments")
    defer { folder.remove() }
    let store = MovieStore(path: folder.file("MovieData.json"))
    try store.merge([MovieUpdate(movie: sampleMovie("a"))])
    let before = try folder.data("MovieData.json")
    try folder.write("[{\"title\": 1}]", to: "bad.json")
    #expect(
      throws: FragmentMergeError(
        kind: .noInput,
        error: MovieDataError(path: folder.file("gone.json"), problem: "no such file"))
    ) {
      try store.merge(fragments: [folder.file("gone.json")])
    }
    #expect(
      throws: FragmentMergeError(
        kind: .badInput,
        error: MovieDataError(path: folder.file("bad.json"), problem: "entry 1 has no \"id\""))
    ) {
      try store.merge(fragments: [folder.file("bad.json")])
    }
    #expect(try folder.data("MovieData.json") == before)
  }
}

/// The merge of many fragments, with a bound on its time (so not in `make check`).
@Suite("Merging fragments: a large merge in bounded time")
struct FragmentMergeTimingTests {
  /// The figure the issue asks for (1,000 fragments into a 1,000-film store in under 5 s) is
  /// measured by `make bench-merge` on a release build; this checks the same work with a
  /// generous bound for a debug build on a busy machine, and prints the time.
  @Test("1,000 fragments into a 1,000-film store")
  func thousandFragments() throws {
    let folder = try ScratchFolder("fragments")
    defer { folder.remove() }
    let markers = (0..<40).map { index in
      Marker(
        confidence: 0.9, cueAt: Double(max(0, index * 30 - 5)), emoji: "😀",
        label: moodLabels[index % 3], second: Double(index * 30))
    }
    let existing = (0..<1000).map { sampleMovie(String(format: "film-%04d", $0 * 2)) }
    try MovieData.encode(existing).write(to: URL(fileURLWithPath: folder.file("MovieData.json")))
    let parts = try FragmentMergeTests.fragments(
      (0..<1000).map {
        sampleMovie(String(format: "film-%04d", $0 * 2 + $0 % 2), markers: markers)
      },
      in: folder)
    let start = Date()
    let report = try MovieStore(path: folder.file("MovieData.json")).merge(fragments: parts)
    let seconds = Date().timeIntervalSince(start)
    print("merge of 1000 fragments into a 1000-film store: \(String(format: "%.2f", seconds)) s")
    #expect(report.added.count == 500 && report.replaced.count == 500)
    #expect(try MovieStore(path: folder.file("MovieData.json")).read().count == 1500)
    #expect(seconds < 60)
  }
}

@Suite("Files written by earlier versions")
struct EarlierFilesTests {
  /// The sample videos' timeline as earlier versions wrote it (`analyze --frames --no-poster`).
  static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../LeamojiCLITests/Fixtures/golden/sample-videos.MovieData.json")

  @Test("read with nothing missing or edited, and rewritten byte for byte by a merge of itself")
  func goldenFile() throws {
    let bytes = try Data(contentsOf: Self.golden)
    let entries = try MovieData.decodeCatalogue(bytes, path: "golden.json")
    #expect(entries.map(\.movie.id) == ["meadow-storm", "night-walk", "party-cellar"])
    for entry in entries {
      #expect(entry.problems.isEmpty && entry.edits.isEmpty && entry.otherKeys.isEmpty)
      #expect(entry.markerForm == .leamoji && entry.model != nil && entry.duration != nil)
      #expect(entry.movie.frames?.isEmpty == false)
    }
    #expect(try MovieData.encode(entries.map(\.movie)) == bytes)
    let folder = try ScratchFolder("earlier")
    defer { folder.remove() }
    try bytes.write(to: URL(fileURLWithPath: folder.file("MovieData.json")))
    let report = try MovieStore(path: folder.file("MovieData.json")).merge(fragments: [
      Self.golden.path
    ])
    #expect(report.replaced.count == 3)
    #expect(try folder.data("MovieData.json") == bytes)
  }
}
