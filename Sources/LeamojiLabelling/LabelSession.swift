import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// `label`'s decisions without the terminal: which frame is current, filing a frame as PNG under
/// its label (in the training folder or the sibling test folder), skipping, undoing, and the
/// journal that makes a later run resume.
///
/// Each decision writes the PNG first and then the journal, both with `DurableFile`; undo
/// removes the PNG first and then rewrites the journal. A process killed between the two steps
/// loses at most that one decision: a decided frame whose PNG is missing is offered again, and
/// a PNG without a journal entry is overwritten when its frame is decided again.
public final class LabelSession {
  /// What a key asked for, as far as the session is concerned.
  public enum Outcome: Equatable, Sendable {
    case filed(label: String, file: String)
    case skipped
    case undone(item: String, label: String?)
    case nothingToUndo
  }

  /// The training folder (`FOLDER`); the journal lives here.
  public let folder: String
  /// The sibling test folder that `testShare` of each label's decisions go to.
  public let testFolder: String
  /// Share of each label's decisions filed in `testFolder` (0 to 1).
  public let testShare: Double
  /// The model's labels, in its output order (key `1` is the first).
  public let labels: [String]
  /// Every item of this run, in the order they are offered.
  public let items: [LabelItem]
  public private(set) var journal: LabelJournal
  /// Index into `items` of the frame on screen; nil when every frame is decided.
  public private(set) var current: Int?
  private var decided: Set<String>
  private let encode: (RGBImage) throws(LeamojiError) -> [UInt8]

  /// The sibling test folder of `folder`: `test` beside a folder named `train`, else
  /// `<name>-test` beside it.
  public static func testFolder(for folder: String) -> String {
    let name = PathText.lastComponent(folder)
    let sibling = name == "train" ? "test" : name + "-test"
    return PathText.appending(sibling, to: PathText.deletingLastComponent(folder))
  }

  /// A session over `items` (already in display order) filing into `folder`.
  /// - Parameter encode: turns a picture into PNG bytes (`ImageFiles.png`; tests may replace it).
  /// - Throws: `LeamojiError` when the folder is a file or the journal cannot be read.
  public init(
    folder: String, testFolder: String? = nil, testShare: Double, labels: [String],
    items: [LabelItem],
    encode: @escaping (RGBImage) throws(LeamojiError) -> [UInt8] = ImageFiles.png
  ) throws(LeamojiError) {
    self.folder = folder
    self.testFolder = testFolder ?? Self.testFolder(for: folder)
    self.testShare = min(1, max(0, testShare))
    self.labels = labels
    self.items = items
    self.encode = encode
    try Self.makeFolder(folder)
    var journal = try LabelJournal.read(folder: folder)
    // A decision whose PNG went missing (removed by hand, or a kill between the removal and
    // the journal write of an undo) is no decision: offer its frame again.
    let tests = self.testFolder
    let kept = journal.decisions.filter { decision in
      guard let file = decision.file else { return true }
      let root = decision.test ? tests : folder
      return FileManager.default.fileExists(atPath: PathText.appending(file, to: root))
    }
    if kept.count != journal.decisions.count {
      journal.decisions = kept
      try journal.write(folder: folder)
    }
    self.journal = journal
    decided = journal.decidedItems
    current = items.indices.first { !decided.contains(items[$0].name) }
  }

  /// How many frames of this run are still undecided.
  public var remaining: Int { items.filter { !decided.contains($0.name) }.count }

  /// The item on screen.
  public var currentItem: LabelItem? { current.map { items[$0] } }

  /// Decisions per label (training and test together), skips under nil.
  public var counts: [String?: Int] {
    var counts: [String?: Int] = [:]
    for decision in journal.decisions { counts[decision.label, default: 0] += 1 }
    return counts
  }

  /// Decisions filed in the test folder.
  public var testCount: Int { journal.decisions.filter(\.test).count }

  /// The folder name a label's images go in: the label capitalised as the training folders
  /// are (`Happy`), or the spelling of a folder already there with that name in another case.
  public func folderName(for label: String, in root: String) -> String {
    let existing = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    if let match = existing.sorted().first(where: {
      $0.lowercased() == label.lowercased()
        && Self.isFolder(PathText.appending($0, to: root))
    }) {
      return match
    }
    return label.prefix(1).uppercased() + label.dropFirst()
  }

  /// The next undecided item after `index` in display order, wrapping around.
  public func nextUndecided(after index: Int?, step: Int = 1) -> Int? {
    guard !items.isEmpty else { return nil }
    let start = index ?? (step > 0 ? -1 : items.count)
    for offset in 1...items.count {
      let i = ((start + step * offset) % items.count + items.count) % items.count
      if !decided.contains(items[i].name) { return i }
    }
    return nil
  }

  /// Moves to the next (`step` 1) or previous (-1) undecided frame without deciding.
  public func move(_ step: Int) {
    current = nextUndecided(after: current, step: step)
  }

  /// A decision taken in memory (the session already shows the next frame) whose files are not
  /// written yet: `commit` writes them, or undoes the step when that fails.
  public struct Pending: Sendable {
    public let decision: LabelJournal.Decision
    let root: String
    let previous: Int?
  }

