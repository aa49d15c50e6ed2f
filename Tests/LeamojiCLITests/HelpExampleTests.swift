import Foundation
import Testing

/// Every example shown in `--help` and in the sh blocks of README.md and docs/*.md runs and
/// exits 0.
///
/// Each help text's examples (and each README block's) run in order in a fresh folder holding
/// copies of the bundled files, with `leamoji` the built binary (a shell function calling it by
/// its absolute path, so the shipped model is found beside it as in a repository build) and
/// `$LEAMOJI_MODEL` unset. Files the examples name but the repository does not ship (`film.mkv`,
/// "Training Data", `my-model.safetensors`, …) come from `Placeholder.table` in
/// ExampleRunner.swift, the one place that says what stands in for each and why.
///
/// `play` examples run in a real terminal (tmux, as PlayCommandTests does) rather than being
/// checked for the "needs a terminal" exit 64: the example is meant for a terminal, and only
/// there does it show whether it actually plays (picture and running clock on screen, then q
/// quits with status 0), including `play` analysing a video that is not in the timeline yet.
@Suite("Examples in --help, README.md and docs/")
struct HelpExampleTests {
  static let readme = ShippedAssetsTests.repository.appendingPathComponent("README.md")

  /// README.md's example blocks, read when the tests are listed (empty if it cannot be read,
  /// which `readmeHasExamples` reports).
  static let readmeBlocks: [ExampleSequence] = {
    guard let text = try? String(contentsOf: readme, encoding: .utf8) else { return [] }
    return ExampleExtraction.fromMarkdown(text, file: "README.md")
  }()

  /// The example blocks of the manuals in docs/ (those with sh blocks of leamoji lines).
  static let docsBlocks: [ExampleSequence] = {
    let docs = ShippedAssetsTests.repository.appendingPathComponent("docs")
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

  @Test("every example in --help runs and exits 0", arguments: HelpText.commands)
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

/// The pieces of the example runner, on small inputs, so that each can be seen to fail.
@Suite("Example extraction and placeholders")
struct ExampleExtractionTests {
  @Test("examples are read from a help text, continuation lines included")
  func readsHelpExamples() throws {
    let help = """
      OVERVIEW: Something.

      Prose.

      Examples:
        leamoji analyze a.mp4
        leamoji train "Training Data" \\
          --output m.safetensors

      USAGE: leamoji x
      """
    let examples = try ExampleExtraction.fromHelp(help, origin: "test")
    #expect(
      examples.map(\.text) == [
        "  leamoji analyze a.mp4",
        "  leamoji train \"Training Data\" \\\n    --output m.safetensors",
      ])
    #expect(examples[1].command == ["train"])
  }

  @Test("an example wrapped by ArgumentParser is an error naming the line")
  func wrappedExampleFails() {
    let help = """
      Examples:
        leamoji train "Training Data" --test "Testing Data" --output
      my-model.safetensors
      """
    #expect(throws: ExampleExtraction.Failure.self) {
      try ExampleExtraction.fromHelp(help, origin: "leamoji train --help")
    }
  }

