import Foundation
import LeamojiAnalysis
import LeamojiCore
import LeamojiLabelling
import LeamojiTestSupport
import LeamojiTimeline
import Testing

/// `review` without the terminal: moving between seconds and scenes, a correction to the end of
/// its scene saved in the store and the subtitles, filing its frames, and undo.
@Suite("review: corrections, moves, filing and undo")
struct ReviewSessionTests {
  static func marker(_ second: Double, _ label: String) -> Marker {
    Marker(
      confidence: 0.8, cueAt: max(0, second - 5), emoji: Label(name: label).emoji, label: label,
      second: second)
  }

  /// An entry "film": neutral 0–6, scary 6–14, happy 14–20, with `film.vtt` beside it.
  static func store(in folder: URL) throws -> MovieStore {
    let store = MovieStore(path: folder.appendingPathComponent("MovieData.json").path)
    let movie = Movie(
      id: "film", title: "Film", duration: 20,
      markers: [marker(0, "neutral"), marker(6, "scary"), marker(14, "happy")],
      model: ModelInfo(labels: ["happy", "neutral", "scary"], sha256: "abc"), seekAhead: 5)
    try store.merge([MovieUpdate(movie: movie)])
    try Data("WEBVTT\n".utf8).write(to: folder.appendingPathComponent("film.vtt"))
    return store
  }

  static let picture = RGBImage(width: 4, height: 2, fill: RGB(10, 20, 30))

  /// A session on `film` filing into `folder/labels`, at second 8 (inside the scary scene).
  static func filingSession(in folder: URL) throws -> (
    session: ReviewSession, store: MovieStore, labels: String
  ) {
    let store = try Self.store(in: folder)
    let labels = folder.appendingPathComponent("labels").path
    let session = try ReviewSession(
      video: "film.mp4", store: store, folder: labels, encode: { _ in [1, 2, 3] })
    session.moveScene(1)
    session.moveSecond(2)
    return (session, store, labels)
  }

  @Test("moves clamp to the video; ↑ goes to the scene's start first, then the previous scene")
  func moves() throws {
    let folder = try ScratchFolder.url("review-moves")
    defer { try? FileManager.default.removeItem(at: folder) }
    let session = try ReviewSession(video: "film.mp4", store: try Self.store(in: folder))
    #expect(session.seconds == 20 && session.second == 0)
    session.moveSecond(-1)
    #expect(session.second == 0)
    session.moveScene(1)
    #expect(session.second == 6 && session.currentScene == 1)
    session.moveSecond(3)
    session.moveScene(-1)
    #expect(session.second == 6)
    session.moveScene(-1)
    #expect(session.second == 0)
    session.moveScene(1)
    session.moveScene(1)
    session.moveScene(1)
    #expect(session.second == 14 && session.currentScene == 2)
    session.moveSecond(100)
    #expect(session.second == 19)
  }

  @Test("a correction is saved with the subtitles and its frames filed; undo takes all back")
  func correctAndUndo() throws {
    let folder = try ScratchFolder.url("review-set")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (session, store, labels) = try Self.filingSession(in: folder)
    #expect(try session.set("scary") { _ in Self.picture } == .unchanged)
    let outcome = try session.set("neutral") { _ in Self.picture }
    #expect(outcome == .corrected(from: 8, to: 14, label: "neutral", filed: 6))
    let stored = try store.readCatalogue()[0]
    #expect(stored.userEdits == [UserEdit(from: 8, to: 14, label: "neutral")])
    #expect(stored.movie.markers.map(\.label) == ["neutral", "scary", "neutral", "happy"])
    #expect(stored.movie.markers.map(\.second) == [0, 6, 8, 14])
    let vtt = try String(
      contentsOf: folder.appendingPathComponent("film.vtt"), encoding: .utf8)
    #expect(vtt == Subtitles.webVTT(markers: stored.movie.markers, duration: 20))
    let filed = try FileManager.default.contentsOfDirectory(atPath: labels + "/Neutral").sorted()
    #expect(filed == (8..<14).map { "film-\($0).png" }.sorted())
    let journal = try LabelJournal.read(folder: labels)
    #expect(journal.decisions.map(\.guess) == Array(repeating: "scary", count: 6))
    #expect(session.isCorrected)

    #expect(try session.undo() == .undone(from: 8, label: "neutral"))
    #expect(try store.readCatalogue()[0].userEdits.isEmpty)
    #expect(try store.read()[0].markers.map(\.second) == [0, 6, 14])
    #expect(!FileManager.default.fileExists(atPath: labels + "/Neutral"))
    #expect(try LabelJournal.read(folder: labels).decisions.isEmpty)
    #expect(try session.undo() == .nothingToUndo)

    // A second session starts from the stored corrections and keeps them.
    _ = try session.set("happy") { _ in Self.picture }
    let again = try ReviewSession(video: "film.mp4", store: store)
    #expect(again.earlierEdits == [UserEdit(from: 8, to: 14, label: "happy")])
    #expect(try again.undo() == .nothingToUndo)
  }

  @Test(
    "correcting filed seconds again: the journal forgets them before their PNGs go, so a failure midway leaves no record of a missing PNG"
  )
  func journalForgetsFirst() throws {
    let folder = try ScratchFolder.url("review-order")
    defer { try? FileManager.default.removeItem(at: folder) }
    let (session, _, labels) = try Self.filingSession(in: folder)
    _ = try session.set("neutral") { _ in Self.picture }
    // Filing seconds 8-13 again as happy fails at second 9 (as a kill there would stop it).
    #expect(throws: LeamojiError.self) {
      try session.set("happy") { (time: Double) throws(LeamojiError) -> RGBImage in
        if time > 8 { throw LeamojiError.unexpected("no frame at \(time)") }
        return Self.picture
      }
    }
    let recorded = try LabelJournal.read(folder: labels).decisions.compactMap(\.file)
    for file in recorded {
      #expect(
        FileManager.default.fileExists(atPath: labels + "/" + file), "\(file) is recorded")
    }
  }

  @Test("a video without an entry is one line naming the file")
  func noEntry() throws {
    let folder = try ScratchFolder.url("review-none")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = try Self.store(in: folder)
    #expect {
      try ReviewSession(video: "other.mp4", store: store)
    } throws: { error in
      (error as? LeamojiError)?.message.contains("MovieData.json: no entry for other") == true
    }
  }
}
