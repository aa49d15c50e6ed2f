// Golden tests of the help texts: `leamoji --help` and `leamoji <command> --help` for every
// command and subcommand are compared byte for byte with Fixtures/help/<leamoji-command>.txt.
//
// Help is rendered at a fixed width: ArgumentParser wraps to $COLUMNS when it is set (else to the
// width of the terminal on stdout, else 80), and these runs set COLUMNS=80 with stdout a pipe.
//
// When a help text changes on purpose, regenerate the fixtures and review the difference:
//
//   LEAMOJI_UPDATE_GOLDEN=1 swift test --skip-build --filter LeamojiCLITests.HelpGoldenTests
//   git diff Tests/LeamojiCLITests/Fixtures/help
//
// With LEAMOJI_UPDATE_GOLDEN=1 the tests rewrite the fixtures instead of comparing (and remove
// fixtures of commands that no longer exist) and then fail, so that a run with the variable left
// on never passes; run them again without it.

import Foundation
import LeamojiTestSupport
import Testing

/// A command whose help is tested, as the words after `leamoji` (none for the root), or after
/// `leamoji-lab` for the workshop's commands (whose goldens are LeamojiLabTests').
struct HelpCommand: Sendable, Hashable, CustomTestStringConvertible {
  let words: [String]
  /// `leamoji` or `leamoji-lab`.
  let tool: String

  init(_ words: String...) { self.init(words: words) }
  init(words: [String], tool: String = "leamoji") {
    self.words = words
    self.tool = tool
  }
  /// A `leamoji-lab` command.
  init(lab words: String...) { self.init(words: words, tool: "leamoji-lab") }

  /// `leamoji timeline`, `leamoji-lab scenes clip`
  var name: String { ([tool] + words).joined(separator: " ") }
  var testDescription: String { name + " --help" }

  /// Fixtures/help/leamoji-scenes-clip.txt
  var fixture: URL {
    HelpText.fixtures.appendingPathComponent((["leamoji"] + words).joined(separator: "-") + ".txt")
  }
}

enum HelpText {
  /// The width help is rendered at, in the goldens and in the example tests.
  static let columns = 80

  /// Every command and subcommand, the root first. `listedCommandsMatch` checks this against
  /// the SUBCOMMANDS sections of the help texts themselves, so a new command cannot be missed.
  static let commands: [HelpCommand] = [
    HelpCommand(), HelpCommand("analyze"), HelpCommand("play"), HelpCommand("timeline"),
    HelpCommand("list"), HelpCommand("export"), HelpCommand("merge"), HelpCommand("frames"),
    HelpCommand("train"), HelpCommand("evaluate"), HelpCommand("classify"),
    HelpCommand("model"), HelpCommand("label"), HelpCommand("review"), HelpCommand("report"),
  ]

  /// The workshop's commands whose examples run as leamoji's do: the ones that moved there
  /// from leamoji (the others' examples need a check's outputs).
  static let labExampleCommands: [HelpCommand] = [
    HelpCommand(lab: "train"), HelpCommand(lab: "scenes", "dataset"),
    HelpCommand(lab: "scenes", "clip"),
  ]

  /// The built binary of `tool`.
  static func binary(_ tool: String) -> String {
    tool == "leamoji-lab"
      ? Repository.leamojiLab : CLI.binary
  }

  static let fixtures = Repository.root.appendingPathComponent(
    "Tests/LeamojiCLITests/Fixtures/help")

  struct Rendered: Sendable {
    let status: Int32
    /// Standard output, exactly as written.
    let bytes: Data
    let stderr: String
    var text: String { String(decoding: bytes, as: UTF8.self) }
  }

  /// Runs `leamoji <arguments>` with COLUMNS fixed, stdout a pipe (so no terminal width is
  /// found) and stdin empty; returns stdout's exact bytes.
  static func render(_ arguments: [String], tool: String = "leamoji") throws -> Rendered {
    let run = try ProcessRunner.run(
      binary(tool), arguments, environment: ["COLUMNS": String(columns), "LINES": "25"])
    return Rendered(status: run.status, bytes: run.stdoutData, stderr: run.stderr)
  }

