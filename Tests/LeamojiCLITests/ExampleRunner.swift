import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// One example command as documented: its text (continuation lines kept, with their trailing
/// backslash), and where it is shown.
struct Example: Sendable {
  let text: String
  /// `leamoji train --help` or `README.md line 42`.
  let origin: String

  /// The first line, for messages.
  var summary: String {
    let first = text.split(separator: "\n").first.map(String.init) ?? text
    return first.trimmingCharacters(in: .whitespaces) + (text.contains("\n") ? " …" : "")
  }

  /// The subcommand words (`train`, `scenes clip`).
  var command: [String] {
    let words = ShellWords(text).words.map(\.text)
    guard words.first == "leamoji", words.count > 1 else { return [] }
    return words[1] == "scenes" && words.count > 2 ? Array(words[1...2]) : [words[1]]
  }

  /// Whether it needs a terminal (the player).
  var needsTerminal: Bool { ["play", "label", "review"].contains(command.first ?? "") }
}

/// Examples run one after the other in one folder, as a reader would type them: later ones may
/// use what earlier ones wrote (`timeline` after `analyze`).
struct ExampleSequence: Sendable, CustomTestStringConvertible {
  let name: String
  let examples: [Example]
  var testDescription: String { name }
}

// MARK: - Finding the examples

enum ExampleExtraction {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// The examples of a help text: the lines under "Examples:" or "Example:" up to the next blank
  /// line. Each starts with `leamoji `; a line ending in a backslash goes on on the next line.
  /// Any other line in the block is an error (an example ArgumentParser wrapped, say).
  static func fromHelp(_ help: String, origin: String) throws -> [Example] {
    var examples: [Example] = []
    var current: [Substring] = []
    var inBlock = false
    func finish() {
      if !current.isEmpty {
        examples.append(Example(text: current.joined(separator: "\n"), origin: origin))
      }
      current = []
    }
    for (index, line) in help.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if !inBlock {
        inBlock = trimmed == "Examples:" || trimmed == "Example:"
        continue
      }
      if trimmed.isEmpty {
        finish()
        inBlock = false
      } else if current.last?.hasSuffix("\\") == true {
        current.append(line)
      } else if trimmed.hasPrefix("leamoji ") {
        finish()
        current = [line]
      } else {
        throw Failure(
          description: """
            \(origin), line \(index + 1): «\(line)» is in an Examples block but neither starts \
            with `leamoji ` nor continues a line ending in a backslash (an example wrapped at \
            \(HelpText.columns) columns?)
            """)
      }
    }
    finish()
    return examples
  }

  /// The examples of a Markdown file: in each fenced block marked sh (or bash, shell, console),
  /// the lines that start with `leamoji ` (after an optional `$ ` prompt), continued while a line
  /// ends in a backslash. Every other line (`make demo`, comments) is left out. One sequence per
  /// block that has examples, named after the file and the block's first line.
  static func fromMarkdown(_ markdown: String, file: String) -> [ExampleSequence] {
    var sequences: [ExampleSequence] = []
    var examples: [Example] = []
    var current: [String] = []
    var currentLine = 0
    var fence: (shell: Bool, line: Int)? = nil
    func finishExample() {
      if !current.isEmpty {
        examples.append(
          Example(text: current.joined(separator: "\n"), origin: "\(file) line \(currentLine)"))
      }
      current = []
    }
    for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        if let open = fence {
          finishExample()
          if !examples.isEmpty {
            sequences.append(
              ExampleSequence(name: "\(file) block at line \(open.line)", examples: examples))
          }
          examples = []
          fence = nil
        } else {
          let info = trimmed.dropFirst(3).split(separator: " ").first.map(String.init) ?? ""
          fence = (["sh", "bash", "shell", "console"].contains(info.lowercased()), index + 1)
        }
        continue
      }
      guard fence?.shell == true else { continue }
      var content = trimmed
      if content.hasPrefix("$ ") { content.removeFirst(2) }
      if current.last?.hasSuffix("\\") == true {
        current.append(content)
      } else {
        finishExample()
        if content.hasPrefix("leamoji ") {
          current = [content]
          currentLine = index + 1
        }
      }
    }
    finishExample()
    return sequences
  }
}

