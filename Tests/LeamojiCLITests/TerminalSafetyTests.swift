import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Text from files leamoji does not control: a title with an OSC (retitle the window) and a
/// clear-screen sequence, a description with line breaks and a C1 CSI, file names with ESC,
/// newline, C1 and a bidi override.
private enum Hostile {
  static let title = "\u{1B}]0;owned\u{07}\u{1B}[2J Title \u{9B}31m red \u{202E}evil"
  /// How `title` reads once neutralised (each unsafe character replaced by `?`).
  static let titleShown = "?]0;owned??[2J Title ?31m red ?evil"
  static let description = "line one\nline two\r\u{1B}[31m\u{9B}2J\u{7F}\u{85}\u{2028}end\u{2066}"
  static let fileName = "ev\u{1B}[31mil\nname\u{9B}2J\u{202E}4pm.mp4"
  static let fileNameShown = "ev?[31mil?name?2J?4pm.mp4"

  /// A 3-second clip with `title` and `description` as its title and comment metadata, made once.
  static let video: Result<URL, HarnessError> = {
    do {
      let root = try CLI.temporaryFolder("hostile-fixture")
      let url = root.appendingPathComponent("hostile.mp4")
      let made = try CLI.run(
        "ffmpeg",
        [
          "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x54:rate=25", "-t", "3",
          "-metadata", "title=\(title)", "-metadata", "comment=\(description)",
          "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path,
        ])
      guard made.status == 0 else { return .failure(HarnessError("ffmpeg: \(made.stderr)")) }
      return .success(url)
    } catch {
      return .failure(HarnessError("\(error)"))
    }
  }()

  /// A copy of the hostile clip named `name` in `folder`.
  static func clip(named name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: try video.get(), to: url)
    return url
  }
}

/// A run of `leamoji` with its output as raw bytes (the harness's `CLI.Result` holds decoded text,
/// which would hide invalid UTF-8).
private struct RawRun {
  let status: Int32
  let stdout: [UInt8]
  let stderr: [UInt8]
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs `program` (default: the built leamoji) in `directory` with stdout and stderr in files.
private func runRaw(_ arguments: [String], program: String = CLI.binary, in directory: URL) throws
  -> RawRun
{
  let out = directory.appendingPathComponent(".stdout-\(UUID().uuidString)")
  let err = directory.appendingPathComponent(".stderr-\(UUID().uuidString)")
  FileManager.default.createFile(atPath: out.path, contents: nil)
  FileManager.default.createFile(atPath: err.path, contents: nil)
  defer {
    try? FileManager.default.removeItem(at: out)
    try? FileManager.default.removeItem(at: err)
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  process.currentDirectoryURL = directory
  process.standardInput = FileHandle.nullDevice
  let outHandle = try FileHandle(forWritingTo: out)
  let errHandle = try FileHandle(forWritingTo: err)
  process.standardOutput = outHandle
  process.standardError = errHandle
  try process.run()
  process.waitUntilExit()
  try outHandle.close()
  try errHandle.close()
  return RawRun(
    status: process.terminationStatus, stdout: [UInt8](try Data(contentsOf: out)),
    stderr: [UInt8](try Data(contentsOf: err)))
}

/// Scalars that must never reach a terminal from outside text: C0 controls but the line feed
/// that ends each line, DEL, C1 controls, the line/paragraph separators and the bidi
/// embedding/override/isolate controls. (Written out here, independently of the code under test.)
private func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x0A: return false
  case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
  default: return false
  }
}

/// Checks that `bytes` are valid UTF-8 without a forbidden scalar (no ESC 0x1B, BEL 0x07, CR
/// 0x0D, DEL, no C1 such as C2 9B, no U+202E) and, given `lines`, exactly that many lines, each
/// ended by a line feed.
private func expectTerminalSafe(
  _ bytes: [UInt8], lines: Int?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let text = String(validating: bytes, as: UTF8.self) else {
    Issue.record("\(what): not valid UTF-8: \(bytes)", sourceLocation: sourceLocation)
    return
  }
  let bad = text.unicodeScalars.filter(isForbidden)
  #expect(
    bad.isEmpty,
    "\(what): control characters \(bad.map { String($0.value, radix: 16) }) in \(text.debugDescription)",
    sourceLocation: sourceLocation)
  for byte: UInt8 in [0x1B, 0x07, 0x0D, 0x7F] {
    #expect(
      !bytes.contains(byte), "\(what): byte \(byte) in \(text.debugDescription)",
      sourceLocation: sourceLocation)
  }
  let c1 = zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }
  #expect(
    !c1, "\(what): a UTF-8 encoded C1 control in \(text.debugDescription)",
    sourceLocation: sourceLocation)
  if let lines {
    #expect(
      bytes.filter { $0 == 0x0A }.count == lines,
      "\(what): \(lines) line(s) expected: \(text.debugDescription)",
      sourceLocation: sourceLocation)
    if lines > 0 {
      #expect(bytes.last == 0x0A, "\(what): ends with a line feed", sourceLocation: sourceLocation)
    }
  }
}

