import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("terminal-safe output of text from files")
struct TerminalSafetyTests {
  @Test(
    "analyze: the summary and the replaced-entry warning name a hostile file safely on one line each"
  )
  func analyzeSummary() throws {
    let work = try ScratchFolder.url("safe-summary")
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
    let work = try ScratchFolder.url("safe-json")
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
    let work = try ScratchFolder.url("safe-timeline")
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
      // The title, the markers, the strip, then the heads-up (its headline and facts).
      let headsUp = run.stdoutText.split(separator: "\n").drop { !$0.hasPrefix("Heads-up: ") }
      #expect(!headsUp.isEmpty)
      expectTerminalSafe(
        run.stdout, lines: markers + 2 + headsUp.count, "timeline \(reference.debugDescription)")
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
    let work = try ScratchFolder.url("safe-edited")
    defer { try? FileManager.default.removeItem(at: work) }
    let id = "x\u{1B}[2Jy"
    try writeEditedData(to: work.appendingPathComponent("MovieData.json"), id: id)

    let run = try runRaw(["timeline", id, "--data", "MovieData.json"], in: work)
    #expect(run.status == 0, "\(run.stderrText)")
    expectTerminalSafe(
      run.stdout, lines: 6,
      "timeline of the edited entry (title, 2 markers, strip, heads-up and its model's line)")
    let lines = run.stdoutText.split(separator: "\n").map(String.init)
    #expect(lines.first == "\(Hostile.titleShown) (x?[2Jy): 3 s, cues 5 s ahead", "\(lines)")
    #expect(lines.count == 6 && lines[1].contains("?]0;badge? hap?[2Jpy (100%)"), "\(lines)")
    #expect(lines.count == 6 && lines[2].contains("😱? sc?2Jary (90%)"), "\(lines)")
    #expect(lines.count == 6 && lines[3] == "  hhs", "the strip's letters: \(lines)")
    // Neither label is the standard scary one, and the file's model is not the one in use.
    #expect(lines.count == 6 && lines[4].hasPrefix("Heads-up: level 0 of 5"), "\(lines)")
    #expect(lines.last?.hasPrefix("  analysed with another model (sha256 0)") == true)

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
    let work = try ScratchFolder.url("safe-error")
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
    let work = try ScratchFolder.url("safe-arguments")
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
    let work = try ScratchFolder.url("safe-images")
    defer { try? FileManager.default.removeItem(at: work) }
    let names = ["a\u{1B}]0;x\u{07}\n\u{202E}.png", "b\u{9B}2J\r.png"]
    let image = work.appendingPathComponent("image.png")
    try FFmpegFixtures.run([
      "-f", "lavfi", "-i", "testsrc2=size=32x32", "-frames:v", "1",
      image.path,
    ])
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
