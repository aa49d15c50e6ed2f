import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

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
    root = try ScratchFolder.url("examples")
    work = root.appendingPathComponent("work")
    for folder in ["SampleVideos", "Models"] {
      try FileManager.default.copyItem(
        at: Repository.root.appendingPathComponent(folder),
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
    let help = try HelpText.render(example.command + ["--help"], tool: example.tool)
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
    leamoji-lab() { '\(Repository.leamojiLab)' "$@"; }
    \(example.text)

    """.write(to: script, atomically: true, encoding: .utf8)
    if example.needsTerminal {
      try runInTerminal(example, script: script)
    } else {
      let result = try ProcessRunner.run(
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
        Placeholder.table in Tests/LeamojiCLITests/ExamplePlaceholders.swift
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