/// The JSON object of one line of output.
private func jsonObject(_ line: [UInt8]) throws -> [String: Any] {
  try #require(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
}

/// The entries of a MovieData.json.
private func storedMovies(_ url: URL) throws -> [[String: Any]] {
  try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
}

@Suite("terminal-safe output of text from files")
struct TerminalSafetyTests {
  @Test(
    "analyze: the summary and the replaced-entry warning name a hostile file safely on one line each"
  )
  func analyzeSummary() throws {
    let work = try CLI.temporaryFolder("safe-summary")
    defer { try? FileManager.default.removeItem(at: work) }
    _ = try Hostile.clip(named: Hostile.fileName, in: work)

    let first = try runRaw(
      ["analyze", Hostile.fileName, "--output", "MovieData.json", "--no-poster"], in: work)
    #expect(first.status == 0, "\(first.stderrText)")
    expectTerminalSafe(first.stdout, lines: 2, "summary (line and mood strip)")
    #expect(
      first.stdoutText.contains("  (\(Hostile.fileNameShown))\n"),
      "\(first.stdoutText.debugDescription)")
    #expect(first.stderr.isEmpty, "\(first.stderrText.debugDescription)")

    let again = try runRaw(
      ["analyze", Hostile.fileName, "--output", "MovieData.json", "--no-poster"], in: work)
    #expect(again.status == 0)
    expectTerminalSafe(again.stdout, lines: 2, "summary of the second run")
    expectTerminalSafe(again.stderr, lines: 1, "replaced-entry warning")
    #expect(
      again.stderrText.hasPrefix("leamoji: warning: \(Hostile.fileNameShown): replaced"),
      "\(again.stderrText.debugDescription)")

    // The file keeps the real strings (the encoder escapes what JSON needs).
    let movie = try #require(try storedMovies(work.appendingPathComponent("MovieData.json")).first)
    #expect(movie["title"] as? String == Hostile.title)
    #expect(movie["description"] as? String == Hostile.description)
  }

  @Test("analyze --json: one terminal-safe line that decodes to the exact title and description")
  func analyzeJSON() throws {
    let work = try CLI.temporaryFolder("safe-json")
    defer { try? FileManager.default.removeItem(at: work) }
    _ = try Hostile.clip(named: Hostile.fileName, in: work)

    let run = try runRaw(
      ["analyze", Hostile.fileName, "--output", "MovieData.json", "--no-poster", "--json"], in: work
    )
    #expect(run.status == 0, "\(run.stderrText)")
    expectTerminalSafe(run.stdout, lines: 1, "analyze --json")
    let entry = try jsonObject(run.stdout)
    #expect(entry["title"] as? String == Hostile.title, "\(run.stdoutText.debugDescription)")
    #expect(entry["description"] as? String == Hostile.description)
    for escape in [
      #"\u001b]0;owned\u0007"#, #"\u009b31m"#, #"\u202eevil"#, #"\u007f\u0085\u2028end\u2066"#,
    ] {
      #expect(run.stdoutText.contains(escape), "\(escape) in \(run.stdoutText)")
    }
  }

  @Test("timeline: the stored title is shown neutralised on its own line; --json keeps it exact")
  func timelineOfAnalysedVideo() throws {
    let work = try CLI.temporaryFolder("safe-timeline")
    defer { try? FileManager.default.removeItem(at: work) }
    _ = try Hostile.clip(named: Hostile.fileName, in: work)
    let analysed = try runRaw(
      ["analyze", Hostile.fileName, "--output", "MovieData.json", "--no-poster"], in: work)
    try #require(analysed.status == 0, "\(analysed.stderrText)")
    let movie = try #require(try storedMovies(work.appendingPathComponent("MovieData.json")).first)
    let markers = try #require((movie["markers"] as? [Any])?.count)
    let id = try #require(movie["id"] as? String)

    for reference in [Hostile.fileName, id] {
      let run = try runRaw(["timeline", reference, "--data", "MovieData.json"], in: work)
      #expect(run.status == 0, "\(run.stderrText)")
      expectTerminalSafe(run.stdout, lines: markers + 2, "timeline \(reference.debugDescription)")
      #expect(
        run.stdoutText.hasPrefix("\(Hostile.titleShown) (\(id)): 3 s"),
        "\(run.stdoutText.debugDescription)")
    }
    let json = try runRaw(["timeline", id, "--data", "MovieData.json", "--json"], in: work)
    expectTerminalSafe(json.stdout, lines: 1, "timeline --json")
    #expect(try jsonObject(json.stdout)["title"] as? String == Hostile.title)
    #expect(try jsonObject(json.stdout)["description"] as? String == Hostile.description)
  }

  @Test("timeline: a hand-edited MovieData.json with escapes in id, title, labels and emoji")
  func timelineOfEditedFile() throws {
    let work = try CLI.temporaryFolder("safe-edited")
    defer { try? FileManager.default.removeItem(at: work) }
    let id = "x\u{1B}[2Jy"
    try writeEditedData(to: work.appendingPathComponent("MovieData.json"), id: id)

    let run = try runRaw(["timeline", id, "--data", "MovieData.json"], in: work)
    #expect(run.status == 0, "\(run.stderrText)")
    expectTerminalSafe(
      run.stdout, lines: 4, "timeline of the edited entry (title, 2 markers, strip)")
    let lines = run.stdoutText.split(separator: "\n").map(String.init)
    #expect(lines.first == "\(Hostile.titleShown) (x?[2Jy): 3 s, cues 5 s ahead", "\(lines)")
    #expect(lines.count == 4 && lines[1].contains("?]0;badge? hap?[2Jpy (100%)"), "\(lines)")
    #expect(lines.count == 4 && lines[2].contains("😱? sc?2Jary (90%)"), "\(lines)")
    #expect(lines.last == "  hhs", "the strip's letters: \(lines)")

    let json = try runRaw(["timeline", id, "--data", "MovieData.json", "--json"], in: work)
    expectTerminalSafe(json.stdout, lines: 1, "timeline --json of the edited entry")
    let entry = try jsonObject(json.stdout)
    #expect(entry["id"] as? String == id)
    #expect(entry["title"] as? String == Hostile.title)
    #expect(
      ((entry["markers"] as? [[String: Any]])?.first?["emoji"] as? String) == "\u{1B}]0;badge\u{07}"
    )
  }

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let arguments: [String]
    let status: Int32
    var testDescription: String { name }
  }

  static let errorCases: [ErrorCase] = [
    ErrorCase(
      name: "analyze, missing video",
      arguments: ["analyze", Hostile.fileName, "--output", "m.json"], status: 66),
    ErrorCase(
      name: "analyze, not media",
      arguments: ["analyze", "junk-" + Hostile.fileName, "--output", "m.json"], status: 65),
    ErrorCase(
      name: "frames, missing video", arguments: ["frames", Hostile.fileName, "--out", "frames"],
      status: 66),
    ErrorCase(
      name: "classify, missing image", arguments: ["classify", Hostile.fileName + ".png"],
      status: 66),
    ErrorCase(
      name: "timeline, not analysed",
      arguments: ["timeline", Hostile.fileName, "--data", "d\u{1B}]0;t\u{07}.json"], status: 66),
    ErrorCase(
      name: "timeline, malformed data file",
      arguments: ["timeline", "x", "--data", "junk-" + Hostile.fileName], status: 65),
    ErrorCase(name: "play, not a terminal", arguments: ["play", Hostile.fileName], status: 64),
    ErrorCase(
      name: "train, missing folder", arguments: ["train", "T\u{1B}[2J\n\u{9B}\u{202E}"], status: 66),
    ErrorCase(
      name: "evaluate, missing folder", arguments: ["evaluate", "T\u{1B}[2J\n\u{9B}\u{202E}"],
      status: 66),
    ErrorCase(
      name: "analyze, missing model",
      arguments: ["analyze", "x.mp4", "--model", "m\u{1B}[2J\n.safetensors"], status: 66),
  ]

  @Test(
    "an error naming a hostile file is exactly one terminal-safe line on stderr",
    arguments: errorCases)
  func errorNamingHostileFile(_ errorCase: ErrorCase) throws {
    let work = try CLI.temporaryFolder("safe-error")
    defer { try? FileManager.default.removeItem(at: work) }
    try Data("not a video \u{1B}[2J\n".utf8).write(
      to: work.appendingPathComponent("junk-" + Hostile.fileName))
    let run = try runRaw(errorCase.arguments, in: work)
    #expect(run.status == errorCase.status, "\(run.stderrText.debugDescription)")
    #expect(run.stdout.isEmpty)
    expectTerminalSafe(run.stderr, lines: 1, errorCase.name)
    #expect(run.stderrText.hasPrefix("leamoji: "))
  }

  @Test(
    "command-line errors quoting a hostile argument, and an invalid UTF-8 file name, are terminal-safe"
  )
  func argumentErrors() throws {
    let work = try CLI.temporaryFolder("safe-arguments")
    defer { try? FileManager.default.removeItem(at: work) }
    let unknown = try runRaw(["analyze", "x.mp4", "--x\u{1B}]0;owned\u{07}"], in: work)
    #expect(unknown.status == 64)
    expectTerminalSafe(unknown.stderr, lines: nil, "unknown option")
    #expect(
      unknown.stderrText.hasPrefix("Error: Unknown option '--x?]0;owned?'\n"),
      "\(unknown.stderrText.debugDescription)")

    let badValue = try runRaw(["analyze", "x.mp4", "--interval", "\u{9B}2J\u{1B}[2J"], in: work)
    #expect(badValue.status == 64)
    expectTerminalSafe(badValue.stderr, lines: nil, "bad option value")
    #expect(badValue.stderrText.contains("'?2J?[2J'"), "\(badValue.stderrText.debugDescription)")

    // Bytes that are not UTF-8 can only be passed through a shell.
    let invalid = try runRaw(
      [
        "-c", #"exec "$0" analyze "$(printf 'bad\377\376\033]0;x\007.mp4')" --output m.json"#,
        CLI.binary,
      ],
      program: "/bin/sh", in: work)
    #expect(invalid.status == 66)
    expectTerminalSafe(invalid.stderr, lines: 1, "invalid UTF-8 file name")
    #expect(invalid.stderrText.contains("]0;x?.mp4: "), "\(invalid.stderrText.debugDescription)")
  }

  @Test(
    "classify, evaluate and frames print hostile image and folder names safely; JSON keeps them exact"
  )
  func imageCommands() throws {
    let work = try CLI.temporaryFolder("safe-images")
    defer { try? FileManager.default.removeItem(at: work) }
    let names = ["a\u{1B}]0;x\u{07}\n\u{202E}.png", "b\u{9B}2J\r.png"]
    let image = work.appendingPathComponent("image.png")
    let made = try CLI.run(
      "ffmpeg",
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=32x32", "-frames:v", "1",
        image.path,
      ])
    try #require(made.status == 0, "\(made.stderr)")
    for label in ["Happy", "Scary"] {
      let folder = work.appendingPathComponent("Test/\(label)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for name in names {
        try FileManager.default.copyItem(at: image, to: folder.appendingPathComponent(name))
      }
    }
    let images = names.map { "Test/Happy/" + $0 }

    let classify = try runRaw(["classify"] + images, in: work)
    #expect(classify.status == 0, "\(classify.stderrText)")
    expectTerminalSafe(classify.stdout, lines: 2, "classify")
    #expect(
      classify.stdoutText.hasPrefix("Test/Happy/a?]0;x???.png: "),
      "\(classify.stdoutText.debugDescription)")

    let json = try runRaw(["classify", "--json"] + images, in: work)
    expectTerminalSafe(json.stdout, lines: 2, "classify --json")
    let files = json.stdout.split(separator: 0x0A).compactMap {
      (try? JSONSerialization.jsonObject(with: Data($0))).flatMap {
        ($0 as? [String: Any])?["file"] as? String
      }
    }
    #expect(files == images)

    let evaluate = try runRaw(["evaluate", "Test", "--verbose"], in: work)
    #expect(evaluate.status == 0, "\(evaluate.stderrText)")
    expectTerminalSafe(evaluate.stdout, lines: nil, "evaluate --verbose")
    #expect(
      evaluate.stdoutText.split(separator: "\n").filter { $0.contains(" p=") }.count == 4,
      "one line per image: \(evaluate.stdoutText.debugDescription)")

    let evaluateJSON = try runRaw(["evaluate", "Test", "--verbose", "--json"], in: work)
    expectTerminalSafe(evaluateJSON.stdout, lines: 1, "evaluate --json")
    let listed = (try jsonObject(evaluateJSON.stdout)["images"] as? [[String: Any]])?.compactMap {
      $0["file"] as? String
    }
    #expect(
      Set(listed ?? [])
        == Set(["Happy", "Scary"].flatMap { label in names.map { "Test/\(label)/\($0)" } }))

    let outFolder = "out\u{1B}[2J\n\u{9B}"
    let frames = try runRaw(["frames", images[0], "--out", outFolder], in: work)
    #expect(frames.status == 0, "\(frames.stderrText)")
    expectTerminalSafe(frames.stdout, lines: 1, "frames")
    #expect(frames.stdoutText.hasSuffix(" to out?[2J??\n"), "\(frames.stdoutText.debugDescription)")
  }
}

