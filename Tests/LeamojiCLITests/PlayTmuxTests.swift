import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The player's clock `m:ss / m:ss` on screen, in seconds.
func playerClock(_ screen: String) -> Int? {
  guard let range = screen.range(of: #"(\d+):(\d\d) / \d+:\d\d"#, options: .regularExpression)
  else { return nil }
  let parts = screen[range].split(separator: " ")[0].split(separator: ":").compactMap { Int($0) }
  return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
}

@Suite("leamoji play", .serialized)
struct PlayTmuxTests {
  @Test("not a terminal: a clear message pointing to timeline")
  func notATerminal() throws {
    let result = try CLI.leamoji([
      "play",
      Repository.root.appendingPathComponent("SampleVideos/night-walk.mp4").path,
    ])
    #expect(result.status == 64)
    #expect(
      result.stderrLines.count == 1 && result.stderr.contains("leamoji timeline"),
      "\(result.stderr)")
  }

  @Test(
    "plays in tmux: half blocks, emoji, running clock; space pauses; → seeks 5 s; q restores the shell"
  )
  func playsInTmux() throws {
    let work = try ScratchFolder.url("play")
    defer { try? FileManager.default.removeItem(at: work) }
    let video = Repository.root.appendingPathComponent("SampleVideos/night-walk.mp4")
      .path
    let data = work.appendingPathComponent("MovieData.json").path
    let analysed = try CLI.leamoji(["analyze", video, "--output", data, "--no-poster"])
    try #require(analysed.status == 0, "\(analysed.stderr)")

    let tmux = Tmux()
    try tmux.start(in: work)
    defer { tmux.stop() }
    try tmux.type("'\(CLI.binary)' play '\(video)' --data '\(data)' --stats; echo exit=$?", "Enter")
    var clock: Int? = nil
    for _ in 0..<120 where clock == nil || clock! < 2 {
      usleep(250_000)
      clock = playerClock(try tmux.screen())
    }
    let coloured = try tmux.screen(escapes: true)
    #expect(coloured.contains("\u{1B}[38;2;") && coloured.contains("▀"), "24-bit half blocks")
    #expect(try tmux.alternateScreenOn())
    let text = try tmux.screen()
    let first = try #require(clock, "a clock on screen: \(text)")
    #expect(["😐", "😱", "😀"].contains { text.contains($0) }, "an emoji from the timeline")
    usleep(1_500_000)
    let running = try #require(playerClock(try tmux.screen()))
    #expect(running > first, "the clock runs: \(first) → \(running)")

    // Waits are for what the screen shows, not fixed times: on a loaded machine a key can take
    // a while to be read and answered.
    try tmux.type("Space")
    var pauseShown = try tmux.screen()
    for _ in 0..<120 where !pauseShown.contains("⏸") {
      usleep(250_000)
      pauseShown = try tmux.screen()
    }
    #expect(pauseShown.contains("⏸"), "a pause indicator: \(pauseShown)")
    let paused = try #require(playerClock(pauseShown))
    usleep(1_500_000)
    let pausedScreen = try tmux.screen()
    #expect(playerClock(pausedScreen) == paused, "paused: the clock stands still")

    try tmux.type("Right")
    var jumped = paused
    for _ in 0..<120 where jumped == paused {
      usleep(250_000)
      jumped = try #require(playerClock(try tmux.screen()))
    }
    #expect(
      jumped >= paused + 4 && jumped <= paused + 6, "→ jumps about 5 s: \(paused) → \(jumped)")

    try tmux.type("q")
    var back = ""
    for _ in 0..<120 where !back.contains("exit=") {
      usleep(250_000)
      back = try tmux.screen()
    }
    #expect(back.contains("exit=0"), "\(back)")
    #expect(back.contains("frames shown"))
    #expect(try !tmux.alternateScreenOn(), "alternate screen left")
    #expect(!back.contains("▀"))
  }

  @Test("plays a MovieData.json the original app wrote: its markers object drives the emoji")
  func playsAnAppFile() throws {
    let work = try ScratchFolder.url("play-app")
    defer { try? FileManager.default.removeItem(at: work) }
    // The app names videos by id; its markers are second → "Happy"/"Neutral"/"Scary".
    try FileManager.default.copyItem(
      atPath: Repository.root.appendingPathComponent("SampleVideos/night-walk.mp4")
        .path,
      toPath: work.appendingPathComponent("NightWalk.mp4").path)
    let app = """
      [
        {
          "description" : "A walk at night.",
          "id" : "NightWalk",
          "markers" : {
            "0" : "Scary",
            "20" : "Happy"
          },
          "poster" : "NightWalk",
          "title" : "Night Walk"
        }
      ]
      """
    try app.write(
      to: work.appendingPathComponent("MovieData.json"), atomically: true, encoding: .utf8)

    let tmux = Tmux()
    try tmux.start(in: work)
    defer { tmux.stop() }
    try tmux.type("'\(CLI.binary)' play NightWalk.mp4; echo exit=$?", "Enter")
    var clock: Int? = nil
    for _ in 0..<120 where clock == nil || clock! < 1 {
      usleep(250_000)
      clock = playerClock(try tmux.screen())
    }
    let text = try tmux.screen()
    #expect(clock != nil, "a clock on screen: \(text)")
    #expect(text.contains("😱"), "the app's first marker (scary from 0 s) is on screen: \(text)")
    #expect(!text.contains("😐"), "no label the app's file does not hold: \(text)")
    try tmux.type("q")
    var back = ""
    for _ in 0..<120 where !back.contains("exit=") {
      usleep(250_000)
      back = try tmux.screen()
    }
    #expect(back.contains("exit=0"), "\(back)")
    // Playing reads the file and never rewrites it.
    let after = try String(
      contentsOf: work.appendingPathComponent("MovieData.json"), encoding: .utf8)
    #expect(after == app)
  }
}
