import ArgumentParser
import FoundationEssentials
import LeamojiCommandLine
import LeamojiTimeline

/// `leamoji merge`: per-film fragments (from several machines) into one MovieData.json.
struct Merge: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Merge MovieData.json fragments into one timeline file.",
    discussion: """
      Each fragment is a file analyze --output wrote (one or a few films each, perhaps on other \
      machines). Its entries replace the entries with the same id in --output by the same \
      rules as analyze: a title or description already there (perhaps edited) is kept, as are \
      a poster leamoji did not name and keys leamoji does not write; all other entries stay as \
      they were. Merging is idempotent and the order of the fragments does not matter; two \
      fragments with different entries for one id are an error and nothing is written. \
      Each entry's poster and <id>.vtt / <id>.srt beside its fragment are copied beside \
      --output.

      Examples:
        leamoji merge parts/*.part.json --output MovieData.json
        leamoji merge a.json b.json --output site/MovieData.json --json
      """
  )

  @Argument(help: "The fragment files.", completion: .file(extensions: ["json"]))
  var fragments: [String]

  @Option(help: "The timeline file to merge into (created when missing).")
  var output = MovieData.defaultFileName

  @Flag(help: "Print the result as one line of JSON.")
  var json = false

  func validate() throws {
    if fragments.isEmpty { throw ValidationError("give at least one fragment file") }
  }

  func run() throws {
    let report: FragmentMergeReport
    try createFolder(of: output)
    do {
      report = try MovieStore(path: output).merge(fragments: fragments)
    } catch {
      throw CommandFailure(error)
    }
    if json {
      Console.printJSON(jsonText(report))
    } else {
      let copies =
        report.copied == 0
        ? "" : "; \(report.copied) poster and subtitle file\(report.copied == 1 ? "" : "s") copied"
      Console.print(
        "\(output): \(report.added.count) added, \(report.replaced.count) replaced "
          + "from \(report.fragments) fragment\(report.fragments == 1 ? "" : "s")\(copies)")
    }
  }
}
