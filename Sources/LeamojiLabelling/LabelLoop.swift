import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTerminal

/// `label`'s terminal view: the current frame large on the half-block canvas, the panel with
/// the guess, label keys and counts below it, keys read in raw mode. Every decision is on disk
/// (PNG and journal) before the next key is read; the terminal is restored however the loop
/// ends (q, Esc, Ctrl-C, SIGTERM, SIGHUP, an error).
public final class LabelLoop {
  /// How the loop ended.
  public struct Report: Sendable {
    /// Decisions made in this run (undos subtract).
    public let decided: Int
    /// The termination signal that ended the loop, if any.
    public let terminationSignal: Int32?
  }

  /// Keys that are never label letters.
  public static let commandKeys: Set<Character> = ["x", "u", "q"]

  private let session: LabelSession
  private let labels: [Label]
  private let keys: LabelKeys
  private let fixedSize: PixelSize?
  private var canvas = HalfBlockCanvas(columns: 80, rows: 24, reservedBottomRows: LabelView.rows)
  private var pictures: LabelPictures
  private var message: String? = nil
  private var decidedThisRun = 0

  /// A loop over `session`'s frames with `labels` (the model's, in output order).
  public init(session: LabelSession, labels: [Label], fixedSize: PixelSize? = nil) {
    self.session = session
    self.labels = labels
    self.fixedSize = fixedSize
    keys = LabelKeys(labels: labels, reserved: Self.commandKeys)
    pictures = LabelPictures { _ in PixelSize(width: 1, height: 1) }
  }

  /// Takes the terminal and runs until q / Esc / a signal.
  /// - Throws: `LeamojiError` when the terminal cannot be used, a frame cannot be decoded or a
  ///   file cannot be written (the terminal is restored first; decisions made stay).
  public func run() throws(LeamojiError) -> Report {
    let signal = try KeyLoop.run(
      idle: { prefetch() }, fit: { fit($0) }, draw: { try draw($0) },
      handle: { try handle($0, $1) })
    return Report(decided: decidedThisRun, terminationSignal: signal)
  }

  /// Applies one key; true when the screen needs drawing. A decision is drawn (the next frame
  /// shown) before its files are written, so the screen answers at once.
  private func handle(_ key: Key, _ terminal: TerminalSession) throws -> Bool {
    switch key {
    case .left, .up:
      session.move(-1)
      message = nil
    case .right, .down:
      session.move(1)
      message = nil
    case .space, .enter:
      guard let item = session.currentItem else { return false }
      try decide(item.prediction.label.name, terminal)
      return false
    case .unknown:
      return false
    case .character(let byte):
      let character = Character(UnicodeScalar(byte))
      if character == "x" {
        guard let pending = session.stage(nil) else { return false }
        message = "skipped"
        try draw(terminal)
        try session.commit(pending, picture: nil)
        decidedThisRun += 1
        return false
      } else if character == "u" {
        switch try session.undo() {
        case .undone(let item, let label):
          decidedThisRun -= 1
          message = "undone: \(item) (\(label ?? "skipped"))"
        default:
          message = "nothing to undo"
        }
      } else if let index = keys.label(for: character) {
        try decide(labels[index].name, terminal)
        return false
      } else {
        return false
      }
      return true
    default:
      return false
    }
    return true
  }

  /// Decides the current frame: the next frame on screen first, then the PNG and the journal.
  private func decide(_ label: String, _ terminal: TerminalSession) throws {
    guard let item = session.currentItem else { return }
    let picture = try pictures.picture(for: item)
    guard let pending = session.stage(label) else { return }
    let file = pending.decision.file ?? ""
    message = "filed " + (pending.decision.test ? "test: " : "") + file
    try draw(terminal)
    try session.commit(pending, picture: picture.full)
    decidedThisRun += 1
  }

  /// Decodes the next frame ahead of time, so that a key shows it at once.
  private func prefetch() {
    guard let current = session.current else { return }
    var keep: Set<String> = [session.items[current].name]
    if let next = session.nextUndecided(after: current), next != current {
      keep.insert(session.items[next].name)
      _ = try? pictures.picture(for: session.items[next])
    }
    pictures.keep(only: keep)
  }

  private func fit(_ terminal: TerminalSession) {
    KeyLoop.fit(&canvas, pictures, fixedSize: fixedSize, terminal: terminal)
  }

  private func draw(_ terminal: TerminalSession) throws {
    let picture = try session.currentItem.map { item throws(LeamojiError) in
      try pictures.picture(for: item).screen
    }
    let layer = LabelView.layer(for: panel(), columns: canvas.columns, rows: canvas.rows)
    try terminal.output.write(canvas.frame(picture: picture, overlay: layer))
  }

  private func panel() -> LabelPanel {
    let counts = session.counts
    var parts = labels.map { "\($0.emoji) \($0.name) \(counts[$0.name] ?? 0)" }
    parts.append("skipped \(counts[nil] ?? 0)")
    if session.testShare > 0 { parts.append("test \(session.testCount)") }
    parts.append("left \(session.remaining)")
    let heading: String
    if let index = session.current {
      let item = session.items[index]
      heading = "frame \(index + 1) of \(session.items.count) · \(item.place) · \(item.name)"
    } else {
      heading = "all \(session.items.count) frames decided · u undoes · q quits"
    }
    return LabelPanel(
      heading: heading, guess: session.currentItem?.prediction.label,
      confidence: session.currentItem?.confidence ?? 0,
      choices: zip(labels, keys.letters).map { ($0, $1) }, counts: parts.joined(separator: "   "),
      message: message,
      keys: "Enter/space accept guess · x skip · u undo · ←/→ move · q save and quit")
  }
}
