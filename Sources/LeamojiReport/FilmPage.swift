import LeamojiTimeline

/// A film's page: poster, title, description, the player with the cue overlay, the clickable
/// mood strip and the list of scenes with a thumbnail at each scene start.
public enum FilmPage {
  /// Where the page's files are, relative to the page (`films/`): each nil when there is none.
  public struct Links: Equatable, Sendable {
    /// The poster, e.g. `../posters/x.jpg`.
    public var poster: String?
    /// The video, e.g. `../../SampleVideos/x.mp4` or `../videos/x.mp4`.
    public var video: String?
    /// The video's file name, for the message when the browser cannot play it.
    public var videoName: String?
    /// The WebVTT cues, e.g. `x.vtt`.
    public var cues: String?
    /// The thumbnail of each scene (by scene index), e.g. `../thumbs/x/14.jpg`.
    public var thumbnails: [Int: String]

    /// Links to the given files (none by default).
    public init(
      poster: String? = nil, video: String? = nil, videoName: String? = nil, cues: String? = nil,
      thumbnails: [Int: String] = [:]
    ) {
      self.poster = poster
      self.video = video
      self.videoName = videoName
      self.cues = cues
      self.thumbnails = thumbnails
    }
  }

  /// The page of `film`, with its files at `links`.
  public static func html(film: ReportFilm, links: Links) -> String {
    let title = WebText.html(film.title)
    var page = IndexPage.head(title: film.title + " — leamoji", prefix: "../", bodyClass: "film")
    page +=
      "<header class=\"top\"><a class=\"back\" href=\"../index.html\">← All films</a></header>\n"
    page += "<main>\n<section class=\"intro\">"
    if let poster = links.poster {
      page +=
        "<img class=\"poster\" src=\"\(WebText.attribute(poster))\" alt=\"Poster of \(title)\">"
    } else {
      page += "<div class=\"poster none\" role=\"img\" aria-label=\"No poster\">🎬</div>"
    }
    page += "<div class=\"about\"><h1>\(title)</h1>"
    if !film.description.isEmpty {
      page += "<p class=\"desc\">\(WebText.html(film.description))</p>"
    }
    page += "<p class=\"facts\">\(facts(film))</p></div></section>\n"
    page += headsUp(film)
    page += player(film: film, links: links)
    page += strip(film)
    page += scenes(film: film, links: links)
    page += "</main>\n<script type=\"application/json\" id=\"film-data\">\(data(film))</script>\n"
    page += "</body>\n</html>\n"
    return page
  }

  /// `1:30 · 4 scenes · 😱 2 scary scenes · cues 5 s ahead` (`? s` for an unknown duration),
  /// as HTML (every part is leamoji's own text; the emoji in its own span for the emoji font).
  static func facts(_ film: ReportFilm) -> String {
    let count = film.scenes.count
    let scary = film.scaryScenes
    var parts = [
      film.duration.map(WebText.clock) ?? "? s", "\(count) scene\(count == 1 ? "" : "s")",
      "<span class=\"e\">😱</span> \(scary) scary scene\(scary == 1 ? "" : "s")",
      "cues \(WebText.number(film.entry.movie.seekAhead)) s ahead",
    ]
    if film.entry.markerForm == .app { parts.append("markers from the original app") }
    if !film.entry.userEdits.isEmpty { parts.append("corrected in review") }
    return parts.joined(separator: " · ")
  }

  /// The heads-up box: the level and what raised it, the facts, and, when the timeline is not
  /// the model in use's, the model's sentence (docs/heads-up.md). `HeadsUpText`'s wording.
  static func headsUp(_ film: ReportFilm) -> String {
    let headsUp = film.headsUp
    let levelClass = headsUp.level.map { "lv\($0)" } ?? "lvx"
    var html =
      "<section class=\"headsup \(levelClass)\" id=\"headsup\" aria-labelledby=\"headsup-h\">"
    html += "<h2 id=\"headsup-h\">Heads-up</h2>"
    let level = HeadsUpText.level(headsUp)
    html += "<p class=\"level\">\(withCode(level.prefix(1).uppercased() + level.dropFirst()))</p>"
    let facts = HeadsUpText.facts(headsUp)
    if !facts.isEmpty {
      html += "<ul>" + facts.map { "<li>\(withCode($0))</li>" }.joined() + "</ul>"
    }
    if let sentence = headsUp.model?.sentence {
      html += "<p class=\"stale\">\(withCode(sentence))</p>"
    }
    return html + "</section>\n"
  }

  /// `text` escaped, with each `` `command` `` as `<code>command</code>`.
  static func withCode(_ text: String) -> String {
    text.split(separator: "`", omittingEmptySubsequences: false).enumerated().map { index, part in
      index % 2 == 1 ? "<code>\(WebText.html(String(part)))</code>" : WebText.html(String(part))
    }.joined()
  }