// MARK: - Reading a command line

/// The words of the first simple command of a shell line, as bash splits them: quotes removed,
/// backslash-newline joined, stopping at a pipe, `;`, `&`, a redirection or a comment. Words with
/// an unquoted `*`, `?` or `[` are globs.
struct ShellWords {
  struct Word: Equatable {
    var text = ""
    var glob = false
  }

  private(set) var words: [Word] = []

  init(_ line: String) {
    var word: Word? = nil
    var quote: Character? = nil
    var characters = Array(line)[...]
    func end() {
      if let finished = word { words.append(finished) }
      word = nil
    }
    while let character = characters.popFirst() {
      if quote == "'" {
        if character == "'" { quote = nil } else { word!.text.append(character) }
        continue
      }
      if character == "\\" {
        guard let next = characters.popFirst() else { break }
        if next == "\n" { continue }
        if quote == "\"" && !"\"\\$`".contains(next) { word!.text.append("\\") }
        if word == nil { word = Word() }
        word!.text.append(next)
        continue
      }
      if quote == "\"" {
        if character == "\"" { quote = nil } else { word!.text.append(character) }
        continue
      }
      switch character {
      case "'", "\"":
        if word == nil { word = Word() }
        quote = character
      case " ", "\t", "\n":
        end()
      case "#" where word == nil:
        while let skipped = characters.popFirst(), skipped != "\n" {}
      case "|", ";", "&", ">", "<", "(", ")":
        end()
        return
      default:
        if word == nil { word = Word() }
        if "*?[".contains(character) { word!.glob = true }
        word!.text.append(character)
      }
    }
    end()
  }
}

/// Which words of a `leamoji` command name files that must be there before it runs, so that a
/// missing one can be made from the placeholder table (or reported) instead of failing as exit 66.
enum ExampleInputs {
  struct Rule {
    /// Whether positional arguments are input files; `.fileOrID` also accepts an entry id.
    enum Positionals { case none, files, fileOrID }
    var positionals: Positionals
    var options: Set<String> = []
    /// Inputs used when their option is not given (`timeline` reads ./MovieData.json).
    var defaults: [String: String] = [:]
  }

