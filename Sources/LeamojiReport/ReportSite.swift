import FoundationEssentials
import LeamojiCore
import LeamojiTimeline

#if canImport(Glibc)
  import Glibc
#endif

/// `leamoji report`'s work: the catalogue of a `MovieData.json` as a static web site.
///
/// The site: `index.html` (poster grid), `films/<stem>.html` (one page per film, with its
/// cues as `films/<stem>.vtt`), `leamoji.css`, `leamoji.js`, `leamoji.svg` (the icon), `posters/`,
/// `thumbs/<stem>/`
/// (a JPEG at each scene start) and, with `copyVideos`, `videos/`. Every file is written whole
/// (`DurableFile`); files whose content or source did not change since the last report are
/// not written again, and thumbnails are made only for videos that changed.
public enum ReportSite {
  /// Makes the JPEG thumbnails of `video` at `seconds` (in order), `width` pixels wide: the
  /// frames on screen at those times, as the sampler defines them. Given by the caller, so
  /// that this module never touches FFmpeg.
  public typealias StillMaker = (_ video: String, _ seconds: [Double], _ width: Int) throws ->
    [[UInt8]]

  /// What to make.
  public struct Options: Sendable {
    /// The catalogue.
    public var data: String
    /// The site folder (made if missing; must be empty or hold an earlier report).
    public var out: String
    /// Where the videos are (files named by id, as `analyze` names them); default: the
    /// catalogue's folder.
    public var videos: String?
    /// Copy the videos into the site instead of linking to them.
    public var copyVideos = false
    /// Width of the scene thumbnails in pixels.
    public var thumbnailWidth = 160
    /// The model in use, which each film's heads-up compares its timeline's model with; nil
    /// when none was found (the pages then say the model was not checked).
    public var currentModel: ModelIdentity? = nil

    /// The site of the catalogue `data` in the folder `out`.
    public init(data: String, out: String, videos: String? = nil, copyVideos: Bool = false) {
      self.data = data
      self.out = out
      self.videos = videos
      self.copyVideos = copyVideos
    }
  }

  /// What a run did.
  public struct Summary: Sendable, Equatable {
    /// Films in the catalogue (each entry, entries sharing an id each counted).
    public var films = 0
    /// Files written, and files left as they were because nothing changed.
    public var written = 0
    public var unchanged = 0
    /// Thumbnails made in this run.
    public var thumbnails = 0
    /// Films with a video found.
    public var videos = 0
    /// Files of an earlier report that no film needs now, removed.
    public var removed = 0
    /// Problems that did not stop the report (duplicated ids, videos that cannot be decoded).
    public var warnings: [String] = []
  }

  /// Makes (or brings up to date) the site described by `options`.
  /// - Throws: `ReportError` naming the file: no catalogue (`noInput`), a catalogue that
  ///   cannot be read (`badInput`), an output folder that cannot be written or is not empty and
  ///   not a report (`cannotWrite`). Nothing in the site is half-written in any case.
  public static func build(_ options: Options, stills: StillMaker) throws(ReportError) -> Summary {
    let entries = try readCatalogue(options.data)
    try checkSiteFolder(options.out)
    var site = SiteWriter(root: options.out, previous: ReportCache.read(site: options.out))
    var summary = Summary()
    for (id, positions) in MovieData.duplicatedIDs(entries.map(\.movie.id)) {
      let numbers = positions.map(String.init)
      summary.warnings.append(
        "\(options.data): id '\(id)' is in entries \(numbers.dropLast().joined(separator: ", ")) "
          + "and \(numbers.last!) (each has a page of its own)")
    }
    let films = ReportFilm.films(of: entries, current: options.currentModel)
    summary.films = films.count
    let dataFolder = folder(of: options.data)
    let videos = SiteFiles.videos(in: options.videos ?? dataFolder)
    let filmsFolder = SiteFiles.absolute(PathText.appending("films", to: options.out))
    var posterExtensions: [String: String] = [:]
    for film in films {
      var links = FilmPage.Links()
      if let (source, ext) = posterSource(film, dataFolder: dataFolder) {
        let target = "posters/\(film.stem).\(ext)"
        try site.copy(source, to: target)
        posterExtensions[film.stem] = ext
        links.poster = WebText.relativeURL(["..", "posters", film.stem + "." + ext])
      }
      if let video = videos[film.id] {
        summary.videos += 1
        links.videoName = PathText.lastComponent(video)
        if options.copyVideos {
          let ext = PathText.pathExtension(video).lowercased()
          try site.copy(video, to: "videos/\(film.stem).\(ext)")
          links.video = WebText.relativeURL(["..", "videos", film.stem + "." + ext])
        } else {
          let steps = SiteFiles.relativeSteps(
            from: filmsFolder, to: SiteFiles.absolute(video))
          links.video = WebText.relativeURL(steps)
        }
        let vtt = Subtitles.webVTT(markers: film.entry.movie.markers, duration: film.timelineEnd)
        try site.write(Array(vtt.utf8), to: "films/\(film.stem).vtt")
        links.cues = WebText.relativeURL([film.stem + ".vtt"])
        links.thumbnails = try thumbnails(
          film, video: video, width: options.thumbnailWidth, site: &site, stills: stills,
          summary: &summary)
      }
      let page = FilmPage.html(film: film, links: links)
      try site.write(Array(page.utf8), to: "films/\(film.stem).html")
    }
    let index = IndexPage.html(films: films, posterExtensions: posterExtensions)
    try site.write(Array(index.utf8), to: "index.html")
    try site.write(Array(SiteStyle.text.utf8), to: "leamoji.css")
    try site.write(Array(SiteStyle.icon.utf8), to: "leamoji.svg")
    try site.write(Array(SiteScript.text.utf8), to: "leamoji.js")
    summary.removed = try site.finish()
    summary.written = site.written
    summary.unchanged = site.unchanged
    return summary
  }