/// Writes a MovieData.json as a user (or an attacker) might edit it: escape sequences in the id,
/// title, description, labels and emoji. The second marker's cue is at 0 s, so the player shows
/// its heads-up line at once.
private func writeEditedData(to url: URL, id: String) throws {
  let entry: [String: Any] = [
    "id": id, "title": Hostile.title, "description": Hostile.description, "duration": 3,
    "seekAhead": 5,
    "model": ["labels": ["happy", "neutral", "scary"], "sha256": "0"],
    "markers": [
      [
        "second": 0, "cueAt": 0, "label": "hap\u{1B}[2Jpy", "emoji": "\u{1B}]0;badge\u{07}",
        "confidence": 1,
      ],
      ["second": 2, "cueAt": 0, "label": "sc\u{9B}2Jary", "emoji": "😱\u{202E}", "confidence": 0.9],
    ],
  ]
  try JSONSerialization.data(withJSONObject: [entry], options: [.sortedKeys]).write(to: url)
}

/// `leamoji play` in tmux, with every byte it writes to the terminal recorded by `pipe-pane`.
@Suite("terminal-safe output of the player")
struct TerminalSafetyPlayTests {
  /// Runs `script` from a file (so that hostile names are not echoed as typed input) in a tmux
  /// window until it ends, and returns the raw bytes the pane received and the last screen.
  func playInTmux(script: String, in work: URL) throws -> (bytes: [UInt8], screen: String) {
    let scriptFile = work.appendingPathComponent("run.sh")
    try Data(script.utf8).write(to: scriptFile)
    let capture = work.appendingPathComponent("pane.bytes")
    let tmux = Tmux()
    try tmux.start(in: work)
    defer { tmux.stop() }
    try tmux.run(["pipe-pane", "-t", tmux.session, "-o", "cat >> '\(capture.path)'"])
    try tmux.type("sh run.sh; echo exit=$?", "Enter")
    var screen = ""
    var sawPlayer = false
    for _ in 0..<300 {  // up to 30 s on a busy machine; about 4 s normally
      usleep(100_000)
      screen = try tmux.screen()
      if playerClock(screen) != nil { sawPlayer = true }
      if exitLine(screen) != nil { break }
    }
    #expect(sawPlayer, "the player ran: \(screen)")
    #expect(exitLine(screen) == "exit=0", "\(screen)")
    var bytes: [UInt8] = []
    for _ in 0..<20 {  // the pipe's `cat` may be a moment behind the screen
      bytes = [UInt8]((try? Data(contentsOf: capture)) ?? Data())
      let ends = occurrences(of: Array("exit=".utf8), in: bytes)
      if ends.contains(where: { $0 + 5 < bytes.count && (0x30...0x39).contains(bytes[$0 + 5]) }) {
        break
      }
      usleep(50_000)
    }
    return (bytes, screen)
  }

