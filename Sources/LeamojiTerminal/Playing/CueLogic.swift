import LeamojiTimeline

/// The heads-up for the next scene: shown during `[cueAt, second)` of its marker.
public struct HeadsUp: Equatable, Sendable {
  /// The marker whose scene is coming.
  public var marker: Marker
  /// Its index in the marker list.
  public var index: Int
  /// Whole seconds until the scene starts, rounded up (so never 0 while it is shown).
  public var secondsUntil: Int

  public init(marker: Marker, index: Int, secondsUntil: Int) {
    self.marker = marker
    self.index = index
    self.secondsUntil = secondsUntil
  }

  /// The heads-up line, e.g. `😱 scary scene in 3 s`, or `😱👂 scary scene in 3 s` when the
  /// sound fired it (⚡ for a sudden scare); label and emoji sanitised.
  public var text: String {
    "\(TextWidth.sanitized(marker.emoji))\(marker.badges) \(TextWidth.sanitized(marker.label)) scene in \(secondsUntil) s"
  }
}

/// Where playback stands in the emoji timeline at one moment.
public struct CueState: Equatable, Sendable {
  /// Index of the current scene's marker: the last with `second <= time`; nil before the first.
  public var currentIndex: Int?
  /// The current scene's marker.
  public var current: Marker?
  /// The next marker when `time` is inside its `[cueAt, second)` window.
  public var headsUp: HeadsUp?

  public init(currentIndex: Int?, current: Marker?, headsUp: HeadsUp?) {
    self.currentIndex = currentIndex
    self.current = current
    self.headsUp = headsUp
  }
}

/// The cue rules of the player as pure functions of the marker list and a time, so they can be
/// tested without a terminal or a video.
public enum CueLogic {
  /// The cue state at `time` (seconds).
  ///
  /// - Parameter markers: sorted by `second` (as `MovieData.json` stores them).
  /// - Returns: the current marker (last with `second <= time`, none before the first) and the
  ///   heads-up for the next marker if `cueAt <= time < second` (none when its seek-ahead is 0).
  public static func state(markers: [Marker], at time: Double) -> CueState {
    let next = firstIndex(in: markers, after: time)
    let currentIndex = next > 0 ? next - 1 : nil
    var headsUp: HeadsUp? = nil
    if next < markers.count {
      let marker = markers[next]
      if marker.cueAt <= time && time < marker.second {
        headsUp = HeadsUp(
          marker: marker, index: next, secondsUntil: secondsUntil(marker.second, from: time))
      }
    }
    return CueState(
      currentIndex: currentIndex, current: currentIndex.map { markers[$0] }, headsUp: headsUp)
  }

  /// The heads-up for a sudden scare (`⚡ sudden scare in 2 s`) when `time` is inside an
  /// event's `[cueAt, second)` window, the nearest event first; nil otherwise. `play` shows it
  /// when no scene's heads-up is showing: a jump scare inside a scene already scary still gets
  /// its own warning.
  public static func suddenHeadsUp(events: [TimelineEvent], at time: Double) -> String? {
    guard
      let event = events.filter({
        $0.kind == TimelineEvent.sudden && $0.cueAt <= time && time < $0.second
      }).min(by: { $0.second < $1.second })
    else { return nil }
    return "⚡ sudden scare in \(secondsUntil(event.second, from: time)) s"
  }

  /// Whole seconds from `time` until `second`, rounded up and at least 1: a heads-up never
  /// says "in 0 s" while it shows.
  static func secondsUntil(_ second: Double, from time: Double) -> Int {
    max(1, Int((second - time).rounded(.up)))
  }

  /// The column of the playhead in a timeline strip `width` columns wide covering
  /// `0...duration`: `floor(time / duration * width)`, clamped to `0...width-1` (0 when the
  /// duration is unknown or the strip empty).
  public static func playheadColumn(time: Double, duration: Double, width: Int) -> Int {
    guard width > 0, duration > 0, time.isFinite else { return 0 }
    let column = Int((time / duration * Double(width)).rounded(.down))
    return min(max(0, column), width - 1)
  }

  /// The label shown by each column of a `width`-column strip over `0...duration`: the scene
  /// current at the middle of the column's time span (nil before the first marker).
  public static func stripLabels(markers: [Marker], duration: Double, width: Int) -> [String?] {
    guard width > 0 else { return [] }
    return (0..<width).map { column in
      guard duration > 0 else { return nil }
      let time = (Double(column) + 0.5) * duration / Double(width)
      let next = firstIndex(in: markers, after: time)
      return next > 0 ? markers[next - 1].label : nil
    }
  }

  /// Index of the first marker with `second > time` (`markers.count` if none): binary search.
  static func firstIndex(in markers: [Marker], after time: Double) -> Int {
    var low = 0
    var high = markers.count
    while low < high {
      let mid = (low + high) / 2
      if markers[mid].second <= time { low = mid + 1 } else { high = mid }
    }
    return low
  }
}
