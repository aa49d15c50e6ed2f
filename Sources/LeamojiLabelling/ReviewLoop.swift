import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTerminal
import LeamojiTimeline

/// `review`'s terminal view: the frame of the current second large on the half-block canvas,
/// the panel of `label` below it (the timeline's label and confidence for that second, the
/// label keys, where the second is among the scenes). Every correction is saved before the next
/// key is read; the terminal is restored however the loop ends (q, Esc, Ctrl-C, SIGTERM,
/// SIGHUP, an error).
public final class ReviewLoop {
  /// How the loop ended.
  public struct Report: Sendable {
    /// Corrections kept from this run (undos subtract).
    public let corrections: Int
    /// The termination signal that ended the loop, if any.
    public let terminationSignal: Int32?
  }

  /// Keys that are never label letters.
  public static let commandKeys: Set<Character> = ["u", "q", "j", "k"]

  private let session: ReviewSession
  private let labels: [Label]
  private let keys: LabelKeys
  private let fixedSize: PixelSize?
  private var canvas = HalfBlockCanvas(columns: 80, rows: 24, reservedBottomRows: LabelView.rows)
  private var pictures = LabelPictures { _ in PixelSize(width: 1, height: 1) }
  private var message: String? = nil

  /// A loop over `session`'s timeline; `fixedSize` pins the canvas (tests), else the window.
  public init(session: ReviewSession, fixedSize: PixelSize? = nil) {
    self.session = session
    labels = session.labels.map { name in
      Label(name: name, emoji: session.movie.markers.first { $0.label == name }?.emoji)
    }
    keys = LabelKeys(labels: labels, reserved: Self.commandKeys)
    self.fixedSize = fixedSize
  }

  /// Takes the terminal and runs until q / Esc / a signal.
  /// - Throws: `LeamojiError` when the terminal cannot be used, a frame cannot be decoded or a
  ///   file cannot be written (the terminal is restored first; corrections made stay).
  public func run() throws(LeamojiError) -> Report {
    let signal = try KeyLoop.run(
      idle: { prefetch() }, fit: { fit($0) }, draw: { try draw($0) },
      handle: { try handle($0, $1) })
    return Report(corrections: session.edits.count, terminationSignal: signal)
  }

  /// Applies one key; true when the screen needs drawing.
  private func handle(_ key: Key, _ terminal: TerminalSession) throws(LeamojiError) -> Bool {
    switch key {
    case .left: session.moveSecond(-1)
    case .right: session.moveSecond(1)
    case .up: session.moveScene(-1)
    case .down: session.moveScene(1)
    case .character(let byte):
      let character = Character(UnicodeScalar(byte))
      if character == "k" {
        session.moveScene(-1)
      } else if character == "j" {
        session.moveScene(1)
      } else if character == "u" {
        switch try session.undo() {
        case .undone(let from, let label):
          message = "undone: \(label) from \(Self.clock(from))"
        default:
          message = "nothing to undo"
        }
        return true
      } else if let index = keys.label(for: character) {
        try set(labels[index].name, terminal)
        return true
      } else {
        return false
      }
    default:
      return false
    }
    message = nil
    return true
  }

  /// Saves the correction, shows it, then files its frames (with `--into`) and shows that.
  private func set(_ label: String, _ terminal: TerminalSession) throws(LeamojiError) {
    guard case .corrected(let from, let to, let label, _) = try session.set(label) else {
      message = "already \(label)"
      return
    }
    let saved = "\(label) from \(Self.clock(from)) to \(Self.clock(to)), saved"
    message = saved
    guard session.folder != nil else { return }
    try draw(terminal)
    let pictures = self.pictures
    let session = self.session
    let count = try session.fileLast { time throws(LeamojiError) in
      try pictures.picture(for: Self.item(session, second: time)).full
    }
    message = saved + ", \(count) frame\(count == 1 ? "" : "s") filed"
  }

  /// The picture item of a second: the frame shown at that time.
  private static func item(_ session: ReviewSession, second: Double) -> LabelItem {
    let marker = session.movie.markers.last { $0.second <= second + 0.0005 }
    let label = Label(name: marker?.label ?? "", emoji: marker?.emoji)
    return LabelItem(
      name: LabelSources.frameName(videoID: session.id, time: second),
      origin: .video(path: session.video, time: second),
      prediction: Prediction(
        classIndex: 0, label: label, probabilities: [Float(marker?.confidence ?? 0)], logits: [0]),
      sourceOrder: Int(second))
  }

  /// Decodes the next second ahead of time, so that → shows it at once.
  private func prefetch() {
    let now = Self.item(session, second: Double(session.second))
    var keep: Set<String> = [now.name]
    if session.second + 1 < session.seconds {
      let next = Self.item(session, second: Double(session.second + 1))
      keep.insert(next.name)
      _ = try? pictures.picture(for: next)
    }
    pictures.keep(only: keep)
  }

  private func fit(_ terminal: TerminalSession) {
    KeyLoop.fit(&canvas, pictures, fixedSize: fixedSize, terminal: terminal)
  }

  private func draw(_ terminal: TerminalSession) throws(LeamojiError) {
    let picture = try pictures.picture(for: Self.item(session, second: Double(session.second)))
    let layer = LabelView.layer(for: panel(), columns: canvas.columns, rows: canvas.rows)
    do {
      try terminal.output.write(canvas.frame(picture: picture.screen, overlay: layer))
    } catch {
      throw LeamojiError.unexpected("terminal: \(error)")
    }
  }

  private func panel() -> LabelPanel {
    let scene = session.currentScene
    let marker = session.currentMarker
    let place =
      "\(PathText.lastComponent(session.video)) at \(Self.clock(Double(session.second)))"
    let heading =
      "second \(session.second + 1) of \(session.seconds) · scene \(scene + 1) of "
      + "\(session.movie.markers.count) (\(Self.clock(marker.second))–"
      + "\(Self.clock(session.sceneEnd(scene)))) · \(place)"
      + (session.isCorrected ? " · corrected" : "")
    let counts =
      "corrections this run \(session.edits.count) · earlier \(session.earlierEdits.count)"
    return LabelPanel(
      heading: heading, guess: Label(name: marker.label, emoji: marker.emoji),
      confidence: marker.confidence, choices: zip(labels, keys.letters).map { ($0, $1) },
      counts: counts, message: message,
      keys: "label key: set to end of scene · ↑/↓ k/j scenes · ←/→ seconds · u undo · q quit",
      guessCaption: "timeline")
  }

  /// `m:ss` for a time in seconds.
  static func clock(_ seconds: Double) -> String {
    let whole = Int(seconds.rounded(.down))
    return CFormat.string("%ld:%02ld", whole / 60, whole % 60)
  }
}