  static let rules: [String: Rule] = [
    "analyze": Rule(positionals: .files, options: ["--model"]),
    "play": Rule(positionals: .files, options: ["--model"]),
    "timeline": Rule(
      positionals: .fileOrID, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "list": Rule(positionals: .none, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "export": Rule(
      positionals: .none, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "merge": Rule(positionals: .files),
    "frames": Rule(positionals: .files),
    "train": Rule(positionals: .files, options: ["--test", "--validation"]),
    "evaluate": Rule(positionals: .files, options: ["--model"]),
    "classify": Rule(positionals: .files, options: ["--model"]),
    "model": Rule(positionals: .files),
    "label": Rule(positionals: .files, options: ["--model"]),
    "review": Rule(
      positionals: .files, options: ["--data"], defaults: ["--data": "MovieData.json"]),
    "report": Rule(
      positionals: .none, options: ["--data"], defaults: ["--data": "MovieData.json"]),
  ]

  /// The input words of `words` (which start with `leamoji <command>`); `valueOptions` are the
  /// options that take a value, read from the command's help.
  static func inputs(of words: [ShellWords.Word], command: [String], valueOptions: Set<String>)
    -> [ShellWords.Word]
  {
    guard let rule = rules[command.joined(separator: " ")] else { return [] }
    var inputs: [ShellWords.Word] = []
    var given: Set<String> = []
    var rest = words.dropFirst(1 + command.count)
    while let word = rest.popFirst() {
      if word.text.hasPrefix("--") {
        let parts = word.text.split(separator: "=", maxSplits: 1)
        let name = String(parts[0])
        given.insert(name)
        var value: ShellWords.Word? = nil
        if parts.count == 2 {
          value = ShellWords.Word(text: String(parts[1]), glob: word.glob)
        } else if valueOptions.contains(name) {
          value = rest.popFirst()
        }
        if let value, rule.options.contains(name) { inputs.append(value) }
      } else if rule.positionals == .files
        || (rule.positionals == .fileOrID && (word.text.contains("/") || word.text.contains(".")))
      {
        inputs.append(word)
      }
    }
    for (option, file) in rule.defaults where !given.contains(option) {
      inputs.append(ShellWords.Word(text: file))
    }
    return inputs
  }

  /// The options of a help text that take a value (`--out <out>`).
  static func valueOptions(inHelp help: String) -> Set<String> {
    var options: Set<String> = []
    for line in help.split(separator: "\n") {
      let words = line.split(separator: " ")
      for (word, next) in zip(words, words.dropFirst())
      where word.hasPrefix("--") && next.hasPrefix("<") {
        options.insert(String(word.split(separator: "/").first ?? word))
      }
    }
    return options
  }
}

// MARK: - Placeholders

/// What stands in for the files the examples name but the repository does not ship.
///
/// An example runs in a folder holding copies of the bundled files (`SampleVideos/` with the three
/// videos and their `.truth.json`, `Models/leamoji.safetensors`), plus whatever earlier examples
/// of the same help text or README block wrote. Just before an example runs, each input it names
/// (positional files, `--model`, `--test`, `--validation`, timeline's `--data`; see
/// `ExampleInputs.rules`) that is not there is looked up here by its path (without `./` or a
/// trailing `/`; for a glob such as `movies/*.mp4` that matches nothing, its folder `movies`) and
/// made. A name that is in none of these places fails the test with the line that uses it: add it
/// here.
///
/// | placeholder | stands for |
/// | --- | --- |
/// | `movie.mkv`, `film.mkv` | `SampleVideos/night-walk.mp4` remuxed into Matroska (`ffmpeg -c copy`) |
/// | `movie.mp4`, `film.mp4` | a copy of `SampleVideos/night-walk.mp4` |
/// | `movies` | a folder with copies of the three sample videos |
/// | `Training Data`, `my-data`, `frames-sorted` | `Happy/`, `Neutral/`, `Scary/` with 5 frames each of meadow-storm and party-cellar |
/// | `Testing Data`, `my-test`, `my-frames` | the same with 3 frames each of night-walk |
/// | `frames` | the 24 frames of night-walk, `000000.png` … `000023.png` |
/// | `frames/000042.png` | one frame of night-walk (second 10, scary) under that name |
/// | `my-model.safetensors` | a copy of the shipped `Models/leamoji.safetensors` |
/// | `MovieData.json`, `site/MovieData.json` | the three sample videos analysed with the shipped model |
/// | `parts`, `a.json`, `b.json` | fragments: `parts/<sample>.part.json` with one sample video's entry each; `a.json` and `b.json` the first two of them |
///
/// The frames are made once per test run with `leamoji frames --size 160x90` and sorted into the
/// labelled folders by the samples' `SampleVideos/*.truth.json` (the mood of every second), so the
/// training examples train on a few real, correctly labelled images in about a second, without
/// changing their options.
struct Placeholder: Sendable {
  let names: [String]
  let standsFor: String
  let make: @Sendable (_ destination: URL) throws -> Void

  static let table: [Placeholder] = [
    Placeholder(
      names: ["movie.mkv", "film.mkv"],
      standsFor: "SampleVideos/night-walk.mp4 remuxed into Matroska"
    ) { try ExampleAssets.copy(ExampleAssets.matroska.get(), to: $0) },
    Placeholder(
      names: ["movie.mp4", "film.mp4"], standsFor: "a copy of SampleVideos/night-walk.mp4"
    ) { try ExampleAssets.copy(ExampleAssets.sampleVideo("night-walk"), to: $0) },
    Placeholder(names: ["movies"], standsFor: "a folder with the three sample videos") {
      destination in
      try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
      for name in ExampleAssets.sampleNames {
        try ExampleAssets.copy(
          ExampleAssets.sampleVideo(name),
          to: destination.appendingPathComponent("\(name).mp4"))
      }
    },
    Placeholder(
      names: ["Training Data", "my-data", "frames-sorted"],
      standsFor: "Happy/, Neutral/, Scary/ with 5 frames each of meadow-storm and party-cellar"
    ) { try ExampleAssets.copy(ExampleAssets.trainingSet.get(), to: $0) },
    Placeholder(
      names: ["Testing Data", "my-test", "my-frames"],
      standsFor: "Happy/, Neutral/, Scary/ with 3 frames each of night-walk"
    ) { try ExampleAssets.copy(ExampleAssets.testingSet.get(), to: $0) },
    Placeholder(names: ["frames"], standsFor: "the 24 frames of night-walk") {
      try ExampleAssets.copy(
        ExampleAssets.frames.get().appendingPathComponent("night-walk"), to: $0)
    },
    Placeholder(
      names: ["frames/000042.png"], standsFor: "one frame of night-walk (second 10, scary)"
    ) {
      try ExampleAssets.copy(
        ExampleAssets.frames.get().appendingPathComponent("night-walk/000010.png"), to: $0)
    },
    Placeholder(
      names: ["my-model.safetensors"], standsFor: "a copy of Models/leamoji.safetensors"
    ) {
      try ExampleAssets.copy(
        ShippedAssetsTests.repository.appendingPathComponent("Models/leamoji.safetensors"), to: $0)
    },
    Placeholder(
      names: ["MovieData.json", "site/MovieData.json"],
      standsFor: "the three sample videos analysed with the shipped model"
    ) { try ExampleAssets.copy(ExampleAssets.timelineFile.get(), to: $0) },
    Placeholder(
      names: ["parts"], standsFor: "parts/<sample>.part.json, one sample video's entry each"
    ) { try ExampleAssets.copy(ExampleAssets.fragments.get(), to: $0) },
    Placeholder(names: ["a.json"], standsFor: "the meadow-storm fragment") {
      try ExampleAssets.copy(
        ExampleAssets.fragments.get().appendingPathComponent("meadow-storm.part.json"), to: $0)
    },
    Placeholder(names: ["b.json"], standsFor: "the night-walk fragment") {
      try ExampleAssets.copy(
        ExampleAssets.fragments.get().appendingPathComponent("night-walk.part.json"), to: $0)
    },
  ]

  static func named(_ name: String) -> Placeholder? {
    table.first { $0.names.contains(name) }
  }
}

/// The files placeholders are copied from, each made once per test run (lazily, so a test that
/// needs none makes none) in one folder removed when the test process exits.
enum ExampleAssets {
  static let sampleNames = ["meadow-storm", "night-walk", "party-cellar"]

  static let folder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "leamoji-example-assets-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: ExampleAssets.folder) }
    return url
  }()

  static func sampleVideo(_ name: String) -> URL {
    ShippedAssetsTests.repository.appendingPathComponent("SampleVideos/\(name).mp4")
  }

  /// `frames/<sample>/NNNNNN.png`: every second of each sample video, from `leamoji frames`.
  static let frames: Result<URL, any Error> = Result {
    let root = folder.appendingPathComponent("frames")
    for name in sampleNames {
      let result = try CLI.leamoji(
        [
          "frames", sampleVideo(name).path, "--out", root.appendingPathComponent(name).path,
          "--size", "160x90",
        ], timeout: 60)
      guard result.status == 0 else {
        throw HarnessError("leamoji frames \(name).mp4 failed: \(result.stderr)")
      }
    }
    return root
  }

  /// The mood of every second of a sample video, from its `.truth.json`.
  static func truth(_ name: String) throws -> [String] {
    let url = ShippedAssetsTests.repository.appendingPathComponent(
      "SampleVideos/\(name).truth.json")
    guard
      let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
      let labels = object["labels"] as? [String]
    else { throw HarnessError("no labels in \(url.path)") }
    return labels
  }

  /// A labelled folder: `perLabel` frames for each of happy, neutral and scary from `videos`,
  /// spread evenly over the seconds that have the label.
  static func labelledSet(_ name: String, from videos: [String], perLabel: Int) throws -> URL {
    let root = folder.appendingPathComponent(name)
    let frameFolder = try frames.get()
    var secondsByLabel: [String: [(video: String, second: Int)]] = [:]
    for video in videos {
      for (second, label) in try truth(video).enumerated() {
        secondsByLabel[label, default: []].append((video, second))
      }
    }
    for label in ["happy", "neutral", "scary"] {
      let candidates = secondsByLabel[label] ?? []
      guard candidates.count >= perLabel else {
        throw HarnessError("only \(candidates.count) \(label) seconds in \(videos)")
      }
      let labelFolder = root.appendingPathComponent(label.capitalized)
      try FileManager.default.createDirectory(at: labelFolder, withIntermediateDirectories: true)
      for index in 0..<perLabel {
        let pick = candidates[index * candidates.count / perLabel]
        let file = String(format: "%06d.png", pick.second)
        try copy(
          frameFolder.appendingPathComponent("\(pick.video)/\(file)"),
          to: labelFolder.appendingPathComponent("\(pick.video)-\(file)"))
      }
    }
    return root
  }

  static let trainingSet: Result<URL, any Error> = Result {
    try labelledSet("training", from: ["meadow-storm", "party-cellar"], perLabel: 5)
  }

  static let testingSet: Result<URL, any Error> = Result {
    try labelledSet("testing", from: ["night-walk"], perLabel: 3)
  }

  static let matroska: Result<URL, any Error> = Result {
    let url = folder.appendingPathComponent("night-walk.mkv")
    let result = try CLI.run(
      "ffmpeg", ["-v", "error", "-i", sampleVideo("night-walk").path, "-c", "copy", url.path],
      timeout: 60)
    guard result.status == 0 else { throw HarnessError("ffmpeg remux failed: \(result.stderr)") }
    return url
  }

  static let timelineFile: Result<URL, any Error> = Result {
    let url = folder.appendingPathComponent("timeline/MovieData.json")
    let result = try CLI.leamoji(
      ["analyze"] + sampleNames.map { sampleVideo($0).path } + [
        "--output", url.path, "--no-poster", "--jobs", "2",
      ], timeout: 120)
    guard result.status == 0 else { throw HarnessError("leamoji analyze failed: \(result.stderr)") }
    return url
  }

  /// `fragments/<sample>.part.json`: each sample video's entry of `timelineFile` alone.
  static let fragments: Result<URL, any Error> = Result {
    let root = folder.appendingPathComponent("fragments")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    let data = try Data(contentsOf: timelineFile.get())
    guard let entries = try JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
      throw HarnessError("the timeline file is not an array of objects")
    }
    for entry in entries {
      let id = entry["id"] as? String ?? "entry"
      try JSONSerialization.data(withJSONObject: [entry], options: [.sortedKeys]).write(
        to: root.appendingPathComponent("\(id).part.json"))
    }
    return root
  }

  static func copy(_ source: URL, to destination: URL) throws {
    try FileManager.default.createDirectory(
      at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: source, to: destination)
  }
}

// MARK: - Running

/// Runs example sequences in a fresh folder each, with bash, against the built binary.
struct ExampleRunner {
  /// Seconds one example may take before it is killed.
  static let timeLimit = 120

