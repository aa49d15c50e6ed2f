import Foundation
import LeamojiCore
import LeamojiReport
import LeamojiTestSupport
import Testing

@Suite("leamoji report's site: pages, escaping, incremental writes")
struct ReportSiteTests {
  /// Builds the site of `catalogue` (JSON text) with `videos` copied beside it.
  static func build(
    _ catalogue: String, in folder: URL, videos: [String] = [], stills: ReportFixtures.FakeStills
  ) throws -> ReportSite.Summary {
    let data = folder.appendingPathComponent("MovieData.json")
    if !FileManager.default.fileExists(atPath: data.path) {
      try ReportFixtures.write(catalogue, to: data)
    }
    for name in videos
    where !FileManager.default.fileExists(
      atPath: folder.appendingPathComponent(name).path)
    {
      try FileManager.default.copyItem(
        at: Repository.sampleVideos.appendingPathComponent(name),
        to: folder.appendingPathComponent(name))
    }
    let options = ReportSite.Options(
      data: data.path, out: folder.appendingPathComponent("site").path)
    return try ReportSite.build(options, stills: stills.make)
  }

  @Test("hostile titles, ids, labels and descriptions are escaped everywhere")
  func hostileEntries() throws {
    let folder = try ScratchFolder.url("report-hostile")
    defer { try? FileManager.default.removeItem(at: folder) }
    let stills = ReportFixtures.FakeStills()
    let summary = try Self.build(ReportFixtures.hostileCatalogue, in: folder, stills: stills)
    #expect(summary.films == 6)
    #expect(summary.warnings.count == 1 && summary.warnings[0].contains("id 'twin'"))
    let site = folder.appendingPathComponent("site")
    let index = try ReportFixtures.read(site.appendingPathComponent("index.html"))
    #expect(index.components(separatedBy: "\n[\"").count - 1 == 6)
    #expect(index.contains(#""\u003cscript\u003ealert('t')\u003c/script\u003e \u0026 \"q\"""#))
    #expect(!index.contains("<script>alert") && !index.contains("<img src=x"))
    let films = try FileManager.default.contentsOfDirectory(
      atPath: site.appendingPathComponent("films").path
    ).sorted()
    // Every page stays in films/, each entry (both twins) has its own, none is index.html.
    #expect(films.filter { $0.hasSuffix(".html") }.count == 6)
    #expect(films.contains("twin.html") && films.contains("twin~2.html"))
    #expect(films.contains("index.html"))
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("etc").path))
    for name in films where name.hasSuffix(".html") {
      let page = try ReportFixtures.read(site.appendingPathComponent("films/\(name)"))
      #expect(!page.contains("<script>alert") && !page.contains("<img src=x"), "\(name)")
      #expect(!page.contains("</script><script>"), "\(name)")
      #expect(!page.contains(" on") || !page.lowercased().contains(" onerror="), "\(name)")
      #expect(page.contains("Content-Security-Policy"), "\(name)")
      #expect(!page.contains("href=\"javascript:"), "\(name)")
    }
    // The poster outside the catalogue's folder is not copied.
    #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("posters").path))
  }

  @Test("entries the app or a person wrote are shown as list shows them")
  func appEntries() throws {
    let folder = try ScratchFolder.url("report-app")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try Self.build(ReportFixtures.hostileCatalogue, in: folder, stills: .init())
    let site = folder.appendingPathComponent("site")
    let alice = try ReportFixtures.read(site.appendingPathComponent("films/AliceInWonderland.html"))
    // The app's per-second markers: one scene per run of equal labels, labels lower-cased.
    #expect(alice.contains("<span class=\"label\">scary</span>"))
    #expect(alice.contains("<span class=\"label\">happy</span>"))
    #expect(alice.components(separatedBy: "<li class=\"scene").count - 1 == 2)
    #expect(alice.contains("? s · 2 scenes"))
    #expect(alice.contains("markers from the original app"))
    let twin = try ReportFixtures.read(site.appendingPathComponent("films/twin~2.html"))
    #expect(twin.contains("<h1>Twin two</h1>") && twin.contains("no timeline yet"))
  }

  @Test("a second report writes nothing; a changed film rewrites its page and the index only")
  func incremental() throws {
    let folder = try ScratchFolder.url("report-incremental")
    defer { try? FileManager.default.removeItem(at: folder) }
    let stills = ReportFixtures.FakeStills()
    let catalogue = try ReportFixtures.read(Repository.sampleCatalogue)
    let videos = ["meadow-storm.mp4", "night-walk.mp4", "party-cellar.mp4"]
    let first = try Self.build(catalogue, in: folder, videos: videos, stills: stills)
    #expect(first.videos == 3 && first.thumbnails == 13 && stills.calls.count == 3)
    let again = try Self.build(catalogue, in: folder, stills: stills)
    #expect(again.written == 0 && again.thumbnails == 0 && stills.calls.count == 3)
    #expect(again.unchanged == first.written)
    // A new title: that film's page and the index.
    let data = folder.appendingPathComponent("MovieData.json")
    try ReportFixtures.write(
      catalogue.replacingOccurrences(of: "\"Night Walk\"", with: "\"Night Walk (new)\""), to: data)
    let edited = try Self.build(catalogue, in: folder, stills: stills)
    #expect(edited.written == 2 && edited.thumbnails == 0 && stills.calls.count == 3)
    // A replaced video: its thumbnails are made again.
    let video = folder.appendingPathComponent("party-cellar.mp4")
    let bytes = try Data(contentsOf: video)
    try FileManager.default.removeItem(at: video)
    try bytes.write(to: video)
    let replaced = try Self.build(catalogue, in: folder, stills: stills)
    #expect(replaced.thumbnails == 5 && stills.calls.count == 4)
    #expect(stills.calls.last?.0.hasSuffix("party-cellar.mp4") == true)
    // A film removed from the catalogue: its files go.
    try ReportFixtures.write(
      try ReportFixtures.read(
        Repository.sampleCatalogue), to: data)
    let removedFolder = folder.appendingPathComponent("site/thumbs/meadow-storm")
    #expect(FileManager.default.fileExists(atPath: removedFolder.path))
  }

  @Test("--copy-videos copies each video into videos/ once and links the page to the copy")
  func copyVideos() throws {
    let folder = try ScratchFolder.url("report-copy")
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalogue = try ReportFixtures.read(Repository.sampleCatalogue)
    let data = folder.appendingPathComponent("MovieData.json")
    try ReportFixtures.write(catalogue, to: data)
    try FileManager.default.copyItem(
      at: Repository.sampleVideos.appendingPathComponent("night-walk.mp4"),
      to: folder.appendingPathComponent("night-walk.mp4"))
    var options = ReportSite.Options(
      data: data.path, out: folder.appendingPathComponent("site").path)
    options.copyVideos = true
    let first = try ReportSite.build(options, stills: ReportFixtures.FakeStills().make)
    let copy = folder.appendingPathComponent("site/videos/night-walk.mp4")
    #expect(
      try Data(contentsOf: copy)
        == Data(contentsOf: Repository.sampleVideos.appendingPathComponent("night-walk.mp4")))
    let page = try ReportFixtures.read(folder.appendingPathComponent("site/films/night-walk.html"))
    #expect(page.contains("<source src=\"../videos/night-walk.mp4\">"))
    let again = try ReportSite.build(options, stills: ReportFixtures.FakeStills().make)
    #expect(first.videos == 1 && again.written == 0)
    // Linking again instead: the copy is removed.
    options.copyVideos = false
    _ = try ReportSite.build(options, stills: ReportFixtures.FakeStills().make)
    #expect(!FileManager.default.fileExists(atPath: copy.path))
  }

  @Test("a film removed from the catalogue loses its page and thumbnails")
  func removal() throws {
    let folder = try ScratchFolder.url("report-removal")
    defer { try? FileManager.default.removeItem(at: folder) }
    let stills = ReportFixtures.FakeStills()
    let catalogue = try ReportFixtures.read(Repository.sampleCatalogue)
    _ = try Self.build(catalogue, in: folder, videos: ["night-walk.mp4"], stills: stills)
    let site = folder.appendingPathComponent("site")
    #expect(
      FileManager.default.fileExists(
        atPath: site.appendingPathComponent("thumbs/night-walk/6.jpg").path))
    try ReportFixtures.write("[]\n", to: folder.appendingPathComponent("MovieData.json"))
    let summary = try Self.build("", in: folder, stills: stills)
    #expect(summary.films == 0 && summary.removed > 0)
    #expect(
      !FileManager.default.fileExists(atPath: site.appendingPathComponent("thumbs/night-walk").path)
    )
    #expect(
      !FileManager.default.fileExists(
        atPath: site.appendingPathComponent("films/night-walk.html").path))
    #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
  }

  /// The error building a site of `data` into `out` throws (nil when it succeeds).
  static func failure(data: URL, out: URL) -> ReportError? {
    do {
      _ = try ReportSite.build(
        .init(data: data.path, out: out.path), stills: ReportFixtures.FakeStills().make)
      return nil
    } catch {
      return error
    }
  }

  @Test("bad input: clear errors, and nothing of the user's is overwritten")
  func badInput() throws {
    let folder = try ScratchFolder.url("report-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let site = folder.appendingPathComponent("site")
    let missing = Self.failure(data: folder.appendingPathComponent("none.json"), out: site)
    #expect(missing?.kind == .noInput)
    #expect(missing?.message.hasSuffix("none.json: no such file") == true)
    let data = folder.appendingPathComponent("MovieData.json")
    try ReportFixtures.write("[ { \"title\" : 1 } ]", to: data)
    let malformed = Self.failure(data: data, out: site)
    #expect(malformed?.kind == .badInput && malformed?.message.contains("MovieData.json") == true)
    #expect(!FileManager.default.fileExists(atPath: site.path))
    // A folder that holds other files and no earlier report is refused and left as it was.
    let mine = folder.appendingPathComponent("mine")
    try FileManager.default.createDirectory(at: mine, withIntermediateDirectories: true)
    try ReportFixtures.write("my page", to: mine.appendingPathComponent("index.html"))
    try ReportFixtures.write("[]", to: data)
    let occupied = Self.failure(data: data, out: mine)
    #expect(occupied?.kind == .cannotWrite)
    #expect(occupied?.message.contains("mine: the folder is not empty") == true)
    #expect(try ReportFixtures.read(mine.appendingPathComponent("index.html")) == "my page")
  }

  @Test("scenes made by a person's correction are marked edited")
  func editedScenes() throws {
    let folder = try ScratchFolder.url("report-edited")
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalogue = """
      [ { "id" : "f", "duration" : 20, "seekAhead" : 5, "model" : { "labels" : [], "sha256" : "x" },
          "markers" : [ { "second" : 0, "label" : "scary" }, { "second" : 6, "label" : "happy" },
                        { "second" : 14, "label" : "scary" } ],
          "userEdits" : [ { "from" : 6, "label" : "happy", "to" : 14 } ] } ]
      """
    _ = try Self.build(catalogue, in: folder, stills: .init())
    let page = try ReportFixtures.read(folder.appendingPathComponent("site/films/f.html"))
    #expect(page.contains("<li class=\"scene mh edited\" data-i=\"1\">"))
    #expect(page.contains("<li class=\"scene ms\" data-i=\"0\">"))
    #expect(page.contains("<li class=\"scene ms\" data-i=\"2\">"))
    #expect(page.components(separatedBy: "<span class=\"tag\">edited</span>").count == 2)
    #expect(page.contains("corrected in review"))
  }

  @Test("a scary scene says what fired it (picture, sound 👂, sudden ⚡); others say nothing")
  func firedByShown() throws {
    let folder = try ScratchFolder.url("report-fired")
    defer { try? FileManager.default.removeItem(at: folder) }
    let catalogue = """
      [ { "id" : "f", "duration" : 20, "seekAhead" : 5, "model" : { "labels" : [], "sha256" : "x" },
          "markers" : [ { "second" : 0, "label" : "happy" },
                        { "second" : 6, "label" : "scary", "firedBy" : [ "sound", "sudden" ] },
                        { "second" : 14, "label" : "scary" } ] } ]
      """
    _ = try Self.build(catalogue, in: folder, stills: .init())
    let page = try ReportFixtures.read(folder.appendingPathComponent("site/films/f.html"))
    #expect(page.contains("sound + sudden 👂⚡</span>"))
    #expect(page.components(separatedBy: "class=\"tag why\"").count == 2)
  }
}

/// The report's size goal on a large catalogue (so not in `make check`: it writes 1,000 pages).
@Suite("leamoji report's size goal")
struct ReportSiteGoalTests {
  @Test("the index of 1,000 generated films is under 100 KB")
  func indexSize() throws {
    let folder = try ScratchFolder.url("report-thousand")
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = try GeneratedCatalogue.write(count: 1000, to: folder.path)
    let out = folder.appendingPathComponent("site")
    let summary = try ReportSite.build(
      .init(data: data, out: out.path), stills: ReportFixtures.FakeStills().make)
    #expect(summary.films == 1000)
    let size =
      try FileManager.default.attributesOfItem(
        atPath: out.appendingPathComponent("index.html").path)[.size] as? Int ?? 0
    #expect(size > 50_000 && size <= 100_000, "index.html is \(size) bytes")
    let posters = try FileManager.default.contentsOfDirectory(
      atPath: out.appendingPathComponent("posters").path)
    #expect(posters.count == 1000)
  }
}
