import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiCommandLine
import LeamojiCore
import LeamojiLab

#if canImport(Glibc)
  import Glibc
#endif

/// leamoji-lab: the model's workshop, apart from the product. What makes and tunes a model
/// (training with the workshop's options, generating scenes, setting its card after the check,
/// re-deriving timelines at other thresholds) lives here; `leamoji` keeps what a parent runs
/// and teaching (`train --init`). Thin over the LeamojiLab and LeamojiCommandLine libraries.
@main
struct LeamojiLabTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leamoji-lab",
    abstract:
      "The model's workshop: train with every option, generate scenes, set a model's card, re-derive timelines.",
    discussion: """
      Exit status: 0 done, 64 bad usage, 65 an input file is not usable, 66 an input file is \
      missing or unreadable, 73 the output cannot be written (or exists without --overwrite).

      Examples:
        leamoji-lab train domains/ --backbone efficientnet-lite2-192 \\
          --experts real.safetensors,generated.safetensors --output both.safetensors
        leamoji-lab scenes dataset --out . --train-per-class 100 --test-per-class 20
        leamoji-lab card trained.safetensors --output Models/leamoji.safetensors \\
          --scary-threshold 0.38 --evaluation "real check set: ..."
        leamoji-lab retime check.json --from 0.01 --to 0.99 --step 0.01
      """,
    subcommands: [LabTrain.self, Scenes.self, Card.self, Retime.self]
  )

  static func main() {
    Console.toolName = "leamoji-lab"
    LeamojiProcess.prepare()
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let error as LabError {
      fail(error.message, status: ExitStatus(error.kind).rawValue)
    } catch let failure as CommandFailure {
      fail(failure.message, status: failure.status.rawValue)
    } catch let error as LeamojiError {
      fail(error.message, status: ExitStatus(error.kind).rawValue)
    } catch {
      // Help goes out as ArgumentParser writes it; a usage error as one line, its first
      // (`Error: ...`), so a script's log shows what was wrong at once.
      let code = exitCode(for: error)
      let message = fullMessage(for: error)
      if code == .success || message.isEmpty { exit(withError: error) }
      let first = message.split(separator: "\n").first.map(String.init) ?? message
      fail(first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first, status: code.rawValue)
    }
  }

  /// One line on stderr, `leamoji-lab: ...`, and the exit status.
  static func fail(_ message: String, status: Int32) -> Never {
    Console.error(message)
    Glibc.exit(status)
  }
}