  /// `leamoji <command> --help`, run once per test run: the golden, listing, option and prose
  /// tests (and the example tests) each read every text, and it is the same text each time.
  static func help(_ command: HelpCommand) throws -> Rendered {
    try rendered.value(command) { try render(command.words + ["--help"], tool: command.tool) }
  }

  private static let rendered = OncePerRun<HelpCommand, Rendered>()

  /// The names listed under SUBCOMMANDS: in a help text.
  static func subcommands(in help: String) -> [String] {
    var names: [String] = []
    var inSection = false
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if line == "SUBCOMMANDS:" {
        inSection = true
      } else if inSection {
        if line.isEmpty { break }
        // "  analyze                 Analyse videos ..." — continuation lines are indented further.
        guard line.hasPrefix("  "), !line.hasPrefix("   ") else { continue }
        if let name = line.split(separator: " ").first { names.append(String(name)) }
      }
    }
    return names
  }

  /// Where two texts first differ, as a readable message.
  static func firstDifference(expected: String, actual: String) -> String {
    let want = expected.split(separator: "\n", omittingEmptySubsequences: false)
    let got = actual.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(want.count, got.count) {
      let wanted = index < want.count ? String(want[index]) : "(end of text)"
      let found = index < got.count ? String(got[index]) : "(end of text)"
      if wanted != found {
        return "line \(index + 1): expected «\(wanted)», got «\(found)»"
      }
    }
    return "the texts differ in their bytes (encoding or line endings)"
  }
}

@Suite("Golden help texts")
struct HelpGoldenTests {
  @Test("--help is exactly the committed golden file", arguments: HelpText.commands)
  func matchesGolden(_ command: HelpCommand) throws {
    let rendered = try HelpText.help(command)
    try #require(rendered.status == 0, "\(command.testDescription) exits 0: \(rendered.stderr)")
    #expect(rendered.stderr.isEmpty, "\(rendered.stderr)")
    if Repository.updatingGoldens {
      try FileManager.default.createDirectory(
        at: HelpText.fixtures, withIntermediateDirectories: true)
      try rendered.bytes.write(to: command.fixture, options: .atomic)
      Issue.record(
        """
        LEAMOJI_UPDATE_GOLDEN is set: rewrote \(command.fixture.lastPathComponent) instead of \
        comparing. Review `git diff`, then run the tests again without the variable.
        """)
      return
    }
    guard let golden = try? Data(contentsOf: command.fixture) else {
      Issue.record(
        """
        No golden file \(command.fixture.path) for `\(command.testDescription)`; make it with \
        LEAMOJI_UPDATE_GOLDEN=1 swift test --skip-build --filter LeamojiCLITests.HelpGoldenTests
        """)
      return
    }
    if rendered.bytes != golden {
      Issue.record(
        """
        `\(command.testDescription)` differs from \(command.fixture.lastPathComponent): \
        \(HelpText.firstDifference(expected: String(decoding: golden, as: UTF8.self), actual: rendered.text)).
        If the change is intended, regenerate the goldens with LEAMOJI_UPDATE_GOLDEN=1 (see \
        HelpGoldenTests.swift).
        """)
    }
    // `leamoji help <command>` is the same text.
    let viaHelp = try HelpText.render(["help"] + command.words)
    #expect(viaHelp.status == 0 && viaHelp.bytes == rendered.bytes, "leamoji help \(command.words)")
  }

  @Test("the tested commands are exactly those the help texts list, each with one golden file")
  func listedCommandsMatch() throws {
    var found: [HelpCommand] = []
    var queue = [HelpCommand()]
    while !queue.isEmpty {
      let command = queue.removeFirst()
      found.append(command)
      let rendered = try HelpText.help(command)
      try #require(rendered.status == 0, "\(command.testDescription): \(rendered.stderr)")
      for name in HelpText.subcommands(in: rendered.text) {
        queue.append(HelpCommand(words: command.words + [name]))
      }
    }
    #expect(Set(found) == Set(HelpText.commands), "commands listed in the help texts: \(found)")
    #expect(found.count >= 11)

    let expectedFiles = Set(HelpText.commands.map(\.fixture.lastPathComponent))
    let files = Set(
      (try? FileManager.default.contentsOfDirectory(atPath: HelpText.fixtures.path)) ?? [])
    let stale = files.subtracting(expectedFiles)
    if Repository.updatingGoldens {
      for name in stale {
        try FileManager.default.removeItem(at: HelpText.fixtures.appendingPathComponent(name))
      }
      if !stale.isEmpty { Issue.record("LEAMOJI_UPDATE_GOLDEN is set: removed \(stale.sorted())") }
    } else {
      #expect(stale.isEmpty, "golden files of no command: \(stale.sorted())")
    }
  }

