import Foundation
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiLabelling
import LeamojiTestSupport
import Testing

@Suite("label: decisions, test share, undo and the journal")
struct LabelSessionTests {
  static let labels = ["happy", "neutral", "scary"]

  static func item(_ name: String, guess: Int, confidence: Float, order: Int) -> LabelItem {
    var probabilities: [Float] = [0, 0, 0]
    probabilities[guess] = confidence
    probabilities[(guess + 1) % 3] = 1 - confidence
    return LabelItem(
      name: name, origin: .image(path: "/nowhere/\(name).png"),
      prediction: Prediction(
        classIndex: guess, label: Label(name: labels[guess]), probabilities: probabilities,
        logits: [0, 0, 0]), sourceOrder: order)
  }

  static let items = (0..<10).map {
    item("clip-\($0)", guess: $0 % 3, confidence: 0.4 + Float($0) * 0.05, order: $0)
  }
  static let picture = RGBImage(width: 4, height: 2, fill: RGB(10, 20, 30))

  static func files(in folder: URL) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    var found: [String] = []
    while let name = enumerator?.nextObject() as? String {
      if name.hasSuffix(".png") { found.append(name) }
    }
    return found.sorted()
  }

  @Test("names: <video-id>-<second>, fractions only when there are some")
  func frameNames() {
    #expect(LabelSources.frameName(videoID: "night-walk", time: 12) == "night-walk-12")
    #expect(LabelSources.frameName(videoID: "night-walk", time: 12.5) == "night-walk-12.5")
    #expect(LabelSources.frameName(videoID: "a", time: 0.25) == "a-0.25")
  }

  @Test("orders: uncertain puts the least confident first; time keeps the sources' order")
  func orders() {
    let shuffled = Array(Self.items.reversed())
    #expect(LabelOrder.time.arrange(shuffled).map(\.name) == Self.items.map(\.name))
    #expect(LabelOrder.uncertain.arrange(shuffled).first?.name == "clip-0")
    let random = LabelOrder.random.arrange(Self.items, seed: 7).map(\.name)
    #expect(random == LabelOrder.random.arrange(shuffled, seed: 7).map(\.name))
    #expect(Set(random) == Set(Self.items.map(\.name)))
  }

  @Test("the test folder: test beside train, else <name>-test")
  func testFolderNames() {
    #expect(LabelSession.testFolder(for: "data/train") == "data/test")
    #expect(LabelSession.testFolder(for: "labels/") == "labels-test")
    #expect(LabelSession.testFolder(for: "/tmp/x/labels") == "/tmp/x/labels-test")
  }

  @Test("a 0.2 test share sends every fifth decision of each label to the test folder")
  func testShare() {
    let sent = (1...20).filter { LabelSession.goesToTest(number: $0, share: 0.2) }
    #expect(sent == [5, 10, 15, 20])
    #expect(!(1...20).contains { LabelSession.goesToTest(number: $0, share: 0) })
    #expect((1...5).allSatisfy { LabelSession.goesToTest(number: $0, share: 1) })
  }

  @Test("deciding files PNGs under capitalised label folders; undo removes them; a new run resumes")
  func decideUndoResume() throws {
    let root = try ScratchFolder.url("label-session")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("labels")
    let session = try LabelSession(
      folder: folder.path, testShare: 0, labels: Self.labels, items: Self.items)
    #expect(session.current == 0)
    try session.decide("scary", picture: Self.picture)
    try session.decide("happy", picture: Self.picture)
    try session.skip()
    #expect(Self.files(in: folder) == ["Happy/clip-1.png", "Scary/clip-0.png"])
    #expect(session.current == 3)
    #expect(session.counts["scary"] == 1 && session.counts[nil] == 1)

    // A PNG that train can read back.
    let filed = try ImageFiles.decode(
      path: folder.appendingPathComponent("Scary/clip-0.png").path, size: nil)
    #expect(filed == Self.picture)

    try session.undo()  // the skip
    #expect(session.current == 2)
    try session.undo()  // happy: the file and the now empty folder go
    #expect(Self.files(in: folder) == ["Scary/clip-0.png"])
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Happy").path))
    #expect(session.current == 1)

    // A second run skips what is decided and undoes across runs.
    let again = try LabelSession(
      folder: folder.path, testShare: 0, labels: Self.labels, items: Self.items)
    #expect(again.current == 1)
    #expect(again.remaining == 9)
    #expect(try again.undo() == .undone(item: "clip-0", label: "scary"))
    #expect(Self.files(in: folder).isEmpty)
    #expect(again.current == 0)
    #expect(try again.undo() == .nothingToUndo)
  }

  @Test(
    "undo forgets the decision before removing its PNG: a journal that cannot be written keeps the PNG"
  )
  func undoForgetsFirst() throws {
    let root = try ScratchFolder.url("label-undo-order")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("labels")
    let session = try LabelSession(
      folder: folder.path, testShare: 0, labels: Self.labels, items: Self.items)
    try session.decide("scary", picture: Self.picture)
    // The journal's name taken by a folder: its next write fails.
    let journal = folder.appendingPathComponent(".leamoji-label.json")
    try FileManager.default.removeItem(at: journal)
    try FileManager.default.createDirectory(at: journal, withIntermediateDirectories: false)
    #expect(throws: LeamojiError.self) { try session.undo() }
    #expect(Self.files(in: folder) == ["Scary/clip-0.png"], "the PNG stays while recorded")
  }

  @Test("test share: decisions go to the sibling folder laid out the same way")
  func siblingTestFolder() throws {
    let root = try ScratchFolder.url("label-test-share")
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = root.appendingPathComponent("train")
    let session = try LabelSession(
      folder: folder.path, testShare: 0.5, labels: Self.labels, items: Self.items)
    for _ in 0..<4 { try session.decide("neutral", picture: Self.picture) }
    #expect(Self.files(in: folder) == ["Neutral/clip-0.png", "Neutral/clip-2.png"])
    #expect(
      Self.files(in: root.appendingPathComponent("test"))
        == ["Neutral/clip-1.png", "Neutral/clip-3.png"])
    #expect(session.testCount == 2)
    try session.undo()
    #expect(Self.files(in: root.appendingPathComponent("test")) == ["Neutral/clip-1.png"])
  }

  @Test("an existing label folder in another case is used, not doubled")
  func existingFolderCase() throws {
    let root = try ScratchFolder.url("label-case")
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("scary"), withIntermediateDirectories: true)
    let session = try LabelSession(
      folder: root.path, testShare: 0, labels: Self.labels, items: Self.items)
    try session.decide("scary", picture: Self.picture)
    #expect(Self.files(in: root) == ["scary/clip-0.png"])
  }

  @Test("a decision whose PNG is gone is offered again; a damaged journal is one clear error")
  func journalRepairAndDamage() throws {
    let root = try ScratchFolder.url("label-journal")
    defer { try? FileManager.default.removeItem(at: root) }
    let session = try LabelSession(
      folder: root.path, testShare: 0, labels: Self.labels, items: Self.items)
    try session.decide("happy", picture: Self.picture)
    try session.decide("happy", picture: Self.picture)
    try FileManager.default.removeItem(at: root.appendingPathComponent("Happy/clip-1.png"))
    let again = try LabelSession(
      folder: root.path, testShare: 0, labels: Self.labels, items: Self.items)
    #expect(again.journal.decisions.map(\.item) == ["clip-0"])
    #expect(again.current == 1)

    let journal = root.appendingPathComponent(LabelJournal.fileName)
    for bad in [
      "{", #"{"format":"other","version":1,"decisions":[]}"#,
      #"{"format":"leamoji-label-journal","version":9,"decisions":[]}"#,
      #"{"format":"leamoji-label-journal","version":1,"decisions":[{"item":"a","label":"x","file":"../../etc/passwd","test":false}]}"#,
    ] {
      try Data(bad.utf8).write(to: journal)
      do {
        _ = try LabelJournal.read(folder: root.path)
        Issue.record("accepted \(bad)")
      } catch {
        #expect(error == .badInput(error.message))
        #expect(error.message.hasPrefix(journal.path) && !error.message.contains("\n"))
      }
    }
  }
}
