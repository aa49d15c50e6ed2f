import FoundationEssentials

/// The emoji timeline as subtitles (`analyze --vtt` / `--srt`), so that any ordinary player
/// shows the cues without leamoji.
///
/// For each marker: a heads-up cue from `cueAt` to the scene's start (`😱 in 5 s`; omitted when
/// `cueAt == second`), then the scene cue (`😱 scary`) from the scene's start to the next marker
/// (the last one to `duration`). Heads-up cues overlap the previous scene's cue on purpose: a
/// player shows both lines. Cues are sorted by start time (then end time, then marker order);
/// cues that would last less than a millisecond (e.g. a last marker at or after `duration`)
/// are left out. Times are rounded to the millisecond.
public enum Subtitles {
  /// A WebVTT file (`WEBVTT` header, `HH:MM:SS.mmm --> HH:MM:SS.mmm`, `&`, `<`, `>` escaped).
  public static func webVTT(markers: [Marker], duration: Double) -> String {
    var text = "WEBVTT\n"
    for cue in cues(markers: markers, duration: duration) {
      text +=
        "\n\(timestamp(cue.start, separator: ".")) --> \(timestamp(cue.end, separator: "."))\n"
      text += escapeVTT(cue.text) + "\n"
    }
    return text
  }

  /// A SubRip file (cues numbered from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, blank line between
  /// cues). SubRip has no escapes and players read `<...>` and `{\...}` as formatting, so `<`,
  /// `>`, `{` and `}` in a label are written as `‹`, `›`, `(` and `)`.
  public static func srt(markers: [Marker], duration: Double) -> String {
    var blocks: [String] = []
    for (index, cue) in cues(markers: markers, duration: duration).enumerated() {
      blocks.append(
        "\(index + 1)\n\(timestamp(cue.start, separator: ",")) --> \(timestamp(cue.end, separator: ","))\n"
          + "\(sanitizeSRT(cue.text))\n")
    }
    return blocks.joined(separator: "\n")
  }

  /// One subtitle: start and end in milliseconds, and one line of text.
  struct Cue: Equatable {
    var start: Int
    var end: Int
    var text: String
  }

  /// The cues for `markers` (any order), sorted as described on the type.
  static func cues(markers: [Marker], duration: Double) -> [Cue] {
    let sorted = markers.enumerated().sorted {
      $0.element.second != $1.element.second
        ? $0.element.second < $1.element.second : $0.offset < $1.offset
    }.map(\.element)
    let end = milliseconds(duration)
    var cues: [(cue: Cue, order: Int)] = []
    for (index, marker) in sorted.enumerated() {
      let sceneStart = milliseconds(marker.second)
      let cueStart = milliseconds(marker.cueAt)
      let oneLine = singleLine(marker.emoji)
      if cueStart < sceneStart {
        let ahead = formatSeconds(Double(sceneStart - cueStart) / 1000)
        cues.append(
          (Cue(start: cueStart, end: sceneStart, text: "\(oneLine) in \(ahead) s"), cues.count))
      }
      let sceneEnd = index + 1 < sorted.count ? milliseconds(sorted[index + 1].second) : end
      if sceneStart < sceneEnd {
        cues.append(
          (
            Cue(start: sceneStart, end: sceneEnd, text: "\(oneLine) \(singleLine(marker.label))"),
            cues.count
          ))
      }
    }
    return cues.sorted {
      ($0.cue.start, $0.cue.end, $0.order) < ($1.cue.start, $1.cue.end, $1.order)
    }.map(\.cue)
  }

  /// `3723.5` s → `01:02:03.500` (hours grow past two digits when needed).
  static func timestamp(_ milliseconds: Int, separator: String) -> String {
    let hours = milliseconds / 3_600_000
    let minutes = milliseconds / 60_000 % 60
    let seconds = milliseconds / 1000 % 60
    let millis = milliseconds % 1000
    return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2))\(separator)\(pad(millis, 3))"
  }

  private static func milliseconds(_ seconds: Double) -> Int {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    return Int((seconds * 1000).rounded())
  }

  /// `5` → "5", `2.5` → "2.5", `0.125` → "0.125".
  private static func formatSeconds(_ value: Double) -> String {
    let millis = Int((value * 1000).rounded())
    if millis % 1000 == 0 { return "\(millis / 1000)" }
    var fraction = pad(millis % 1000, 3)
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(millis / 1000).\(fraction)"
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  /// Line breaks would end a cue early (and a blank line would end it in the middle).
  private static func singleLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }

  private static func sanitizeSRT(_ text: String) -> String {
    String(
      text.map { character -> Character in
        switch character {
        case "<": "‹"
        case ">": "›"
        case "{": "("
        case "}": ")"
        default: character
        }
      })
  }

  private static func escapeVTT(_ text: String) -> String {
    text.replacing("&", with: "&amp;")
      .replacing("<", with: "&lt;")
      .replacing(">", with: "&gt;")
  }
}
