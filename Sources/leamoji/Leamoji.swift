import ArgumentParser
import Foundation
import LeamojiVideo

@main
struct Leamoji: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leamoji",
    abstract: "Tells children what is coming in a film: an emoji timeline of happy, neutral and scary scenes.",
    discussion: """
      leamoji decodes a video with FFmpeg, labels one frame per second with a small neural
      network, and writes an emoji timeline that a player shows a few seconds before each scene.

      Examples:
        leamoji frames SampleVideos/forest.mp4 --out frames/
        leamoji frames movie.mkv --out frames/ --interval 2 --size 320x180
      """,
    version: "0.1.0",
    subcommands: [Analyze.self, Play.self, Timeline.self, Frames.self, Train.self, Evaluate.self, Classify.self, Scenes.self]
  )

  static func main() {
    FFmpegLogging.silence()
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let failure as CommandFailure {
      Console.error(failure.message)
      Foundation.exit(failure.status.rawValue)
    } catch {
      exit(withError: error)
    }
  }
}
