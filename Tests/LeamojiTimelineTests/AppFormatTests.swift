import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiTimeline

/// The original iOS app's data types, written from its manual (leamoji-original-manual.md,
/// sections 3 and 6): `Movie` with `id` (also the video's file name), `title`, `description`,
/// `poster` and `markers: [Int: EmojiType]` (optional: the bundled catalogue has none), and
/// `EmojiType` with the raw values of the model's class labels. The app reads with a plain
/// `JSONDecoder` and writes with `JSONEncoder` and `[.prettyPrinted, .sortedKeys]`.
enum App {
  enum EmojiType: String, Codable, Equatable {
    case happy = "Happy"
    case neutral = "Neutral"
    case scary = "Scary"
  }

  struct Movie: Codable, Equatable {
    let id: String
    let title: String
    let description: String
    let poster: String
    let markers: [Int: EmojiType]?
  }

  static func decode(_ data: Data) throws -> [Movie] {
    try JSONDecoder().decode([Movie].self, from: data)
  }

  static func encode(_ movies: [Movie]) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return try encoder.encode(movies)
  }

  /// The bundled catalogue (no markers) and the file written after analysis, as the app
  /// writes them.
  static let catalogue = [
    Movie(
      id: "AliceInWonderland", title: "Alice in Wonderland",
      description: "Alice follows a white rabbit.", poster: "AliceInWonderland", markers: nil),
    Movie(
      id: "LionKing", title: "The Lion King", description: "A lion cub.", poster: "LionKing",
      markers: nil),
  ]
  static let analysed = [
    Movie(
      id: "AliceInWonderland", title: "Alice in Wonderland",
      description: "Alice follows a white rabbit.", poster: "AliceInWonderland",
      markers: [0: .happy, 1: .happy, 2: .neutral, 149: .scary, 150: .scary, 212: .happy]),
    catalogue[1],
  ]
}

