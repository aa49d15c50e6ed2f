import Foundation
import LeamojiAnalysis
import LeamojiPlayback
import LeamojiTestSupport
import Testing

/// Opening only: playing needs a terminal and is covered by the tmux tests in LeamojiCLITests.
@Suite("PlaybackSession: opening a video for playing")
struct PlaybackSessionTests {
  static func opening(_ path: String, fails kind: (String) -> LeamojiError) {
    #expect {
      _ = try PlaybackSession(video: path)
    } throws: { error in
      guard let problem = error as? LeamojiError else { return false }
      return problem == kind(problem.message) && problem.message.hasPrefix(path + ": ")
        && !problem.message.contains("\n")
    }
  }

  @Test("a sample video opens")
  func opensSample() throws {
    _ = try PlaybackSession(video: Repository.sampleVideo("night-walk"))
  }

  @Test("a missing file or a folder is no input")
  func missingOrFolder() throws {
    let folder = try ScratchFolder.url("play-missing")
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("none.mp4").path
    Self.opening(missing, fails: LeamojiError.noInput)
    Self.opening(folder.path, fails: LeamojiError.noInput)
  }

  @Test("a text file, an empty file, an audio-only file and a cut header are bad input")
  func notVideos() throws {
    let folder = try ScratchFolder.url("play-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("notes.mp4")
    try Data("not a film\n".utf8).write(to: text)
    let empty = folder.appendingPathComponent("empty.mp4")
    try Data().write(to: empty)
    let header = folder.appendingPathComponent("header.mp4")
    let sample = try Data(contentsOf: URL(fileURLWithPath: Repository.sampleVideo("night-walk")))
    try sample.prefix(2000).write(to: header)
    let audio = folder.appendingPathComponent("tone.wav")
    try FFmpegFixtures.run(["-f", "lavfi", "-i", "sine=frequency=440:duration=1", audio.path])
    for file in [text, empty, header, audio] {
      Self.opening(file.path, fails: LeamojiError.badInput)
    }
  }
}