  private static func readCatalogue(_ path: String) throws(ReportError) -> [CatalogueEntry] {
    let store = MovieStore(path: path)
    guard store.exists else { throw ReportError("\(path): no such file", kind: .noInput) }
    do {
      return try store.readCatalogue()
    } catch {
      throw ReportError(error.description, kind: .badInput)
    }
  }

  /// The site folder must be new, empty, or hold an earlier report: a report never overwrites
  /// files it did not write.
  private static func checkSiteFolder(_ out: String) throws(ReportError) {
    var isFolder = false
    guard FileManager.default.fileExists(atPath: out, isDirectory: &isFolder) else {
      return try SiteFiles.makeFolder(out)
    }
    guard isFolder else {
      throw ReportError("\(out): exists and is not a folder", kind: .cannotWrite)
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []
    if !names.isEmpty && !names.contains(ReportCache.fileName) {
      throw ReportError(
        "\(out): the folder is not empty and holds no earlier report (\(ReportCache.fileName)); "
          + "give a new or empty folder", kind: .cannotWrite)
    }
    guard access(out, W_OK) == 0 else {
      throw ReportError(
        "\(out): cannot write (\(String(cString: strerror(errno))))", kind: .cannotWrite)
    }
  }

  private static func folder(of file: String) -> String {
    let folder = PathText.deletingLastComponent(file)
    return folder.isEmpty ? "." : folder
  }

  /// The poster file of a film and the extension it gets in the site: the entry's `poster`
  /// beside the catalogue, when it is a plain file name of an image format (a name without an
  /// extension, as the original app's asset names are, is tried as `.jpg` and `.png`).
  static func posterSource(_ film: ReportFilm, dataFolder: String) -> (String, String)? {
    guard let poster = film.entry.movie.poster, !poster.isEmpty, !poster.contains("/"),
      poster != ".", poster != ".."
    else { return nil }
    let ext = PathText.pathExtension(poster).lowercased()
    let candidates =
      SiteFiles.posterExtensions.contains(ext) ? [poster] : [poster + ".jpg", poster + ".png"]
    for name in candidates {
      let path = PathText.appending(name, to: dataFolder)
      if SiteFiles.identity(of: path) != nil {
        let found = PathText.pathExtension(name).lowercased()
        return (path, found == "jpeg" ? "jpg" : found)
      }
    }
    return nil
  }

  /// The thumbnails of `film`'s scenes from `video`: made for the scenes whose thumbnail is
  /// missing or was made from another version of the video; a video that cannot be decoded
  /// gives a warning and no thumbnails.
  private static func thumbnails(
    _ film: ReportFilm, video: String, width: Int, site: inout SiteWriter, stills: StillMaker,
    summary: inout Summary
  ) throws(ReportError) -> [Int: String] {
    guard let identity = SiteFiles.identity(of: video) else { return [:] }
    let source = "\(identity) width \(width)"
    var links: [Int: String] = [:]
    var missing: [(index: Int, path: String, second: Double)] = []
    for (index, scene) in film.scenes.enumerated() where scene.start < film.timelineEnd {
      let name = WebText.number(scene.start) + ".jpg"
      let path = "thumbs/\(film.stem)/\(name)"
      links[index] = WebText.relativeURL(["..", "thumbs", film.stem, name])
      if !site.keep(path, source: source) {
        missing.append((index, path, scene.start))
      }
    }
    guard !missing.isEmpty else { return links }
    let images: [[UInt8]]
    do {
      images = try stills(video, missing.map(\.second), width)
    } catch {
      summary.warnings.append("\(video): no thumbnails (\(error))")
      for item in missing { links[item.index] = nil }
      return links
    }
    for (item, image) in zip(missing, images) {
      try site.write(image, to: item.path, source: source)
      summary.thumbnails += 1
    }
    for item in missing.dropFirst(images.count) { links[item.index] = nil }
    return links
  }
}
