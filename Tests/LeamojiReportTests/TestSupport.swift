import Foundation
import LeamojiReport

/// Folders and catalogues the report tests make for themselves.
enum ReportFixtures {
  /// Writes `text` to `url`.
  static func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
  }

  static func read(_ url: URL) throws -> String {
    try String(contentsOf: url, encoding: .utf8)
  }

  /// A catalogue of hostile and unusual entries: markup in titles, ids and labels, an id that
  /// looks like a path, the app's markers, no duration, a duplicated id.
  static let hostileCatalogue = #"""
    [
      { "id" : "\"><img src=x onerror=alert(1)>", "title" : "<script>alert('t')</script> & \"q\"",
        "description" : "</script><script>alert(2)</script>\u2028line",
        "duration" : 20, "seekAhead" : 5, "model" : { "labels" : [], "sha256" : "x" },
        "markers" : [ { "second" : 0, "label" : "<b>bold</b>", "emoji" : "<i>" },
                      { "second" : 8, "label" : "scary" } ] },
      { "id" : "../../etc/passwd", "title" : "javascript:alert(3)", "poster" : "../secret.jpg" },
      { "id" : "AliceInWonderland", "title" : "Alice in Wonderland", "description" : "Rabbit.",
        "markers" : { "149" : "Scary", "212" : "Happy", "213" : "Happy" } },
      { "id" : "twin", "title" : "Twin one" },
      { "id" : "twin", "title" : "Twin two" },
      { "id" : "index", "title" : "Called index" }
    ]
    """#

  /// A still maker that makes no pictures but counts its calls: each still is the bytes of
  /// `video second`.
  final class FakeStills: @unchecked Sendable {
    var calls: [(String, [Double])] = []
    func make(_ video: String, _ seconds: [Double], _ width: Int) throws -> [[UInt8]] {
      calls.append((video, seconds))
      return seconds.map { Array("\(video) \($0)".utf8) }
    }
  }
}
