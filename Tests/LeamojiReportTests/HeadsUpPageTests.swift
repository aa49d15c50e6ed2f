import Foundation
import LeamojiCore
import LeamojiReport
import LeamojiTestSupport
import LeamojiTimeline
import Testing

@Suite("leamoji report's heads-up: the film page's box and the poster's level")
struct HeadsUpPageTests {
  static let v21 = "213ac7f5ab841c9193e33efc0fc0570ea7429a11ca17904f548b710aec7c24e6"
  static let v25 = "6a4db65519bbd5bbce9aed37fd57dfd06dbb1545c17e29730e45314294a5ead9"

  /// Four films: current and scary, older model, a hostile unknown model, never analysed.
  static let catalogue = """
    [ { "id" : "a-current", "duration" : 100, "seekAhead" : 5,
        "model" : { "labels" : [], "sha256" : "\(v25)" },
        "markers" : [ { "second" : 0, "label" : "happy", "confidence" : 0.9 },
                      { "second" : 30, "label" : "scary", "confidence" : 0.85,
                        "firedBy" : [ "picture", "sound" ] },
                      { "second" : 50, "label" : "happy", "confidence" : 0.9 } ] },
      { "id" : "b-older", "duration" : 60, "seekAhead" : 5,
        "model" : { "labels" : [], "sha256" : "\(v21)" },
        "markers" : [ { "second" : 0, "label" : "happy", "confidence" : 0.9 } ] },
      { "id" : "c-other", "duration" : 60, "seekAhead" : 5,
        "model" : { "labels" : [], "sha256" : "<script>x" },
        "markers" : [ { "second" : 0, "label" : "neutral", "confidence" : 0.9 } ] },
      { "id" : "d-new", "title" : "Not analysed" } ]
    """

  static func site() throws -> (folder: URL, page: (String) throws -> String) {
    let folder = try ScratchFolder.url("report-headsup")
    let data = folder.appendingPathComponent("MovieData.json")
    try ReportFixtures.write(catalogue, to: data)
    var options = ReportSite.Options(
      data: data.path, out: folder.appendingPathComponent("site").path)
    options.currentModel = ModelIdentity(sha256: v25, version: "2.5")
    _ = try ReportSite.build(options, stills: ReportFixtures.FakeStills().make)
    return (
      folder,
      { name in try ReportFixtures.read(folder.appendingPathComponent("site/" + name)) }
    )
  }

  @Test("each film page has the box: level and reasons, facts, and the model's sentence")
  func filmPages() throws {
    let (folder, page) = try Self.site()
    defer { try? FileManager.default.removeItem(at: folder) }
    let current = try page("films/a-current.html")
    #expect(current.contains("<section class=\"headsup lv4\" id=\"headsup\""))
    #expect(
      current.contains(
        "<p class=\"level\">Level 4 of 5 (scary time at least 5 % of the film; scary time at "
          + "least 15 % of the film; p(scary) at least 0.8)</p>"))
    #expect(current.contains("<li>1 scary scene, 20 s in all (20.0 % of the film)</li>"))
    #expect(current.contains("<li>first and longest: 0:30–0:50 (20 s)</li>"))
    #expect(current.contains("mean p(scary) 0.85, fired by picture + sound"))
    #expect(!current.contains("class=\"stale\""))

    let older = try page("films/b-older.html")
    #expect(older.contains("<section class=\"headsup lv0\""))
    #expect(
      older.contains("Level 0 of 5 — no scary scene found by the model (this is not a promise"))
    #expect(
      older.contains(
        "<p class=\"stale\">analysed with an older model (2.1); run <code>leamoji analyze</code> "
          + "again for the current one (2.5)</p>"))

    let other = try page("films/c-other.html")
    #expect(other.contains("another model (sha256 &lt;script&gt;x)"))
    #expect(!other.contains("<script>x"))

    let new = try page("films/d-new.html")
    #expect(new.contains("<section class=\"headsup lvx\""))
    #expect(new.contains("None — not analysed yet, so nothing is known about it"))
  }

  @Test("the index gives each card its level and whether it is the current model's")
  func indexCards() throws {
    let (folder, page) = try Self.site()
    defer { try? FileManager.default.removeItem(at: folder) }
    let index = try page("index.html")
    #expect(index.contains("[\"a-current\",\"a-current\",1,100,\"\",\"h30s20h50\",4,1]"))
    #expect(index.contains("[\"b-older\",\"b-older\",0,60,\"\",\"h100\",0,0]"))
    #expect(index.contains("[\"c-other\",\"c-other\",0,60,\"\",\"n100\",0,0]"))
    #expect(index.contains("[\"d-new\",\"Not analysed\",0,null,\"\",\"\",null,0]"))
    let script = try page("leamoji.js")
    #expect(script.contains("function levelBadge(level, current)"))
  }
}
