import LeamojiTimeline

/// The parts every page shares, and `index.html`: the catalogue's films as a grid of cards.
///
/// The films are in the page as one JSON data block (`<script type="application/json">`,
/// which the Content-Security-Policy allows because it is never run), and `leamoji.js` makes
/// the cards from it with text nodes only: about 40 bytes per film plus its title and id, so
/// that 1,000 films stay under 100 KB.
public enum IndexPage {
  /// The Content-Security-Policy of every page: only the site's own files, no inline script
  /// or style, no plugins, no forms, no `<base>`.
  public static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    + "media-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'"

  /// The start of a page up to `<body>`: character set, viewport, CSP, title, the shared CSS
  /// and JS (`prefix` is the way to the site's root, `""` or `"../"`).
  static func head(title: String, prefix: String, bodyClass: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
    <meta name="referrer" content="no-referrer">
    <meta name="color-scheme" content="light dark">
    <title>\(WebText.html(title))</title>
    <link rel="stylesheet" href="\(prefix)leamoji.css">
    <link rel="icon" href="\(prefix)leamoji.svg" type="image/svg+xml">
    <script src="\(prefix)leamoji.js" defer></script>
    </head>
    <body class="\(bodyClass)">

    """
  }

  /// `index.html` for `films` (in the order given: the page sorts by title itself).
  /// `posterExtensions`: the poster's extension in `posters/` by stem, for films with one.
  public static func html(films: [ReportFilm], posterExtensions: [String: String]) -> String {
    var page = head(title: "Films — leamoji", prefix: "", bodyClass: "index")
    let count = films.count
    page += """
      <header class="top"><h1>Films</h1>\
      <p class="sub">\(count) film\(count == 1 ? "" : "s") with their emoji timelines</p></header>
      <main>
      <div class="controls" id="controls" hidden>\
      <label>Find <input type="search" id="filter" placeholder="Title" autocomplete="off"></label>\
      <label>Sort <select id="sort"><option value="title">by title</option>\
      <option value="calm">least scary first</option></select></label>\
      <span id="shown" aria-live="polite"></span></div>
      <ul class="grid" id="films"></ul>
      <p class="empty" id="none" hidden>No film matches.</p>
      <noscript><p class="empty">The poster grid needs JavaScript. Each film has its own page \
      in the <code>films</code> folder.</p></noscript>
      </main>
      <footer>Made by <code>leamoji report</code>. Cues appear a few seconds before each scene.</footer>
      <script type="application/json" id="catalogue">[

      """
    page.reserveCapacity(page.utf8.count + films.count * 90)
    page += films.map { card($0, posterExtension: posterExtensions[$0.stem]) }
      .joined(separator: ",\n")
    page += "\n]</script>\n</body>\n</html>\n"
    return page
  }

  /// One film: `["stem","Title",scary scenes,duration or null,"poster extension","mood",
  /// level,current]`, the mood as each part's class letter and whole per cent of the timeline
  /// (at least 1 for a part that is there), e.g. `h46n20s34`; the heads-up level 0–5 (null:
  /// not analysed) and 1 when the timeline is the model in use's, 0 when it is not (or
  /// unknown), for the poster's badge.
  static func card(_ film: ReportFilm, posterExtension: String?) -> String {
    let duration = film.duration.map(WebText.number) ?? "null"
    let mood = film.moodParts.map { part in
      part.mood + String(max(1, Int((Double(part.share) / 10).rounded())))
    }.joined()
    return "[\(WebText.jsonString(film.stem)),\(WebText.jsonString(film.title)),"
      + "\(film.scaryScenes),\(duration),\"\(posterExtension ?? "")\",\"\(mood)\","
      + "\(film.headsUp.level.map(String.init) ?? "null"),"
      + "\(film.headsUp.model?.state == .current ? 1 : 0)]"
  }
}
