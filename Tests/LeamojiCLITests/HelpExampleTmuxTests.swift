import Foundation
import LeamojiTestSupport
import Testing

/// Every example shown in `--help` and in the sh blocks of README.md and docs/*.md runs and
/// exits 0.
///
/// Each help text's examples (and each README block's) run in order in a fresh folder holding
/// copies of the bundled files, with `leamoji` the built binary (a shell function calling it by
/// its absolute path, so the shipped model is found beside it as in a repository build) and
/// `$LEAMOJI_MODEL` unset. Files the examples name but the repository does not ship (`film.mkv`,
/// "Training Data", `my-model.safetensors`, …) come from `Placeholder.table` in
/// ExamplePlaceholders.swift, the one place that says what stands in for each and why.
///
/// `play` examples run in a real terminal (tmux, as PlayTmuxTests does) rather than being
/// checked for the "needs a terminal" exit 64: the example is meant for a terminal, and only
/// there does it show whether it actually plays (picture and running clock on screen, then q
/// quits with status 0), including `play` analysing a video that is not in the timeline yet.
@Suite("Examples in --help, README.md and docs/")
struct HelpExampleTmuxTests {
  static let readme = Repository.root.appendingPathComponent("README.md")

  /// README.md's example blocks, read when the tests are listed (empty if it cannot be read,
  /// which `readmeHasExamples` reports).
  static let readmeBlocks: [ExampleSequence] = {
    guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
    return ExampleExtraction.fromMarkdown(text, file: "README.md")
  }()

  /// The example blocks of the manuals in docs/ (those with sh blocks of leamoji lines).
  static let docsBlocks: [ExampleSequence] = {
    let docs = Repository.root.appendingPathComponent("docs")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? []
    return names.filter { $0.hasSuffix(".md") }.sorted().flatMap { name in
      (try? String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)).map {
        ExampleExtraction.fromMarkdown($0, file: "docs/\(name)")
      } ?? []
    }
  }()

  @Test("every example in docs/*.md's sh blocks runs and exits 0", arguments: docsBlocks)
  func docsExamplesRun(_ block: ExampleSequence) throws {
    var runner = try ExampleRunner()
    defer { runner.remove() }
    try runner.run(block)
  }

  @Test(
    "every example in --help runs and exits 0",
    arguments: HelpText.commands + HelpText.labExampleCommands)
  func helpExamplesRun(_ command: HelpCommand) throws {
    let help = try HelpText.help(command)
    try #require(help.status == 0, "\(help.stderr)")
    let examples = try ExampleExtraction.fromHelp(help.text, origin: command.testDescription)
    let isGroup = !HelpText.subcommands(in: help.text).isEmpty
    if examples.isEmpty {
      #expect(isGroup && !command.words.isEmpty, "`\(command.testDescription)` shows no example")
      return
    }
    var runner = try ExampleRunner()
    defer { runner.remove() }
    try runner.run(ExampleSequence(name: command.testDescription, examples: examples))
  }

  @Test("every example in README.md's sh blocks runs and exits 0", arguments: readmeBlocks)
  func readmeExamplesRun(_ block: ExampleSequence) throws {
    var runner = try ExampleRunner()
    defer { runner.remove() }
    try runner.run(block)
  }

  @Test("README.md has leamoji examples in sh blocks, and the current file is the one tested")
  func readmeHasExamples() throws {
    let text = try String(contentsOf: Self.readme, encoding: .utf8)
    let blocks = ExampleExtraction.fromMarkdown(text, file: "README.md")
    #expect(!blocks.isEmpty, "no ```sh block with a line starting with `leamoji ` in README.md")
    #expect(
      blocks.map { $0.examples.map(\.text) } == Self.readmeBlocks.map { $0.examples.map(\.text) })
  }
}
