import Foundation
import LeamojiAnalysis
import LeamojiCore
import LeamojiReport
import LeamojiTerminal
import LeamojiTestSupport
import LeamojiTimeline
import LeamojiVideo
import Testing

/// The report's pages in a real browser: Debian's `chromium`, headless. Skipped with a note
/// when it is not installed; `make test` installs it.
@Suite(
  "leamoji report in Chromium",
  .enabled(
    if: Chromium.path != nil,
    "chromium is not installed (make test-deps installs it; apt-get install chromium)"))
struct BrowserTests {
  /// Where the screenshots are kept for people to look at (not committed).
  static let artefacts = Repository.root.appendingPathComponent(
    ".build/report-screenshots")

  /// The site of the sample videos (the golden timeline), with real thumbnails; made once.
  static let sampleSite: Result<URL, any Error> = Result {
    let folder = try ScratchFolder.url("report-browser")
    let data = folder.appendingPathComponent("MovieData.json")
    try FileManager.default.copyItem(at: Repository.sampleCatalogue, to: data)
    let options = ReportSite.Options(
      data: data.path, out: folder.appendingPathComponent("site").path,
      videos: Repository.sampleVideos.path)
    _ = try ReportSite.build(options) { video, seconds, width in
      try SceneStills.jpegs(video: video, seconds: seconds, width: width)
    }
    return folder.appendingPathComponent("site")
  }

  static func sampleFilms() throws -> [ReportFilm] {
    ReportFilm.films(of: try MovieStore(path: Repository.sampleCatalogue.path).readCatalogue())
  }

  /// The films of a catalogue of edge cases for the cue rules: fractional seconds, a cue at its
  /// scene (seek-ahead 0), two markers in one second, the app's markers, a custom label.
  static func edgeFilms() throws -> [ReportFilm] {
    let folder = try ScratchFolder.url("report-edges")
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = folder.appendingPathComponent("MovieData.json")
    try ReportFixtures.write(
      """
      [ { "id" : "e1", "duration" : 30, "seekAhead" : 5, "markers" : [
          { "second" : 0, "cueAt" : 0, "label" : "happy" },
          { "second" : 10.5, "cueAt" : 5.5, "label" : "scary" },
          { "second" : 12, "cueAt" : 7, "label" : "neutral" },
          { "second" : 20, "cueAt" : 20, "label" : "happy" },
          { "second" : 20, "cueAt" : 15, "label" : "scary" } ] },
        { "id" : "e2", "duration" : 10 },
        { "id" : "e3", "markers" : { "3" : "Scary", "9" : "Happy", "10" : "Happy" } },
        { "id" : "e4", "duration" : 12, "seekAhead" : 0, "markers" : [
          { "second" : 2, "cueAt" : 2, "label" : "scary" } ] },
        { "id" : "e5", "duration" : 9, "seekAhead" : 3, "markers" : [
          { "second" : 2, "cueAt" : 0, "label" : "monster", "emoji" : "👹" },
          { "second" : 7.25, "cueAt" : 4.25, "label" : "Scary" } ] } ]
      """, to: data)
    return ReportFilm.films(of: try MovieStore(path: data.path).readCatalogue())
  }

  /// A copy of the film page `films/<stem>.html` that also runs the test's script `films/<script>`
  /// (after leamoji.js), as `films/<stem>-check.html`.
  static func withScript(_ script: String, page stem: String, site: URL) throws -> URL {
    let page = try ReportFixtures.read(site.appendingPathComponent("films/\(stem).html"))
    let shared = "<script src=\"../leamoji.js\" defer></script>"
    let checked = site.appendingPathComponent("films/\(stem)-check.html")
    try ReportFixtures.write(
      page.replacingOccurrences(
        of: shared, with: shared + "<script src=\"\(script)\" defer></script>"), to: checked)
    return checked
  }

  /// The player's decision at `time` as the overlay shows it: the badge and the heads-up line.
  static func expected(_ film: ReportFilm, at time: Double) -> (badge: String, headsUp: String) {
    let state = CueLogic.state(markers: film.entry.movie.markers, at: time)
    return (state.current?.emoji ?? "", state.headsUp?.text ?? "")
  }