  /// Files the current frame under `label` (a name from `labels`), `picture` being its
  /// full-size frame, and moves on: `stage` then `commit`.
  /// - Throws: `LeamojiError` when the PNG or the journal cannot be written (nothing is
  ///   recorded then).
  @discardableResult
  public func decide(_ label: String, picture: RGBImage) throws(LeamojiError) -> Outcome {
    guard let pending = stage(label) else { return .nothingToUndo }
    try commit(pending, picture: picture)
    return .filed(
      label: label, file: (pending.decision.test ? "test: " : "") + pending.decision.file!)
  }

  /// Skips the current frame (recorded, so a later run skips it too) and moves on.
  @discardableResult
  public func skip() throws(LeamojiError) -> Outcome {
    guard let pending = stage(nil) else { return .nothingToUndo }
    try commit(pending, picture: nil)
    return .skipped
  }

  /// Takes the decision `label` (nil: skip) for the current frame in memory and moves to the
  /// next frame, so that the screen can show it before the files are written; nil when every
  /// frame is decided. Call `commit` next, before anything else changes the session.
  public func stage(_ label: String?) -> Pending? {
    guard let index = current else { return nil }
    let item = items[index]
    let confidence = (item.confidence * 10_000).rounded() / 10_000
    let decision: LabelJournal.Decision
    var root = folder
    if let label {
      let earlier = journal.decisions.filter { $0.label == label }.count
      let test = Self.goesToTest(number: earlier + 1, share: testShare)
      root = test ? testFolder : folder
      let file = folderName(for: label, in: root) + "/" + item.name + ".png"
      decision = LabelJournal.Decision(
        item: item.name, label: label, file: file, test: test, guess: item.prediction.label.name,
        confidence: confidence)
    } else {
      decision = LabelJournal.Decision(
        item: item.name, label: nil, file: nil, test: false, guess: item.prediction.label.name,
        confidence: confidence)
    }
    journal.decisions.append(decision)
    decided.insert(item.name)
    current = nextUndecided(after: index)
    return Pending(decision: decision, root: root, previous: index)
  }

  /// Writes a staged decision: the PNG of `picture` (not for a skip), then the journal. When
  /// either fails, the decision is taken back (the frame is current again) and the error thrown.
  public func commit(_ pending: Pending, picture: RGBImage?) throws(LeamojiError) {
    do throws(LeamojiError) {
      if let file = pending.decision.file {
        guard let picture else {
          throw LeamojiError.unexpected("\(file): no picture to write")
        }
        let path = PathText.appending(file, to: pending.root)
        try Self.makeFolder(PathText.deletingLastComponent(path))
        let bytes = try encode(picture)
        do {
          try DurableFile(path).write(bytes)
        } catch {
          throw LeamojiError(error)
        }
      }
      try journal.write(folder: folder)
    } catch {
      if let last = journal.decisions.last, last == pending.decision {
        journal.decisions.removeLast()
        decided.remove(last.item)
        current = pending.previous
      }
      throw error
    }
  }

  /// Undoes the last decision in the journal (from this run or an earlier one): removes its
  /// PNG (and the label folder when that leaves it empty), forgets it, and shows its frame
  /// again when it belongs to this run.
  @discardableResult
  public func undo() throws(LeamojiError) -> Outcome {
    guard let last = journal.decisions.last else { return .nothingToUndo }
    // The journal forgets the decision before its PNG goes: a kill in between leaves a PNG
    // nobody recorded, never a record of a missing PNG.
    var journal = self.journal
    journal.decisions.removeLast()
    try journal.write(folder: folder)
    self.journal = journal
    decided.remove(last.item)
    if let index = items.firstIndex(where: { $0.name == last.item }) { current = index }
    try Self.removePicture(of: last, in: folder, testFolder: testFolder)
    return .undone(item: last.item, label: last.label)
  }

  /// Removes the PNG `decision` filed in `folder` (or in `testFolder`), and its label folder
  /// when that leaves it empty: an empty label folder would stop `train` ("no images").
  static func removePicture(
    of decision: LabelJournal.Decision, in folder: String, testFolder: String
  ) throws(LeamojiError) {
    guard let file = decision.file else { return }
    let root = decision.test ? testFolder : folder
    let path = PathText.appending(file, to: root)
    if FileManager.default.fileExists(atPath: path) {
      do {
        try FileManager.default.removeItem(atPath: path)
      } catch {
        throw LeamojiError.cannotWrite(
          "\(path): cannot remove (\(ErrorText.describe(error)))")
      }
    }
    _ = rmdir(PathText.deletingLastComponent(path))
  }

  /// True when the `number`-th decision of a label (1-based) goes to the test folder: the
  /// decisions where the running share `number * share` passes a whole number, so every label
  /// sends `share` of its frames (rounded down) and they are spread through the run.
  public static func goesToTest(number: Int, share: Double) -> Bool {
    guard share > 0, number > 0 else { return false }
    return (Double(number) * share + 1e-9).rounded(.down)
      > (Double(number - 1) * share + 1e-9).rounded(.down)
  }

  private static func isFolder(_ path: String) -> Bool {
    var isFolder = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
      && isFolder
  }

  private static func makeFolder(_ path: String) throws(LeamojiError) {
    var isFolder = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
      guard isFolder else {
        throw LeamojiError.cannotWrite("\(path): exists and is not a folder")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
      throw LeamojiError.cannotWrite(
        "\(path): cannot create the folder (\(ErrorText.describe(error)))")
    }
  }
}
