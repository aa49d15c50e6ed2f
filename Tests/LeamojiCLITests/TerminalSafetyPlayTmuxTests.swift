import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@Suite("terminal-safe output of the player")
struct TerminalSafetyPlayTmuxTests {
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
    let work = try ScratchFolder.url("safe-play")
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
    let work = try ScratchFolder.url("safe-play-edited")
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