@Suite("The original iOS app's MovieData.json: read, kept, exported")
struct AppFormatTests {
  @Test("Swift encodes [Int: EmojiType] as an object with string keys, and decodes it back")
  func intKeyedDictionaries() throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode([149: App.EmojiType.scary, 212: .happy])
    #expect(String(decoding: data, as: UTF8.self) == #"{"149":"Scary","212":"Happy"}"#)
    #expect(
      try JSONDecoder().decode([Int: App.EmojiType].self, from: Data(#"{"7":"Neutral"}"#.utf8))
        == [7: .neutral])
    // The app refuses leamoji's own form and lower-case labels: why `export` exists.
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode([Int: App.EmojiType].self, from: Data(#"{"7":"neutral"}"#.utf8))
    }
  }

  @Test("the app's catalogue and analysed files are read: markers object, missing keys")
  func readsAppFiles() throws {
    let catalogue = try MovieData.decodeCatalogue(App.encode(App.catalogue), path: "c.json")
    #expect(catalogue.map(\.movie.id) == ["AliceInWonderland", "LionKing"])
    #expect(catalogue.allSatisfy { $0.markerForm == .none && $0.problems.isEmpty })
    #expect(catalogue[0].movie.title == "Alice in Wonderland")
    #expect(catalogue[0].movie.poster == "AliceInWonderland" && catalogue[0].duration == nil)

    let analysed = try MovieData.decodeCatalogue(App.encode(App.analysed), path: "a.json")
    let alice = analysed[0]
    #expect(alice.markerForm == .app && alice.model == nil && alice.edits.isEmpty)
    // One marker per run of equal labels, cues the app's 5 s ahead.
    #expect(
      alice.movie.markers == [
        Marker(confidence: 1, cueAt: 0, emoji: "😀", label: "happy", second: 0),
        Marker(confidence: 1, cueAt: 0, emoji: "😐", label: "neutral", second: 2),
        Marker(confidence: 1, cueAt: 144, emoji: "😱", label: "scary", second: 149),
        Marker(confidence: 1, cueAt: 207, emoji: "😀", label: "happy", second: 212),
      ])
    #expect(
      alice.appMarkers == [
        0: "Happy", 1: "Happy", 2: "Neutral", 149: "Scary", 150: "Scary", 212: "Happy",
      ])
    #expect(
      CatalogueSummary(alice).seconds == ["happy": 3, "neutral": 147, "scary": 63])
  }

  @Test("merging leamoji's entry into the app's file keeps every other entry exactly")
  func mergeKeepsAppEntries() throws {
    let folder = try ScratchFolder("app")
    defer { folder.remove() }
    let path = folder.file("MovieData.json")
    var text = String(decoding: try App.encode(App.analysed), as: UTF8.self)
    // Keys leamoji does not know, at the top level and inside.
    text = text.replacingOccurrences(
      of: "\"id\" : \"LionKing\",", with: "\"id\" : \"LionKing\",\n    \"rating\" : [\"G\", 1],")
    try folder.write(text, to: "MovieData.json")
    let before = try MovieData.parse(Data(text.utf8), path: path)

    var analysed = sampleMovie("AliceInWonderland", title: "alice-from-metadata")
    analysed.poster = "AliceInWonderland.jpg"
    let store = MovieStore(path: path)
    try store.merge([MovieUpdate(movie: sampleMovie("meadow-storm")), MovieUpdate(movie: analysed)])
    let after = try MovieData.parse(try folder.data("MovieData.json"), path: path)
    #expect(after.map(\.movie.id) == ["AliceInWonderland", "LionKing", "meadow-storm"])
    // Untouched: every key and value as it was.
    #expect(after[1].raw == before[1].raw)
    // Re-analysed: leamoji's keys are new; the app's title, description and poster stay.
    let alice = after[0]
    #expect(alice.raw["title"] == .string("Alice in Wonderland"))
    #expect(alice.raw["description"] == .string("Alice follows a white rabbit."))
    #expect(alice.raw["poster"] == .string("AliceInWonderland"))
    #expect(alice.entry.markerForm == .leamoji && alice.entry.model != nil)
  }

  @Test("export writes exactly the app's schema, and the app's decoder reads it")
  func exportReadByApp() throws {
    let movies = [
      Movie(
        id: "AliceInWonderland", title: "Alice", description: "d", duration: 30,
        markers: [
          Marker(confidence: 0.9, cueAt: 0, emoji: "😀", label: "happy", second: 0),
          Marker(confidence: 0.8, cueAt: 9, emoji: "😱", label: "scary", second: 14),
          Marker(confidence: 0.7, cueAt: 19, emoji: "😐", label: "neutral", second: 24),
        ],
        model: ModelInfo(labels: moodLabels, sha256: "x"), poster: "AliceInWonderland.jpg",
        seekAhead: 5),
      sampleMovie("no-poster"),
    ]
    var withoutPoster = movies
    withoutPoster[1].poster = nil
    let entries = try MovieData.decodeCatalogue(MovieData.encode(withoutPoster), path: "m.json")

    let scenes = try AppExport.export(entries, everySecond: false)
    let decoded = try App.decode(scenes.data)
    #expect(
      decoded == [
        App.Movie(
          id: "AliceInWonderland", title: "Alice", description: "d",
          poster: "AliceInWonderland.jpg", markers: [0: .happy, 14: .scary, 24: .neutral]),
        App.Movie(
          id: "no-poster", title: "no-poster", description: "", poster: "", markers: [0: .happy]),
      ])
    // Byte for byte what the app's own encoder writes for those values.
    #expect(scenes.data == (try App.encode(decoded)) + [0x0A])
    #expect(scenes.unmappedLabels.isEmpty)

    let everySecond = try App.decode(AppExport.export(entries, everySecond: true).data)
    let markers = try #require(everySecond[0].markers)
    #expect(markers.count == 30)
    #expect(markers[13] == .happy && markers[14] == .scary && markers[29] == .neutral)
  }

  @Test("the app's own file comes back from export unchanged, byte for byte")
  func appFileRoundTrip() throws {
    let written = try App.encode(App.analysed)
    let entries = try MovieData.decodeCatalogue(written, path: "a.json")
    #expect(try AppExport.export(entries, everySecond: false).data == written + [0x0A])
    #expect(try AppExport.export(entries, everySecond: true).data == written + [0x0A])
  }

  @Test("labels the app does not know become Neutral (its own fallback) and are reported")
  func unknownLabels() throws {
    var movie = sampleMovie("x")
    movie.markers.append(Marker(confidence: 1, cueAt: 1, emoji: "😡", label: "angry", second: 6))
    let entries = try MovieData.decodeCatalogue(MovieData.encode([movie]), path: "m.json")
    let output = try AppExport.export(entries, everySecond: false)
    #expect(output.unmappedLabels == ["angry"])
    #expect(try App.decode(output.data)[0].markers == [0: .happy, 6: .neutral])
  }
}