  /// The video with its track and the overlay; a note instead when there is no video file.
  static func player(film: ReportFilm, links: Links) -> String {
    var html = "<section class=\"player\" aria-label=\"Player\"><div class=\"stage\" id=\"stage\">"
    if let video = links.video {
      let poster = links.poster.map { " poster=\"\(WebText.attribute($0))\"" } ?? ""
      html += "<video id=\"video\" controls preload=\"metadata\" playsinline\(poster)>"
      html += "<source src=\"\(WebText.attribute(video))\">"
      if let cues = links.cues {
        html +=
          "<track kind=\"subtitles\" src=\"\(WebText.attribute(cues))\" srclang=\"und\" label=\"Emoji cues\">"
      }
      html += "</video>"
    } else {
      html += "<div class=\"novideo\" id=\"novideo\">No video</div>"
    }
    html +=
      "<div class=\"overlay\" aria-live=\"polite\"><span class=\"badge\" id=\"cue-emoji\"></span>"
    html += "<span class=\"heads-up\" id=\"heads-up\" hidden></span></div></div>\n"
    let note: String
    if let name = links.videoName {
      note =
        "This browser cannot play \(WebText.html(name)) (its container or codec); "
        + "the timeline below still shows what is coming."
      html += "<p class=\"note\" id=\"video-note\" hidden>\(note)</p>"
    } else {
      note = "No video file was found for this film, so only its timeline is shown."
      html += "<p class=\"note\" id=\"video-note\">\(note)</p>"
    }
    html += "<p class=\"clock\"><span id=\"time\">0:00</span> / "
    html += "\(WebText.clock(film.timelineEnd))</p></section>\n"
    return html
  }

  /// The mood strip: an SVG with one rectangle per scene, a slider for leamoji.js (click to
  /// seek; with the keyboard ← / → 5 s, Page Up / Page Down 30 s, Home, End).
  static func strip(_ film: ReportFilm) -> String {
    var html = "<section aria-labelledby=\"mood-h\"><h2 id=\"mood-h\">Mood</h2>"
    html +=
      "<svg class=\"strip\" id=\"strip\" viewBox=\"0 0 1000 10\" preserveAspectRatio=\"none\" "
    html += "role=\"slider\" tabindex=\"0\" aria-valuemin=\"0\" "
    html += "aria-valuemax=\"\(WebText.number(film.timelineEnd))\" aria-valuenow=\"0\" "
    html += "aria-label=\"Mood strip: \(WebText.attribute(summary(film)))\">"
    var x = 0
    for part in film.moodParts {
      html +=
        "<rect class=\"m\(part.mood)\" x=\"\(x)\" y=\"0\" width=\"\(part.share)\" height=\"10\"/>"
      x += part.share
    }
    html += "<rect class=\"playhead\" id=\"playhead\" x=\"0\" y=\"0\" width=\"4\" height=\"10\"/>"
    html += "</svg></section>\n"
    return html
  }

  /// `😀 happy 0:00–0:14, 😱 scary 0:14–0:30` for the strip's accessible name.
  static func summary(_ film: ReportFilm) -> String {
    if film.scenes.isEmpty { return "no scenes" }
    return film.scenes.map {
      "\($0.emoji) \($0.label) \(WebText.clock($0.start))–\(WebText.clock($0.end))"
    }.joined(separator: ", ")
  }

  /// The list of scenes: each a link to its start (`#t=14`), with its thumbnail.
  static func scenes(film: ReportFilm, links: Links) -> String {
    var html = "<section aria-labelledby=\"scenes-h\"><h2 id=\"scenes-h\">Scenes</h2>"
    if film.scenes.isEmpty {
      return html + "<p>No scenes: this film has no timeline yet.</p></section>\n"
    }
    html += "<ol class=\"scenes\" id=\"scenes\">\n"
    for (index, scene) in film.scenes.enumerated() {
      let classes = "scene m\(ReportFilm.moodClass(scene.label))" + (scene.edited ? " edited" : "")
      let start = WebText.number(scene.start)
      html += "<li class=\"\(classes)\" data-i=\"\(index)\"><a href=\"#t=\(start)\">"
      if let thumbnail = links.thumbnails[index] {
        html += "<img src=\"\(WebText.attribute(thumbnail))\" loading=\"lazy\" "
        html += "alt=\"Frame at \(WebText.clock(scene.start))\">"
      } else {
        html += "<span class=\"nothumb\" aria-hidden=\"true\">\(WebText.html(scene.emoji))</span>"
      }
      html +=
        "<span class=\"when\">\(WebText.clock(scene.start)) – \(WebText.clock(scene.end))</span>"
      html += "<span class=\"emoji\" aria-hidden=\"true\">\(WebText.html(scene.emoji))</span>"
      html += "<span class=\"label\">\(WebText.html(scene.label))</span>"
      let percent = Int((max(0, min(1, scene.confidence)) * 100).rounded())
      html += "<span class=\"conf\" title=\"confidence\">\(percent) %</span>"
      if let firedBy = scene.firedBy {
        html += "<span class=\"tag why\" title=\"what fired this warning\">"
        html +=
          "\(WebText.html(firedBy))\(scene.badges.isEmpty ? "" : " " + WebText.html(scene.badges))</span>"
      }
      if scene.edited { html += "<span class=\"tag\">edited</span>" }
      html += "</a></li>\n"
    }
    return html + "</ol></section>\n"
  }

  /// The data leamoji.js plays with: the timeline's end, the seek-ahead and the markers
  /// (`s` second, `c` cueAt, `e` emoji, `l` label), as the terminal player reads them. JSON
  /// escaped for a script data block (see `WebText.jsonString`).
  public static func data(_ film: ReportFilm) -> String {
    let markers = film.entry.movie.markers.map { marker in
      "{\"s\":\(WebText.number(marker.second)),\"c\":\(WebText.number(marker.cueAt)),"
        + "\"e\":\(WebText.jsonString(marker.emoji)),\"l\":\(WebText.jsonString(marker.label))}"
    }
    return "{\"end\":\(WebText.number(film.timelineEnd)),"
      + "\"seekAhead\":\(WebText.number(film.entry.movie.seekAhead)),"
      + "\"markers\":[\(markers.joined(separator: ","))]}"
  }
}
