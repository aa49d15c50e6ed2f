import FoundationEssentials
import LeamojiAnalysis
import LeamojiCore
import LeamojiTerminal
import LeamojiVideo

/// The play loop: decode → pace → draw, with keys, pausing, seeking and resizing. Wires the video
/// module (frames) to the terminal module (canvas, overlay, pacing, session); owns no C pointer.
struct PlayerLoop {
  enum Outcome {
    case finished
    case quit
    case failed(String)
  }

  static let seekStep = 5.0

  let playback: VideoPlayback
  let session: TerminalSession
  let overlay: PlayerOverlay
  let fixedSize: PixelSize?
  private(set) var pacer: Pacer
  private var canvas: HalfBlockCanvas
  private var pendingPTS: Double? = nil
  private var picture: RGBImage? = nil
  private var buffering = false

  init(
    playback: VideoPlayback, session: TerminalSession, overlay: PlayerOverlay, fixedSize: PixelSize?
  ) {
    self.playback = playback
    self.session = session
    self.overlay = overlay
    self.fixedSize = fixedSize
    let rate = playback.info.frameRate ?? 25
    pacer = Pacer(clock: MonotonicClock(), framePeriod: 1 / max(1, min(rate, 240)))
    canvas = HalfBlockCanvas(columns: 80, rows: 24, reservedBottomRows: PlayerOverlay.statusRows)
    fitCanvas()
  }

  /// Plays until the end, a quit key, a signal or an error.
  mutating func run() -> Outcome {
    do {
      while session.terminationSignal == nil {
        if session.takeResize() {
          fitCanvas()
          try redraw()
        }
        if pacer.isPaused {
          if try handle(session.readKeys(timeout: 0.1)) { return .quit }
          continue
        }
        guard let pts = pendingPTS ?? playback.advance() else {
          try redraw()
          return .finished
        }
        pendingPTS = pts
        switch pacer.decide(pts: pts) {
        case .drop:
          pendingPTS = nil
        case .paused:
          continue
        case .show(let delay):
          var wait = delay
          var interrupted = false
          while wait > 0.0005 {
            let keys = try session.readKeys(timeout: wait)
            if try handle(keys) { return .quit }
            if session.terminationSignal != nil || pacer.isPaused || pendingPTS == nil {
              interrupted = true
              break
            }
            wait = pacer.delay(until: pts)
          }
          if interrupted && pendingPTS == nil { continue }  // a seek replaced this frame
          pendingPTS = nil
          picture = try playback.image(
            size: canvas.pictureSize(for: playback.info.displaySize))
          buffering = false
          try redraw()
        }
      }
      return .quit
    } catch let error as MediaError {
      return .failed(error.description)
    } catch {
      return .failed("\(error)")
    }
  }

  /// Applies keys; true when the user asked to quit.
  private mutating func handle(_ keys: [Key]) throws -> Bool {
    for key in keys {
      if key.isQuit { return true }
      switch key {
      case .space:
        if pacer.isPaused { pacer.resume() } else { pacer.pause() }
        buffering = pacer.isPaused
        try redraw()
      case .left, .right:
        let target = max(0, pacer.mediaTime + (key == .right ? Self.seekStep : -Self.seekStep))
        buffering = true
        try redraw()
        if let shown = playback.seek(to: min(target, playback.info.duration ?? target)) {
          pacer.seek(to: shown)
          picture = try playback.image(
            size: canvas.pictureSize(for: playback.info.displaySize))
        }
        pendingPTS = nil
        buffering = pacer.isPaused
        try redraw()
      default:
        continue
      }
    }
    return false
  }

  private mutating func redraw() throws {
    let status = PlayerStatus(
      time: pacer.mediaTime, isPlaying: !pacer.isPaused, isBuffering: buffering)
    let layer = overlay.layer(for: status, columns: canvas.columns, rows: canvas.rows)
    try session.output.write(canvas.frame(picture: picture, overlay: layer))
  }

  private mutating func fitCanvas() {
    let size =
      fixedSize.map { TerminalSize(columns: $0.width, rows: $0.height) } ?? session.size()
      ?? TerminalSize(columns: 80, rows: 24)
    canvas.resize(columns: size.columns, rows: size.rows)
    canvas.invalidate()
  }
}