  let root: URL
  /// The examples' working folder.
  let work: URL
  private var count = 0

  init() throws {
    root = try CLI.temporaryFolder("examples")
    work = root.appendingPathComponent("work")
    for folder in ["SampleVideos", "Models"] {
      try FileManager.default.copyItem(
        at: ShippedAssetsTests.repository.appendingPathComponent(folder),
        to: work.appendingPathComponent(folder))
    }
  }

  func remove() { try? FileManager.default.removeItem(at: root) }

  /// Runs every example of `sequence` in order, recording an issue for each that fails.
  mutating func run(_ sequence: ExampleSequence) throws {
    for example in sequence.examples {
      try run(example)
    }
  }

  /// Makes the example's missing inputs from the placeholder table, then runs it; it must exit 0.
  mutating func run(_ example: Example) throws {
    let help = try HelpText.render(example.command + ["--help"])
    let valueOptions = help.status == 0 ? ExampleInputs.valueOptions(inHelp: help.text) : []
    let words = ShellWords(example.text).words
    for input in ExampleInputs.inputs(
      of: words, command: example.command, valueOptions: valueOptions)
    {
      if let problem = try provide(input) {
        Issue.record("\(example.origin): `\(example.summary)`: \(problem)")
        return
      }
    }
    count += 1
    let script = root.appendingPathComponent("example-\(count).sh")
    try """
    set -o pipefail
    unset LEAMOJI_MODEL
    leamoji() { '\(CLI.binary)' "$@"; }
    \(example.text)

    """.write(to: script, atomically: true, encoding: .utf8)
    if example.needsTerminal {
      try runInTerminal(example, script: script)
    } else {
      let result = try CLI.run(
        "timeout", ["-s", "KILL", String(Self.timeLimit), "bash", script.path], in: work)
      #expect(
        result.status == 0,
        """
        \(example.origin): `\(example.summary)` exited \(result.status) (expected 0) after \
        \(String(format: "%.1f", result.seconds)) s
        stderr: \(result.stderr.suffix(2000))
        stdout: \(result.stdout.suffix(1000))
        """)
    }
  }

