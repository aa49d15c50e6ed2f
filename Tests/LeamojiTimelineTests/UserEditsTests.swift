import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

@testable import LeamojiTimeline

/// `review`'s corrections: the rule that applies them to markers, and how the store keeps them
/// through a re-analysis.
@Suite("UserEdits")
struct UserEditsTests {
  static func marker(_ second: Double, _ label: String, _ confidence: Double = 0.8) -> Marker {
    Marker(
      confidence: confidence, cueAt: max(0, second - 5), emoji: Label(name: label).emoji,
      label: label, second: second)
  }

  /// neutral 0–6, scary 6–14, neutral 14–18, happy 18–24.
  static let analysed = [
    marker(0, "neutral", 0.9), marker(6, "scary", 0.7), marker(14, "neutral", 0.6),
    marker(18, "happy", 0.95),
  ]

  @Test("an edit to the end of a scene relabels it with confidence 1 and merges equal neighbours")
  func toEndOfScene() {
    let edited = UserEdits.apply(
      [UserEdit(from: 8, to: 14, label: "neutral")], to: Self.analysed, duration: 24, seekAhead: 5)
    #expect(edited.map(\.second) == [0, 6, 8, 18])
    #expect(edited.map(\.label) == ["neutral", "scary", "neutral", "happy"])
    #expect(edited.map(\.confidence) == [0.9, 0.7, 1, 0.95])
    #expect(edited.map(\.cueAt) == [0, 1, 3, 13])
    #expect(edited[2].emoji == "😐")
  }

  @Test("an edit inside a scene: the scene resumes after it with its own confidence")
  func insideScene() {
    let edited = UserEdits.apply(
      [UserEdit(from: 8, to: 10, label: "happy")], to: Self.analysed, duration: 24, seekAhead: 5)
    #expect(edited.map(\.second) == [0, 6, 8, 10, 14, 18])
    #expect(edited.map(\.label) == ["neutral", "scary", "happy", "scary", "neutral", "happy"])
    #expect(edited[3].confidence == 0.7)
  }

  @Test("later edits win, the whole first scene can change, and applying twice changes nothing")
  func orderAndIdempotence() {
    let edits = [
      UserEdit(from: 0, to: 6, label: "happy"), UserEdit(from: 3, to: 6, label: "scary"),
    ]
    let once = UserEdits.apply(edits, to: Self.analysed, duration: 24, seekAhead: 5)
    #expect(once.map(\.label) == ["happy", "scary", "neutral", "happy"])
    #expect(once.map(\.second) == [0, 3, 14, 18])
    #expect(UserEdits.apply(edits, to: once, duration: 24, seekAhead: 5) == once)
  }

  @Test("the store keeps userEdits through a re-analysis and applies them to the new markers")
  func storeAndReanalyse() throws {
    let folder = try ScratchFolder("edits")
    defer { folder.remove() }
    let store = MovieStore(path: folder.file("MovieData.json"))
    var movie = sampleMovie("film", markers: Self.analysed)
    movie.duration = 24
    movie.frames = (0..<24).map { second in
      FrameScore(
        second: Double(second), label: Self.analysed.last { $0.second <= Double(second) }!.label,
        probabilities: [:])
    }
    try store.merge([MovieUpdate(movie: movie)])
    let edit = UserEdit(from: 8, to: 14, label: "neutral")
    let markers = UserEdits.apply([edit], to: Self.analysed, duration: 24, seekAhead: 5)
    let stored = try store.storeEdits(id: "film", markers: markers, edits: [edit])
    #expect(stored.markers == markers)
    let text = try String(contentsOfFile: store.path, encoding: .utf8)
    #expect(text.contains("\"userEdits\" : ["), "\(text)")
    #expect(try store.readCatalogue()[0].userEdits == [edit])
    #expect(try store.readCatalogue()[0].edits == ["1 correction in review"])

    // A re-analysis with the model's markers again: the correction is applied again.
    try store.merge([MovieUpdate(movie: movie)])
    let again = try store.readCatalogue()[0]
    #expect(again.userEdits == [edit])
    #expect(again.movie.markers == markers)
    #expect(again.movie.frames?[8].label == "neutral" && again.movie.frames?[6].label == "scary")

    // Taking every correction back removes the key; the entry is the model's again.
    try store.storeEdits(id: "film", markers: Self.analysed, edits: [])
    let plain = try String(contentsOfFile: store.path, encoding: .utf8)
    #expect(!plain.contains("userEdits"))
    #expect(try store.read()[0].markers == Self.analysed)
    #expect(try store.read()[0].frames == movie.frames)

    #expect(throws: MovieDataError.self) {
      try store.storeEdits(id: "other", markers: markers, edits: [edit])
    }
  }
}
