import LeamojiCore

/// A made-up catalogue of any size, for the report's benchmark (`leamoji-bench report`) and
/// tests: feature-length films with family-film titles, 3 to 14 scenes each, and a poster file
/// of about 20 KB beside the `MovieData.json` for each film.
public enum GeneratedCatalogue {
  private static let adjectives = [
    "Brave", "Little", "Secret", "Hidden", "Wild", "Silver", "Sleepy", "Clever", "Lost", "Magic",
    "Happy", "Stormy", "Golden", "Tiny", "Giant", "Frozen",
  ]
  private static let nouns = [
    "Fox", "Dragon", "Garden", "Lighthouse", "Robot", "Forest", "Castle", "Island", "Train",
    "Owl", "Balloon", "Mountain", "River", "Circus", "Moon", "Pirate",
  ]
  private static let labels = [("happy", "😀"), ("neutral", "😐"), ("scary", "😱")]

  /// Writes `count` films into `folder` (made if missing): `MovieData.json` and one
  /// `<id>.jpg` poster per film. The same `seed` gives the same files.
  /// - Returns: the path of the `MovieData.json`.
  @discardableResult
  public static func write(count: Int, to folder: String, seed: UInt64 = 1) throws(ReportError)
    -> String
  {
    try SiteFiles.makeFolder(folder)
    var random = SplitMix64(seed: seed)
    var entries: [(id: String, text: String)] = []
    let poster = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    for number in 1...max(1, count) {
      let adjective = adjectives[Int(random.next() % UInt64(adjectives.count))]
      let noun = nouns[Int(random.next() % UInt64(nouns.count))]
      let title = "The \(adjective) \(noun) \(number)"
      let id = "the-\(adjective)-\(noun)-\(number)".lowercased()
      let duration = 4800 + Double(random.next() % 2400)
      let sceneCount = 3 + Int(random.next() % 12)
      var markers: [String] = []
      var previous = -1
      for scene in 0..<sceneCount {
        let second = scene == 0 ? 0 : Int(duration) * scene / sceneCount + Int(random.next() % 60)
        var label = Int(random.next() % 3)
        if label == previous { label = (label + 1) % 3 }
        previous = label
        let (name, emoji) = labels[label]
        let confidence = 0.5 + Double(random.next() % 5000) / 10_000
        markers.append(
          "{ \"confidence\" : \(WebText.number(confidence)), \"cueAt\" : \(max(0, second - 5)), "
            + "\"emoji\" : \"\(emoji)\", \"label\" : \"\(name)\", \"second\" : \(second) }")
      }
      let text = """
          {
            "description" : "A generated film about a \(adjective.lowercased()) \(noun.lowercased()).",
            "duration" : \(WebText.number(duration)),
            "id" : "\(id)",
            "markers" : [ \(markers.joined(separator: ", ")) ],
            "model" : { "labels" : [ "happy", "neutral", "scary" ], "sha256" : "0" },
            "poster" : "\(id).jpg",
            "seekAhead" : 5,
            "title" : "\(title)"
          }
        """
      entries.append((id, text))
      try SiteFiles.write(poster, to: PathText.appending(id + ".jpg", to: folder))
    }
    let document =
      "[\n" + entries.sorted { $0.id < $1.id }.map(\.text).joined(separator: ",\n") + "\n]\n"
    let path = PathText.appending("MovieData.json", to: folder)
    try SiteFiles.write(Array(document.utf8), to: path)
    return path
  }
}
