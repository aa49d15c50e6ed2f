import FoundationEssentials
import LeamojiAnalysis
import LeamojiCore

/// The record of every decision `leamoji label` made into a folder, kept in the folder as
/// `.leamoji-label.json` (hidden, so `train` does not read it as an image). A second run skips
/// what is already decided, and `u` undoes the last decision even when an earlier run made it.
///
/// The whole journal is rewritten with `DurableFile` after each decision, so a reader (or a
/// process killed with SIGKILL) sees the journal before or after one decision, never a torn
/// file. The format is described in `docs/labelling.md`; unknown keys are ignored on reading.
public struct LabelJournal: Equatable, Sendable {
  /// The journal's file name inside the labelled folder.
  public static let fileName = ".leamoji-label.json"
  /// The `format` value that marks a label journal.
  public static let formatName = "leamoji-label-journal"
  /// The version written; readers accept this version and below.
  public static let version = 1

  /// One decision: a frame filed under a label, or skipped.
  public struct Decision: Equatable, Sendable, Codable {
    /// The frame's name without `.png`: `<video-id>-<second>` or the image's name.
    public var item: String
    /// The label chosen (the model's label name), or nil when the frame was skipped.
    public var label: String?
    /// The PNG's path relative to the folder it was filed in (`Scary/night-walk-12.png`);
    /// nil for a skip.
    public var file: String?
    /// True when the PNG went to the test folder rather than the training folder.
    public var test: Bool
    /// The model's guess and its confidence when the decision was made (for reports).
    public var guess: String?
    public var confidence: Double?

    public init(
      item: String, label: String?, file: String?, test: Bool, guess: String?,
      confidence: Double?
    ) {
      self.item = item
      self.label = label
      self.file = file
      self.test = test
      self.guess = guess
      self.confidence = confidence
    }
  }

  /// Decisions in the order they were made (the last one is what `u` undoes).
  public var decisions: [Decision] = []

  public init(decisions: [Decision] = []) {
    self.decisions = decisions
  }

  /// The items already decided.
  public var decidedItems: Set<String> { Set(decisions.map(\.item)) }

  // MARK: - Files

  /// The journal of `folder`: empty when the folder has none yet.
  /// - Throws: `LeamojiError` (`.badInput`) naming the journal when it is not a label journal,
  ///   (`.noInput`) when it cannot be read.
  public static func read(folder: String) throws(LeamojiError) -> LabelJournal {
    let path = self.path(in: folder)
    let bytes: [UInt8]?
    do {
      bytes = try DurableFile(path).readIfPresent()
    } catch {
      throw LeamojiError.noInput(error.description)
    }
    guard let bytes else { return LabelJournal() }
    let file: FileForm
    do {
      file = try JSONDecoder().decode(FileForm.self, from: Data(bytes))
    } catch {
      throw LeamojiError.badInput("\(path): not a label journal (bad JSON)")
    }
    guard file.format == formatName else {
      throw LeamojiError.badInput(
        "\(path): not a label journal (format is not \(formatName))")
    }
    guard file.version >= 1, file.version <= version else {
      throw LeamojiError.badInput(
        "\(path): label journal version \(file.version) is newer than this leamoji reads")
    }
    for decision in file.decisions {
      if let problem = problem(in: decision) {
        throw LeamojiError.badInput("\(path): \(problem)")
      }
    }
    return LabelJournal(decisions: file.decisions)
  }

  /// Writes the journal into `folder` atomically (`DurableFile`).
  /// - Throws: `LeamojiError` (`.cannotWrite`).
  public func write(folder: String) throws(LeamojiError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    let form = FileForm(format: Self.formatName, version: Self.version, decisions: decisions)
    guard let data = try? encoder.encode(form) else {
      throw LeamojiError.unexpected("\(Self.path(in: folder)): cannot encode the journal")
    }
    do {
      try DurableFile(Self.path(in: folder)).write(Array(data) + [0x0A])
    } catch {
      throw LeamojiError(error)
    }
  }

  /// The journal's path in `folder`.
  public static func path(in folder: String) -> String {
    PathText.appending(fileName, to: folder)
  }

  /// What is wrong with a decision read from a file (a path that leaves the folder, a label
  /// without a file), or nil.
  static func problem(in decision: Decision) -> String? {
    if decision.item.isEmpty || decision.item.contains("/") {
      return "a decision has a bad item name"
    }
    switch (decision.label, decision.file) {
    case (nil, nil):
      return nil
    case (.some, .some(let file)):
      let parts = file.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
        return "decision \(decision.item): file must be <Label>/<name>.png"
      }
      return nil
    default:
      return "decision \(decision.item): a label needs a file and a skip has none"
    }
  }

  /// The file as stored.
  private struct FileForm: Codable {
    var format: String
    var version: Int
    var decisions: [Decision]
  }
}
