import LeamojiCommandLine
import LeamojiCore

/// A one-line picture of a video's moods: one cell per second (or per group of seconds when the
/// video is longer than the line), coloured on a terminal, plain letters elsewhere. Colours and
/// letters are the labels' own (`Label`).
enum MoodStrip {
  /// The label that most cells of each group show, `width` groups at most (earlier label on ties).
  static func cells(_ labels: [Label], width: Int) -> [Label] {
    guard !labels.isEmpty, width > 0 else { return [] }
    let perCell = (labels.count + width - 1) / width
    return stride(from: 0, to: labels.count, by: perCell).map { start in
      let group = labels[start..<min(labels.count, start + perCell)]
      var counts: [Label: Int] = [:]
      for label in group { counts[label, default: 0] += 1 }
      return group.first { counts[$0] == counts.values.max() } ?? group.first!
    }
  }

  /// The strip: blocks in each cell's label colour with `colour`, else each label's letter.
  static func render(_ labels: [Label], width: Int = 60, colour useColour: Bool) -> String {
    let groups = cells(labels, width: width)
    guard useColour else {
      return groups.map { String(Console.safe(String($0.letter)).first ?? "?") }.joined()
    }
    var text = ""
    for label in groups {
      let c = label.colour
      text += "\u{1B}[48;2;\(c.r);\(c.g);\(c.b)m \u{1B}[0m"
    }
    return text
  }
}