  @Test(
    "leamoji.js decides cues exactly as the terminal player, on edge cases and every quarter second of the samples"
  )
  func cueLogicAgrees() throws {
    let films = try Self.edgeFilms() + Self.sampleFilms()
    let folder = try ScratchFolder.url("report-cues")
    defer { try? FileManager.default.removeItem(at: folder) }
    var groups: [String] = []
    var expected: [String] = []
    for film in films {
      var times = stride(from: -1.0, through: film.timelineEnd + 1, by: 0.25).map { $0 }
      times += [5.5 - 1e-9, 10.499_999, 11.000_001, 6.999, 19.999, 7.249]
      groups.append(
        "{\"data\":\(FilmPage.data(film)),\"times\":[\(times.map { String($0) }.joined(separator: ","))]}"
      )
      for time in times {
        let state = CueLogic.state(markers: film.entry.movie.markers, at: time)
        let headsUp = state.headsUp
        expected.append(
          "\(state.currentIndex ?? -1)|\(headsUp?.index ?? -1)|\(headsUp?.secondsUntil ?? -1)|"
            + (headsUp?.text ?? ""))
      }
    }
    try ReportFixtures.write(SiteScript.text, to: folder.appendingPathComponent("leamoji.js"))
    try ReportFixtures.write(
      """
      "use strict";
      document.addEventListener("DOMContentLoaded", function () {
        const groups = JSON.parse(document.getElementById("cases").textContent);
        const lines = [];
        groups.forEach(function (group) {
          const markers = group.data.markers;
          group.times.forEach(function (t) {
            const s = Leamoji.cueState(markers, t), h = s.headsUp;
            lines.push([s.current === null ? -1 : s.current, h ? h.index : -1,
              h ? h.secondsUntil : -1,
              h ? Leamoji.headsUpText(markers[h.index], h.secondsUntil) : ""].join("|"));
          });
        });
        document.getElementById("out").textContent = lines.join("\\n");
      });
      """, to: folder.appendingPathComponent("check.js"))
    let page = folder.appendingPathComponent("check.html")
    try ReportFixtures.write(
      """
      <!doctype html><html><head><meta charset="utf-8">
      <script src="leamoji.js" defer></script><script src="check.js" defer></script></head>
      <body><pre id="out"></pre><script type="application/json" id="cases">[\(groups.joined(separator: ","))]</script></body></html>
      """, to: page)
    let run = try Chromium.run(page)
    let lines = try #require(Chromium.text(ofID: "out", in: run.stdout)).split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    #expect(lines.count == expected.count)
    for (index, (got, want)) in zip(lines, expected).enumerated() where got != want {
      Issue.record("case \(index): leamoji.js says \(got), CueLogic says \(want)")
    }
    #expect(run.consoleLines.isEmpty, "\(run.consoleLines)")
  }

