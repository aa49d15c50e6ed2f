import ArgumentParser
import LeamojiAnalysis
import LeamojiCommandLine
import LeamojiReport
import LeamojiTimeline

/// `leamoji report`: the catalogue as a static web site (poster grid, film pages, player).
struct Report: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Write the catalogue as a static web site: posters, film pages and a player.",
    discussion: """
      Writes index.html (a grid of posters with each film's mood bar and number of scary \
      scenes, sorting and a filter), one page per film under films/ (poster, description, a \
      clickable mood strip, the scenes with a thumbnail at each start, and the video with the \
      emoji cues shown a few seconds ahead, as `leamoji play` shows them), leamoji.css, \
      leamoji.js and the pictures. The site works opened from disk and from any static web \
      server, with no network and no third-party code.

      Each film's page has a heads-up box (the scary scenes, the scary time, the first and the \
      longest scene, the strongest moment and a level from 0 to 5, docs/heads-up.md) and each \
      poster a badge with the level; a timeline made by another model than the one in use \
      (--model) says so.

      Videos are found by id in --videos (default: the timeline file's folder) and linked \
      relative to the site, or copied into it with --copy-videos. Running report again on the \
      same folder rewrites only what changed: thumbnails are made again only for videos that \
      changed. The folder must be new, empty or an earlier report.

      Examples:
        leamoji report --videos SampleVideos --out site
        leamoji report --data MovieData.json --videos SampleVideos \\
          --out site --copy-videos
      """
  )

  @Option(help: "The timeline file.", completion: .file(extensions: ["json"]))
  var data = MovieData.defaultFileName

  @Option(help: "The folder to write the site into.", completion: .directory)
  var out: String

  @Option(
    help: "The folder holding the videos (default: the timeline file's folder).",
    completion: .directory)
  var videos: String?

  @Flag(help: "Copy the videos into the site (videos/) instead of linking to them.")
  var copyVideos = false

  @OptionGroup var modelOptions: ModelOptions

  func run() throws {
    var options = ReportSite.Options(
      data: data, out: out, videos: videos, copyVideos: copyVideos)
    options.currentModel = try modelOptions.identity()
    let summary: ReportSite.Summary
    do {
      summary = try ReportSite.build(options) { video, seconds, width in
        try SceneStills.jpegs(video: video, seconds: seconds, width: width)
      }
    } catch {
      throw CommandFailure(error)
    }
    for warning in summary.warnings { Console.warning(warning) }
    Console.print(
      "\(out): \(summary.films) film\(summary.films == 1 ? "" : "s") "
        + "(\(summary.videos) with video), \(summary.written) files written, "
        + "\(summary.unchanged) unchanged, \(summary.thumbnails) thumbnails made, "
        + "\(summary.removed) removed")
  }
}
