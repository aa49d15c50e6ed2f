import LeamojiAnalysis
import LeamojiCore
import LeamojiTerminal

/// The full-screen event loop `label` and `review` share: takes the terminal, draws, then reads
/// keys until q / Esc or a termination signal, redrawing after a resize or a key that changed the
/// screen. The terminal is restored before it returns or throws.
enum KeyLoop {
  /// Runs the loop.
  /// - Parameters:
  ///   - idle: work between key waits (decoding the next frame ahead).
  ///   - fit: sizes the view to the terminal (at start and after a resize).
  ///   - draw: draws the screen.
  ///   - handle: applies one key; true when the screen needs drawing.
  /// - Returns: the termination signal that ended the loop, if any.
  /// - Throws: `LeamojiError` when the terminal cannot be used or a step fails (other errors are
  ///   wrapped as unexpected).
  static func run(
    idle: () -> Void,
    fit: (TerminalSession) -> Void,
    draw: (TerminalSession) throws -> Void,
    handle: (Key, TerminalSession) throws -> Bool
  ) throws(LeamojiError) -> Int32? {
    let terminal: TerminalSession
    do {
      terminal = try TerminalSession()
    } catch {
      throw LeamojiError.unexpected("cannot use the terminal (\(error))")
    }
    defer { terminal.restore() }
    fit(terminal)
    do {
      try draw(terminal)
      quit: while terminal.terminationSignal == nil {
        idle()
        if terminal.takeResize() {
          fit(terminal)
          try draw(terminal)
        }
        for key in try terminal.readKeys(timeout: 0.25) {
          if key.isQuit { break quit }
          if try handle(key, terminal) { try draw(terminal) }
        }
      }
    } catch let error as LeamojiError {
      terminal.restore()
      throw error
    } catch {
      terminal.restore()
      throw LeamojiError.unexpected("terminal: \(error)")
    }
    terminal.restore()
    return terminal.terminationSignal
  }

  /// Sizes `canvas` to the terminal (or to `fixedSize`, as tests pin it; 80x24 when the
  /// terminal does not say) and the pictures to the canvas: the `fit` of label and review.
  static func fit(
    _ canvas: inout HalfBlockCanvas, _ pictures: LabelPictures, fixedSize: PixelSize?,
    terminal: TerminalSession
  ) {
    let size =
      fixedSize.map { TerminalSize(columns: $0.width, rows: $0.height) } ?? terminal.size()
      ?? TerminalSize(columns: 80, rows: 24)
    canvas.resize(columns: size.columns, rows: size.rows)
    let fitted = canvas
    pictures.resized { fitted.pictureSize(for: $0) }
  }
}