  /// ArgumentParser's own `--version` (from `CommandConfiguration.version`) was listed in every
  /// command's help, so `train --help` showed `--version` twice: its model-card option and
  /// "Show the version.", which `train` never honours.
  @Test("each option is listed once in every help text", arguments: HelpText.commands)
  func optionsListedOnce(_ command: HelpCommand) throws {
    let rendered = try HelpText.help(command)
    var seen: Set<Substring> = []
    for line in rendered.text.split(separator: "\n") where line.hasPrefix("  -") {
      for name in line.split(separator: " ").prefix(while: { $0.hasPrefix("-") }) {
        let option = name.hasSuffix(",") ? name.dropLast() : name
        #expect(seen.insert(option).inserted, "`\(command.testDescription)` lists \(option) twice")
      }
    }
  }

  @Test("leamoji --version prints the release and FFmpeg's; train --version is the card's option")
  func versionFlag() throws {
    let version = try HelpText.render(["--version"])
    // The first line alone is the release (scripts take it with `head -1`).
    let pattern =
      #"^\d+\.\d+\.\d+\nFFmpeg \S+ \(libavformat \d+\.\d+\.\d+.*, libavcodec \d+\.\d+\.\d+.*, "#
      + #"libswscale \d+\.\d+\.\d+.*, libavutil \d+\.\d+\.\d+.*\)\n$"#
    #expect(
      version.status == 0 && version.text.range(of: pattern, options: .regularExpression) != nil,
      "\(version.text)")
    let missing = "/nonexistent-leamoji-training-folder"
    let noValue = try HelpText.render(["train", missing, "--version"])
    #expect(
      noValue.status == 64 && noValue.stderr.contains("--version <version>"), "\(noValue.stderr)")
    let card = try HelpText.render(["train", missing, "--version", "1.0"])
    #expect(
      card.status == 66 && card.stderr.contains("\(missing): no such folder"), "\(card.stderr)")
  }

  @Test("COLUMNS decides the width, so the goldens do not depend on the terminal")
  func widthFollowsColumns() throws {
    let narrow = try HelpText.render(["train", "--help"])
    let wide = try ProcessRunner.run(
      "/usr/bin/env", ["COLUMNS=140", CLI.binary, "train", "--help"])
    #expect(wide.status == 0 && wide.stdout != narrow.text, "a wider COLUMNS re-wraps the help")
  }

  /// Paragraphs are wrapped by ArgumentParser to the width, not by line breaks in the source
  /// (which, at a narrower width, leave a short line in the middle of a paragraph). ArgumentParser
  /// fills a line up to one character short of the width, so a break is ragged when the next word
  /// would have fitted within that.
  @Test("the prose of every help text fills its lines at 80 columns", arguments: HelpText.commands)
  func proseIsNotRagged(_ command: HelpCommand) throws {
    let rendered = try HelpText.help(command)
    let lines = rendered.text.split(separator: "\n", omittingEmptySubsequences: false)
    let prose = lines.prefix { !$0.hasPrefix("Example") && !$0.hasPrefix("USAGE:") }
    for (line, next) in zip(prose, prose.dropFirst()) where !line.isEmpty && !next.isEmpty {
      let firstWord = next.split(separator: " ").first ?? ""
      #expect(
        line.count <= HelpText.columns
          && line.count + 1 + firstWord.count >= HelpText.columns,
        "`\(command.testDescription)`: «\(line)» is broken before «\(firstWord)», which fits")
    }
  }
}