  /// Makes `input` from a placeholder when it is missing; returns a message when it cannot.
  func provide(_ input: ShellWords.Word) throws -> String? {
    var path = input.text
    if path.hasPrefix("./") { path.removeFirst(2) }
    while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
    if path.isEmpty || path.hasPrefix("/") || path.hasPrefix("~") { return nil }
    var key = path
    if input.glob {
      if !globMatches(path).isEmpty { return nil }
      let firstGlob = path.firstIndex { "*?[".contains($0) }!
      guard let slash = path[..<firstGlob].lastIndex(of: "/") else {
        return "the glob '\(input.text)' matches nothing, and has no folder to make"
      }
      key = String(path[..<slash])
    }
    let destination = work.appendingPathComponent(key)
    if FileManager.default.fileExists(atPath: destination.path) { return nil }
    guard let placeholder = Placeholder.named(key) else {
      return """
        '\(input.text)' is not in the example folder (the bundled SampleVideos/ and Models/), \
        no earlier example made it, and it is not a placeholder: add '\(key)' to \
        Placeholder.table in Tests/LeamojiCLITests/ExampleRunner.swift
        """
    }
    try placeholder.make(destination)
    return nil
  }

  func globMatches(_ pattern: String) -> [String] {
    var matches = glob_t()
    defer { globfree(&matches) }
    guard glob(work.path + "/" + pattern, 0, nil, &matches) == 0 else { return [] }
    return (0..<Int(matches.gl_pathc)).compactMap {
      matches.gl_pathv[$0].map { String(cString: $0) }
    }
  }