  /// The `exit=N` line the shell prints when the script ends (not the typed command's `exit=$?`).
  func exitLine(_ text: String) -> String? {
    text.range(of: #"exit=[0-9]+"#, options: .regularExpression).map { String(text[$0]) }
  }

  /// Checks what a terminal received while leamoji played: the neutralised `visible` texts
  /// appear, each never preceded by ESC, and nothing but leamoji's own sequences is there — no
  /// OSC (`ESC ]`), no BEL, no C1 control, no bidi override, and every `ESC[2J` is the player's
  /// own clear (which always follows `ESC[0m`).
  func expectSafePane(
    _ bytes: [UInt8], visible: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(
      !occurrences(of: Array("\u{1B}[38;2;".utf8), in: bytes).isEmpty, "the player drew",
      sourceLocation: sourceLocation)
    for fragment in visible {
      let occurrences = occurrences(of: Array(fragment.utf8), in: bytes)
      #expect(
        !occurrences.isEmpty, "\(fragment.debugDescription) shown", sourceLocation: sourceLocation)
      for i in occurrences where i > 0 {
        #expect(
          bytes[i - 1] == UInt8(ascii: "?"),
          "\(fragment.debugDescription) preceded by \(bytes[i - 1])",
          sourceLocation: sourceLocation)
      }
    }
    #expect(!bytes.contains(0x07), "no BEL", sourceLocation: sourceLocation)
    #expect(
      occurrences(of: [0x1B, 0x5D], in: bytes).isEmpty, "no OSC (ESC ])",
      sourceLocation: sourceLocation)
    let c1 = (UInt8(0x80)...0x9F).filter { !occurrences(of: [0xC2, $0], in: bytes).isEmpty }
    #expect(c1.isEmpty, "no UTF-8 encoded C1 control: \(c1)", sourceLocation: sourceLocation)
    #expect(
      occurrences(of: [0xE2, 0x80, 0xAE], in: bytes).isEmpty, "no U+202E",
      sourceLocation: sourceLocation)
    let clears = occurrences(of: Array("\u{1B}[2J".utf8), in: bytes)
    #expect(!clears.isEmpty, "the player clears the screen itself", sourceLocation: sourceLocation)
    for i in clears {
      #expect(
        i >= 4 && Array(bytes[(i - 4)..<i]) == Array("\u{1B}[0m".utf8),
        "ESC[2J not from the player at \(i)",
        sourceLocation: sourceLocation)
    }
  }

  /// Where `needle` starts in `bytes` (`memchr` and `memcmp`: the pane's bytes run to
  /// megabytes, too many for a plain loop in a debug build).
  func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
    var found: [Int] = []
    bytes.withUnsafeBytes { hay in
      needle.withUnsafeBytes { pattern in
        guard let base = hay.baseAddress, let start = pattern.baseAddress, pattern.count > 0 else {
          return
        }
        var offset = 0
        while offset + pattern.count <= hay.count,
          let hit = memchr(base + offset, Int32(needle[0]), hay.count - offset - pattern.count + 1)
        {
          let i = base.distance(to: UnsafeRawPointer(hit))
          if memcmp(hit, start, pattern.count) == 0 { found.append(i) }
          offset = i + 1
        }
      }
    }
    return found
  }

  /// A string as a single-quoted shell word (any byte but `'` is literal inside).
  func shellWord(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  @Test("play analyses a hostile file first and shows its metadata title neutralised")
  func playHostileMetadata() throws {
    let work = try CLI.temporaryFolder("safe-play")
    defer { try? FileManager.default.removeItem(at: work) }
    let name = "clip\u{1B}]2;pwned\u{07}\n\u{9B}1m\u{202E}.mp4"
    _ = try Hostile.clip(named: name, in: work)
    let pane = try playInTmux(
      script: "exec \(shellWord(CLI.binary)) play \(shellWord(name)) --data MovieData.json\n",
      in: work)
    // The title overlay (and the stderr note naming the file before the analysis).
    expectSafePane(
      pane.bytes,
      visible: [
        "]0;owned??[2J Title ?31m red ?evil", "]2;pwned???1m?.mp4 is not in MovieData.json",
      ])
  }

  @Test(
    "play shows a hand-edited title, labels and emoji neutralised in the title, badge and heads-up")
  func playEditedData() throws {
    let work = try CLI.temporaryFolder("safe-play-edited")
    defer { try? FileManager.default.removeItem(at: work) }
    _ = try Hostile.clip(named: "walk.mp4", in: work)
    try writeEditedData(to: work.appendingPathComponent("MovieData.json"), id: "walk")
    let pane = try playInTmux(
      script: "exec \(shellWord(CLI.binary)) play walk.mp4 --data MovieData.json\n", in: work)
    expectSafePane(
      pane.bytes,
      visible: [
        "]0;owned??[2J Title ?31m red ?evil",  // title, top left
        "]0;badge? hap?[2Jpy ",  // badge of the current scene, top right
        "2Jary scene in ",  // heads-up line of the next one (its emoji and label: `😱? sc?2Jary`)
      ])
  }
}