  @Test("each sample film's page, its video seeked to every second, shows play's cue and heads-up")
  func overlaySecondBySecond() throws {
    let site = try Self.sampleSite.get()
    try ReportFixtures.write(
      """
      "use strict";
      // Headless Chromium's virtual time runs ahead whenever the page is idle, while seeks
      // finish on the media threads in real time: a little work every virtual millisecond
      // keeps the two in step until the last seek is recorded.
      let sink = 0;
      const spinner = window.setInterval(function () {
        for (let i = 0; i < 200000; i += 1) { sink += i; }
      }, 1);
      window.addEventListener("load", function () {
        const video = document.getElementById("video");
        const end = JSON.parse(document.getElementById("film-data").textContent).end;
        const lines = [];
        let t = 0;
        function record() {
          const badge = document.getElementById("cue-emoji");
          const headsUp = document.getElementById("heads-up");
          lines.push([t, badge.textContent, headsUp.hidden ? "" : headsUp.textContent].join("|"));
        }
        function step() {
          if (t >= end) {
            const log = document.createElement("pre");
            log.id = "overlay-log";
            window.clearInterval(spinner);
            log.textContent = lines.join("\\n");
            document.body.appendChild(log);
            return;
          }
          video.addEventListener("seeked", function once() {
            video.removeEventListener("seeked", once);
            record();
            t += 1;
            window.setTimeout(step, 0);
          });
          video.currentTime = t;
        }
        if (video.readyState > 0) { step(); } else { video.addEventListener("loadedmetadata", step); }
      });
      """, to: site.appendingPathComponent("films/check-overlay.js"))
    for film in try Self.sampleFilms() {
      let checked = try Self.withScript("check-overlay.js", page: film.stem, site: site)
      let run = try Chromium.run(checked, budget: 20000)
      #expect(Chromium.isHidden("video-note", in: run.stdout), "\(film.id): the video did not play")
      let log = try #require(Chromium.text(ofID: "overlay-log", in: run.stdout), "\(film.id)")
      let lines = log.split(separator: "\n").map(String.init)
      #expect(lines.count == Int(film.timelineEnd.rounded(.up)), "\(film.id)")
      for line in lines {
        let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let second = Double(parts[0]) ?? -1
        let want = Self.expected(film, at: second)
        #expect(
          parts.count == 3 && parts[1] == want.badge && parts[2] == want.headsUp,
          "\(film.id) at \(second) s: page shows \(parts.dropFirst()), play shows \(want)")
      }
      #expect(run.consoleLines.isEmpty, "\(film.id): \(run.consoleLines)")
    }
  }

  @Test(
    "a film page opened at #t=12 shows the overlay and has no console errors; screenshots are not blank"
  )
  func filmPageAndScreenshots() throws {
    let site = try Self.sampleSite.get()
    let film = try #require(try Self.sampleFilms().first { $0.id == "meadow-storm" })
    let url = site.appendingPathComponent("films/meadow-storm.html")
    let run = try Chromium.run(url, fragment: "#t=12")
    #expect(run.consoleLines.isEmpty, "\(run.consoleLines)")
    let want = Self.expected(film, at: 12)
    #expect(want.headsUp == "😱 scary scene in 2 s")
    #expect(Chromium.text(ofID: "cue-emoji", in: run.stdout) == want.badge)
    #expect(Chromium.text(ofID: "heads-up", in: run.stdout) == want.headsUp)
    #expect(!Chromium.isHidden("heads-up", in: run.stdout))
    try FileManager.default.createDirectory(at: Self.artefacts, withIntermediateDirectories: true)
    let shots = [
      ("index.png", site.appendingPathComponent("index.html"), "", "1000,700"),
      ("film.png", url, "#t=12", "1000,1500"),
      ("film-phone.png", url, "#t=12", "400,1400"),
    ]
    for (name, page, fragment, size) in shots {
      let file = Self.artefacts.appendingPathComponent(name)
      try? FileManager.default.removeItem(at: file)
      _ = try Chromium.run(page, fragment: fragment, screenshot: file, size: size)
      let image = try ImageCodec.decode(path: file.path)
      var colours = Set<UInt32>()
      for index in stride(from: 0, to: image.pixels.count - 2, by: 3 * 7) {
        colours.insert(
          UInt32(image.pixels[index]) << 16 | UInt32(image.pixels[index + 1]) << 8
            | UInt32(image.pixels[index + 2]))
      }
      #expect(colours.count > 200, "\(name) looks blank: \(colours.count) colours")
    }
  }

  @Test("the index has one card per film with escaped titles, and hostile pages load cleanly")
  func hostileSite() throws {
    let folder = try ScratchFolder.url("report-hostile-browser")
    defer { try? FileManager.default.removeItem(at: folder) }
    let data = folder.appendingPathComponent("MovieData.json")
    try ReportFixtures.write(ReportFixtures.hostileCatalogue, to: data)
    let site = folder.appendingPathComponent("site")
    _ = try ReportSite.build(
      .init(data: data.path, out: site.path), stills: ReportFixtures.FakeStills().make)
    let run = try Chromium.run(site.appendingPathComponent("index.html"))
    #expect(run.consoleLines.isEmpty, "\(run.consoleLines)")
    #expect(run.stdout.components(separatedBy: "<li class=\"card\"").count - 1 == 6)
    // Each poster has its heads-up badge; the four entries without a timeline show "–".
    #expect(run.stdout.components(separatedBy: "<span class=\"lvl ").count - 1 == 6)
    #expect(run.stdout.components(separatedBy: "<span class=\"lvl lvx old\"").count - 1 == 4)
    #expect(run.stdout.contains("&lt;script&gt;alert('t')&lt;/script&gt; &amp; \"q\""))
    #expect(!run.stdout.contains("<img src=\"x\"") && !run.stdout.contains("<script>alert"))
    for name in try FileManager.default.contentsOfDirectory(
      atPath: site.appendingPathComponent("films").path) where name.hasSuffix(".html")
    {
      let page = try Chromium.run(site.appendingPathComponent("films/\(name)"), budget: 1000)
      #expect(page.consoleLines.isEmpty, "\(name): \(page.consoleLines)")
      #expect(!page.stdout.contains("<img src=\"x\""), "\(name)")
    }
  }

  @Test(
    "a video the browser cannot play: the page says so; the strip's keys still drive the overlay")
  func unplayableVideo() throws {
    let folder = try ScratchFolder.url("report-unplayable")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FFmpegFixtures.run([
      "-f", "lavfi", "-i", "testsrc=size=160x90:rate=10", "-t", "10", "-c:v", "mpeg4",
      folder.appendingPathComponent("clip.avi").path,
    ])
    let data = folder.appendingPathComponent("MovieData.json")
    try ReportFixtures.write(
      """
      [ { "id" : "clip", "duration" : 10, "seekAhead" : 5, "markers" : [
          { "second" : 0, "cueAt" : 0, "label" : "happy" },
          { "second" : 8, "cueAt" : 3, "label" : "scary" } ] } ]
      """, to: data)
    let site = folder.appendingPathComponent("site")
    _ = try ReportSite.build(.init(data: data.path, out: site.path)) { video, seconds, width in
      try SceneStills.jpegs(video: video, seconds: seconds, width: width)
    }
    try ReportFixtures.write(
      """
      "use strict";
      window.addEventListener("load", function () {
        const strip = document.getElementById("strip");
        strip.focus();
        strip.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", bubbles: true }));
        const state = function () {
          return [document.activeElement === strip,
            document.getElementById("cue-emoji").textContent,
            document.getElementById("heads-up").textContent,
            strip.getAttribute("aria-valuetext")].join("|");
        };
        const log = document.createElement("pre");
        log.id = "keys-log";
        log.textContent = state();
        // A click at 90 % of the strip: second 9 of 10, in the scary scene.
        const box = strip.getBoundingClientRect();
        strip.dispatchEvent(new MouseEvent("click", {
          clientX: box.left + box.width * 0.9, clientY: box.top + 1, bubbles: true }));
        log.textContent += "\\n" + state();
        document.body.appendChild(log);
      });
      """, to: site.appendingPathComponent("films/check-keys.js"))
    let page = try ReportFixtures.read(site.appendingPathComponent("films/clip.html"))
    #expect(page.contains("<source src=\"../../clip.avi\">"))
    let checked = try Self.withScript("check-keys.js", page: "clip", site: site)
    let run = try Chromium.run(checked)
    #expect(!Chromium.isHidden("video-note", in: run.stdout), "the page did not say it cannot play")
    #expect(Chromium.text(ofID: "video-note", in: run.stdout)?.contains("clip.avi") == true)
    #expect(
      Chromium.text(ofID: "keys-log", in: run.stdout)
        == "true|😀|😱 scary scene in 3 s|0:05, happy\ntrue|😱||0:09, scary")
    #expect(run.consoleLines.isEmpty, "\(run.consoleLines)")
  }
}
