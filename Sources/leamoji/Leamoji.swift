import ArgumentParser
import Foundation
import LeamojiCore
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
    // Past a file-size limit (`ulimit -f`) a write should fail with EFBIG and be reported like a
    // full disk, not kill the process halfway through.
    signal(SIGXFSZ, SIG_IGN)
    FFmpegLogging.silence()
    do {
      var command = try parseAsRoot()
      // SIGINT, SIGTERM and SIGHUP remove the temporary files being written and end the
      // process by the signal; while the player runs, its terminal session takes them over
      // (restores the terminal, exits with 128 + signal). See SignalCoordinator.
      DurableFile.removeTemporariesOnTermination()
      try command.run()
    } catch let failure as CommandFailure {
      Console.error(failure.message)
      Foundation.exit(failure.status.rawValue)
    } catch {
      // ArgumentParser's errors quote the arguments, and a file name from a glob may hold escape
      // sequences: errors go to stderr made safe line by line; help and --version go out as is.
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success || message.isEmpty { exit(withError: error) }
      Console.writeStderr(Console.safeLines(message) + "\n")
      Foundation.exit(code.rawValue)
    }
  }
}
