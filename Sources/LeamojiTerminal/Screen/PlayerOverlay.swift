import LeamojiCore
import LeamojiTimeline

/// What the player loop knows at one moment, from which the overlay is laid out.
public struct PlayerStatus: Equatable, Sendable {
  /// Media time in seconds (e.g. `Pacer.mediaTime`).
  public var time: Double
  /// Playing (▶) or paused (⏸).
  public var isPlaying: Bool
  /// True while a seek is being served (the frame at the new time is not shown yet).
  public var isBuffering: Bool
  /// A short note from the player (e.g. `seek +5 s`), or nil.
  public var message: String?

  public init(time: Double, isPlaying: Bool, isBuffering: Bool = false, message: String? = nil) {
    self.time = time
    self.isPlaying = isPlaying
    self.isBuffering = isBuffering
    self.message = message
  }
}

/// The player's overlay: the emoji badge of the current scene (top-right), the title
/// (top-left), a message (second row), the heads-up line before the next scene (above the
/// status bar), a "buffering" box while paused or seeking (centre), and the status bar on the
/// last row: ▶ / ⏸, `m:ss / m:ss` and the timeline strip coloured by mood with the playhead.
public struct PlayerOverlay: Sendable {
  /// Rows at the bottom that the status bar takes (pass as `reservedBottomRows` to the canvas
  /// so the bar does not cover the picture).
  public static let statusRows = 1
  /// Text of the buffering box.
  public static let bufferingText = "⏳ buffering"
  /// Shown in the status bar while playing.
  public static let playSymbol = "▶"
  /// Shown in the status bar while paused.
  public static let pauseSymbol = "⏸"

  /// The movie's markers, sorted by `second`.
  public let markers: [Marker]
  /// Length of the video in seconds (0 or less: unknown).
  public var duration: Double
  /// Title shown top-left (sanitised when drawn), or nil.
  public var title: String?
  /// Sudden scares, each warned of in its own cue window (`CueLogic.suddenHeadsUp`).
  public var events: [TimelineEvent] = []

  /// - Parameter markers: the timeline in any order (sorted here, once).
  public init(
    markers: [Marker], duration: Double, title: String? = nil, events: [TimelineEvent] = []
  ) {
    self.events = events
    self.markers = markers.enumerated().sorted {
      $0.element.second != $1.element.second
        ? $0.element.second < $1.element.second : $0.offset < $1.offset
    }.map(\.element)
    self.duration = duration
    self.title = title
  }

  /// The cue state at `time` (see `CueLogic.state`).
  public func cues(at time: Double) -> CueState { CueLogic.state(markers: markers, at: time) }

  /// The overlay for `status` on a `columns` x `rows` screen.
  public func layer(for status: PlayerStatus, columns: Int, rows: Int) -> OverlayLayer {
    var layer = OverlayLayer(columns: columns, rows: rows)
    guard columns > 0, rows > 0 else { return layer }
    let time = clampedTime(status.time)
    let cues = cues(at: time)
    drawStatusBar(&layer, time: time, isPlaying: status.isPlaying, row: rows - 1)
    if rows >= 2 {
      let badgeStart = drawBadge(&layer, marker: cues.current)
      if let title {
        drawBox(&layer, title, row: 0, column: 0, limit: badgeStart, colour: MoodPalette.text)
      }
    }
    if let message = status.message, rows >= 3 {
      drawBox(&layer, message, row: 1, column: 0, limit: columns, colour: MoodPalette.message)
    }
    if let text = cues.headsUp?.text ?? CueLogic.suddenHeadsUp(events: events, at: time),
      rows >= 2
    {
      drawCentred(&layer, text, row: rows - 2, colour: MoodPalette.text)
    }
    if status.isBuffering || !status.isPlaying {
      let text = status.isBuffering ? Self.bufferingText : Self.bufferingText + " (paused)"
      drawCentred(
        &layer, text, row: max(0, (rows - Self.statusRows - 1) / 2), colour: MoodPalette.text)
    }
    return layer
  }

  /// `m:ss` (or `h:mm:ss` from one hour on) of whole seconds, rounded down; negative and
  /// non-finite times count as 0.
  public static func clock(_ seconds: Double) -> String {
    let total = seconds.isFinite && seconds > 0 ? Int(seconds.rounded(.down)) : 0
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
    let ss = s < 10 ? "0\(s)" : "\(s)"
    if h > 0 { return "\(h):\(m < 10 ? "0\(m)" : "\(m)"):\(ss)" }
    return "\(m):\(ss)"
  }

  // MARK: - Parts

  private func clampedTime(_ time: Double) -> Double {
    guard time.isFinite else { return 0 }
    return duration > 0 ? min(max(0, time), duration) : max(0, time)
  }

  /// ` ▶ 0:12 / 0:30 ` then the strip up to one column before the right edge.
  private func drawStatusBar(_ layer: inout OverlayLayer, time: Double, isPlaying: Bool, row: Int) {
    layer.fill(row: row, column: 0, width: layer.columns, background: MoodPalette.bar)
    let symbol = isPlaying ? Self.playSymbol : Self.pauseSymbol
    let total = duration > 0 ? Self.clock(duration) : "-:--"
    let text = " \(symbol) \(Self.clock(time)) / \(total) "
    let stripStart =
      layer.write(
        text, row: row, column: 0, foreground: MoodPalette.text, background: MoodPalette.bar) + 1
    let stripWidth = layer.columns - 1 - stripStart
    guard stripWidth >= 4 else { return }
    let labels = CueLogic.stripLabels(markers: markers, duration: duration, width: stripWidth)
    let playhead = CueLogic.playheadColumn(time: time, duration: duration, width: stripWidth)
    for (offset, label) in labels.enumerated() {
      let colour = offset == playhead ? MoodPalette.playhead : MoodPalette.colour(for: label)
      layer.write(
        " ", row: row, column: stripStart + offset, foreground: colour, background: colour)
    }
  }

  /// ` 😱 scary ` in the top-right corner on the mood's colour.
  /// - Returns: the badge's first column (`columns` when there is none).
  private func drawBadge(_ layer: inout OverlayLayer, marker: Marker?) -> Int {
    guard let marker else { return layer.columns }
    let colour = MoodPalette.colour(for: marker.label)
    let text = TextWidth.prefix(
      " \(marker.emoji) \(marker.label) ", fitting: max(0, layer.columns))
    let start = layer.columns - TextWidth.width(of: text)
    layer.write(
      text, row: 0, column: start, foreground: MoodPalette.textColour(on: colour),
      background: colour)
    return start
  }

  /// ` text ` on the bar colour from `column`, cut to end before `limit`.
  private func drawBox(
    _ layer: inout OverlayLayer, _ text: String, row: Int, column: Int, limit: Int, colour: RGB
  ) {
    let fitted = TextWidth.prefix(" \(text) ", fitting: max(0, limit - column))
    layer.write(fitted, row: row, column: column, foreground: colour, background: MoodPalette.bar)
  }

  /// ` text ` on the bar colour, centred on `row`.
  private func drawCentred(_ layer: inout OverlayLayer, _ text: String, row: Int, colour: RGB) {
    let fitted = TextWidth.prefix(" \(text) ", fitting: layer.columns)
    let column = (layer.columns - TextWidth.width(of: fitted)) / 2
    layer.write(fitted, row: row, column: column, foreground: colour, background: MoodPalette.bar)
  }
}
