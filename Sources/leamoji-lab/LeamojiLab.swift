import ArgumentParser
import FoundationEssentials
import LeamojiCore
import LeamojiLab

#if canImport(Glibc)
  import Glibc
#endif

/// leamoji-lab: the model's workshop, apart from the product. What makes and tunes a model
/// (setting its card after the check, re-deriving timelines at other thresholds) lives here;
/// `leamoji` keeps what a parent runs. Thin over the LeamojiLab library.
@main
struct LeamojiLabTool: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leamoji-lab",
    abstract: "The model's workshop: set a model's card, re-derive timelines at other thresholds.",
    discussion: """
      Exit status: 0 done, 64 bad usage, 65 an input file is not usable, 66 an input file is \
      missing or unreadable, 73 the output cannot be written (or exists without --overwrite).

      Examples:
        leamoji-lab card trained.safetensors --output Models/leamoji.safetensors \\
          --scary-threshold 0.38 --evaluation "real check set: ..."
        leamoji-lab retime check.json --from 0.01 --to 0.99 --step 0.01
      """,
    subcommands: [Card.self, Retime.self]
  )

  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch let error as LabError {
      fail(error.message, status: status(error.kind))
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
    let line = "leamoji-lab: " + UnsafeText.neutralised(message) + "\n"
    writeStderr(line)
    Glibc.exit(status)
  }

  static func writeStderr(_ text: String) {
    _ = FileDescriptor.writeAll(Array(text.utf8), to: STDERR_FILENO)
  }

  /// `leamoji`'s exit status for a kind of problem (sysexits).
  static func status(_ kind: ProblemKind) -> Int32 {
    switch kind {
    case .usage: 64
    case .badInput: 65
    case .noInput: 66
    case .cannotWrite: 73
    case .failed: 1
    }
  }
}
