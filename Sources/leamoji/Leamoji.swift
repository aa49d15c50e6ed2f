import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiCommandLine
import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

@main
struct Leamoji: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leamoji",
    abstract:
      "Tells children what is coming in a film: an emoji timeline of happy, neutral and scary scenes.",
    discussion: """
      leamoji decodes a video with FFmpeg, labels one frame per second with a small neural \
      network, and writes an emoji timeline that a player shows a few seconds before each scene.

      Examples:
        leamoji analyze SampleVideos/meadow-storm.mp4
        leamoji timeline SampleVideos/meadow-storm.mp4
        leamoji play SampleVideos/meadow-storm.mp4
        leamoji frames SampleVideos/meadow-storm.mp4 --out frames/

      leamoji --version prints the release and the FFmpeg libraries it runs with.
      """,
    subcommands: [
      Analyze.self, Play.self, Timeline.self, List.self, Export.self, Merge.self, Frames.self,
      LabelFrames.self, Review.self,
      Report.self, Train.self, Evaluate.self, Classify.self, Model.self, LegacyScenes.self,
    ]
  )

  /// The release, the first line of `leamoji --version`.
  static let version = "0.1.0"

  static func main() {
    LeamojiProcess.prepare()
    // `--version` is the root's alone, handled here rather than by `CommandConfiguration.version`:
    // ArgumentParser would list that flag in every command's help, where `train --version` is the
    // model card's version option.
    // The second line names the FFmpeg libraries (a binary built against FFmpeg 5.1 does not
    // start with 7.1's, so a bug report needs them).
    if CommandLine.arguments.dropFirst().elementsEqual(["--version"]) {
      print(version)
      print(LeamojiProcess.ffmpegVersion)
      return
    }
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let moved = MovedToLab.message(for: arguments) {
      Console.error(moved)
      Glibc.exit(ExitStatus.usage.rawValue)
    }
    if let moved = MovedToLab.warning(for: arguments) { Console.warning(moved) }
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let failure as CommandFailure {
      Console.error(failure.message)
      Glibc.exit(failure.status.rawValue)
    } catch let error as LeamojiError {
      Console.error(error.message)
      Glibc.exit(ExitStatus(error.kind).rawValue)
    } catch {
      // ArgumentParser's errors quote the arguments, and a file name from a glob may hold escape
      // sequences: errors go to stderr made safe line by line; help and --version go out as is.
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success || message.isEmpty { exit(withError: error) }
      Console.writeStderr(Console.safeLines(message) + "\n")
      Glibc.exit(code.rawValue)
    }
  }
}