  /// The player needs a terminal: runs the example in a tmux window, waits until the picture and
  /// a running clock are on screen, quits with q and expects exit 0.
  func runInTerminal(_ example: Example, script: URL) throws {
    let tmux = Tmux()
    try tmux.start(in: work)
    defer { tmux.stop() }
    try tmux.type(
      "timeout -s KILL \(Self.timeLimit) bash '\(script.path)'; echo \"example-exit=$?\"", "Enter")
    func exitStatus(_ screen: String) -> Int? {
      guard let range = screen.range(of: #"example-exit=\d+"#, options: .regularExpression)
      else { return nil }
      return Int(screen[range].dropFirst("example-exit=".count))
    }
    var screen = ""
    var sawPlayer = false
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline {
      usleep(200_000)
      screen = try tmux.screen()
      if exitStatus(screen) != nil { break }
      if let clock = playerClock(screen), clock >= 1 {
        sawPlayer = try tmux.screen(escapes: true).contains("▀")
        break
      }
      if screen.contains("frame 1 of") || screen.contains("second 1 of") {  // label's, review's
        sawPlayer = try tmux.screen(escapes: true).contains("▀")
        break
      }
    }
    if exitStatus(screen) == nil {
      try tmux.type("q")
      let quitDeadline = Date().addingTimeInterval(15)
      while exitStatus(screen) == nil && Date() < quitDeadline {
        usleep(200_000)
        screen = try tmux.screen()
      }
    }
    #expect(
      sawPlayer && exitStatus(screen) == 0,
      """
      \(example.origin): `\(example.summary)` in a terminal: player on screen \(sawPlayer), \
      exit status \(exitStatus(screen).map(String.init) ?? "none") (expected 0); screen:
      \(screen)
      """)
  }
}
