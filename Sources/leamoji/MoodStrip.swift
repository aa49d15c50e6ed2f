/// A one-line picture of a video's moods: one cell per second (or per group of seconds when the
/// video is longer than the line), coloured on a terminal, plain letters elsewhere.
enum MoodStrip {
  /// The 24-bit colour of a label's cells.
  static func colour(of label: String) -> (UInt8, UInt8, UInt8) {
    switch label {
    case "happy": return (250, 200, 40)
    case "neutral": return (140, 140, 140)
    case "scary": return (150, 20, 60)
    default: return (60, 110, 200)
    }
  }

  /// The label that most cells of each group show, `width` groups at most (earlier label on ties).
  static func cells(_ labels: [String], width: Int) -> [String] {
    guard !labels.isEmpty, width > 0 else { return [] }
    let perCell = (labels.count + width - 1) / width
    return stride(from: 0, to: labels.count, by: perCell).map { start in
      let group = labels[start..<min(labels.count, start + perCell)]
      var counts: [String: Int] = [:]
      for label in group { counts[label, default: 0] += 1 }
      return group.first { counts[$0] == counts.values.max() } ?? group.first!
    }
  }

  /// The strip: coloured blocks with `colour`, else the first letter of each cell's label.
  static func render(_ labels: [String], width: Int = 60, colour useColour: Bool) -> String {
    let groups = cells(labels, width: width)
    guard useColour else {
      return groups.map { String(Console.safe($0).first ?? "?") }.joined()
    }
    var text = ""
    for label in groups {
      let (r, g, b) = colour(of: label)
      text += "\u{1B}[48;2;\(r);\(g);\(b)m \u{1B}[0m"
    }
    return text
  }
}