  @Test("README examples: sh blocks only, leamoji lines only, one sequence per block")
  func readsMarkdownExamples() {
    let markdown = """
      ```sh
      make demo   # builds
      ```

      ```sh
      leamoji frames movie.mp4 --out frames/          # one PNG per second
      # sort them
      $ leamoji train my-data \\
          --output m.safetensors
      ```

      ```
      leamoji not-shell
      ```
      """
    let blocks = ExampleExtraction.fromMarkdown(markdown, file: "R.md")
    #expect(blocks.count == 1)
    #expect(blocks.first?.name == "R.md block at line 5")
    #expect(
      blocks.first?.examples.map(\.text) == [
        "leamoji frames movie.mp4 --out frames/          # one PNG per second",
        "leamoji train my-data \\\n--output m.safetensors",
      ])
    #expect(blocks.first?.examples.map(\.origin) == ["R.md line 6", "R.md line 8"])
  }

  @Test("shell words: quotes, globs, comments, pipes")
  func shellWords() {
    let words = ShellWords(
      #"leamoji train "Training Data" --emoji angry=😡 movies/*.mp4 'a b'\ c # note | x"#
    ).words
    #expect(
      words.map(\.text) == [
        "leamoji", "train", "Training Data", "--emoji", "angry=😡",
        "movies/*.mp4", "a b c",
      ])
    #expect(words.map(\.glob) == [false, false, false, false, false, true, false])
    #expect(ShellWords("leamoji scenes clip --x 1 \\\n --y | ffmpeg -i -").words.count == 6)
  }

  @Test("inputs: positionals and input options, not outputs; timeline's default data file")
  func inputs() {
    let valueOptions: Set = ["--test", "--output", "--data", "--model", "--epochs"]
    func inputs(_ line: String) -> [String] {
      let example = Example(text: line, origin: "test")
      return ExampleInputs.inputs(
        of: ShellWords(line).words, command: example.command, valueOptions: valueOptions
      ).map(\.text)
    }
    #expect(
      inputs(#"leamoji train "Training Data" --test "Testing Data" --output m.safetensors"#) == [
        "Training Data", "Testing Data",
      ])
    #expect(
      inputs("leamoji timeline meadow-storm --data site/MovieData.json") == [
        "site/MovieData.json"
      ])
    #expect(
      inputs("leamoji timeline SampleVideos/a.mp4") == ["SampleVideos/a.mp4", "MovieData.json"])
    #expect(
      inputs("leamoji classify frames/*.png --json --model=m.safetensors") == [
        "frames/*.png", "m.safetensors",
      ])
    #expect(inputs("leamoji scenes dataset --out .").isEmpty)
  }

  @Test("a name that is neither there nor a placeholder is reported with its line")
  func unknownPlaceholderIsReported() throws {
    var runner = try ExampleRunner()
    defer { runner.remove() }
    let missing = try runner.provide(ShellWords.Word(text: "holiday-video.webm"))
    #expect(missing?.contains("Placeholder.table") == true, "\(missing ?? "nil")")
    #expect(try runner.provide(ShellWords.Word(text: "SampleVideos/night-walk.mp4")) == nil)
    #expect(try runner.provide(ShellWords.Word(text: "my-model.safetensors")) == nil)
    #expect(FileManager.default.fileExists(atPath: runner.work.path + "/my-model.safetensors"))
    let unmatched = try runner.provide(ShellWords.Word(text: "*.webm", glob: true))
    #expect(unmatched != nil)
    // An example that uses it is not run; the issue names its line and the table.
    try withKnownIssue {
      try runner.run(
        Example(text: "leamoji analyze holiday-video.webm", origin: "README.md line 7"))
    } matching: { issue in
      let text = issue.comments.map(\.rawValue).joined()
      return text.contains("README.md line 7") && text.contains("holiday-video.webm")
        && text.contains("Placeholder.table")
    }
    #expect(!FileManager.default.fileExists(atPath: runner.work.path + "/MovieData.json"))
  }

  @Test("every placeholder can be made")
  func placeholdersAreMade() throws {
    let runner = try ExampleRunner()
    defer { runner.remove() }
    for placeholder in Placeholder.table {
      for name in placeholder.names {
        #expect(try runner.provide(ShellWords.Word(text: name)) == nil, "\(name)")
        #expect(
          FileManager.default.fileExists(atPath: runner.work.appendingPathComponent(name).path))
      }
    }
    let training = runner.work.appendingPathComponent("Training Data")
    for label in ["Happy", "Neutral", "Scary"] {
      let files = try FileManager.default.contentsOfDirectory(
        atPath: training.appendingPathComponent(label).path)
      #expect(files.count == 5, "\(label): \(files)")
    }
  }
}
