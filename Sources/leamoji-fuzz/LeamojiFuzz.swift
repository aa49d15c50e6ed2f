import ArgumentParser
import Foundation

/// The fuzzer's command line: parses and checks the options, then hands them to `FuzzRun`.
@main
struct LeamojiFuzz: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "leamoji-fuzz",
    abstract: "Mutates seed inputs and runs leamoji on each mutant with a time limit.",
    usage: """
      leamoji-fuzz [--cases <n>] [--seed <s>] [--targets <list>] [<options>]
      leamoji-fuzz --sweep [<options>]
      leamoji-fuzz --seed <s> --case <list> [<options>]
      """,
    discussion: """
      Counts how each run of leamoji ends:
        accepted     exit status 0
        clear error  status 64, 65, 66 or 73 and one stderr line "leamoji: ..."
                     naming the input ("leamoji: warning: ..." lines may come too)
        unclear      anything else: status 1 or undocumented, no or several
                     error lines
        crash        ended by a signal, or a Swift "Fatal error" / crash report
                     on stderr
        hang         still running at the time limit (killed)
      A run that allocates past --memory-limit ends as a crash (Swift's "failed
      to allocate"), not by taking the machine's memory.

      Targets and commands (the variants alternate from case to case):
        video  SampleVideos/*.mp4, cut to their first --clip seconds (no
               re-encoding):
                 leamoji analyze <mutant.mp4> --output <tmp>/MovieData.json
                   [--no-poster]
                 leamoji frames <mutant.mp4> --out <tmp>/frames
        image  a 64x36 PNG that leamoji frames takes from each clip:
                 leamoji classify <mutant.png>
                 leamoji analyze <mutant.png> --no-poster
        model  Models/leamoji.safetensors, mutated mostly in its JSON header:
                 leamoji classify <seed.png> --model <mutant.safetensors>

      Case i mutates target i mod (number of targets) with a generator seeded
      by (seed, i), so --seed S --targets T --case i replays it. Crash, hang
      and unclear inputs are saved under --keep as
      <outcome>-<target>-<command>-seed<S>-case<i>.<ext>, with a .txt beside
      each (reason, mutations, stderr, the commands that rerun and replay it).

      Exit status: 0 no crash or hang (and no unclear ending with --strict),
      1 otherwise, 64 bad usage, 65 a seed file cannot be used, 66 a seed file
      or leamoji is missing, 73 the temporary or --keep folder cannot be
      written.

      Examples:
        leamoji-fuzz                                 # 200 cases, seed 1
        leamoji-fuzz --cases 5000 --seed 7 --keep .build/fuzz-findings --shrink
        leamoji-fuzz --targets model --cases 1000 --timeout 5
        leamoji-fuzz --seed 7 --case 1234 --verbose  # replay one case
        leamoji-fuzz --sweep --keep .build/fuzz-findings
      """
  )

  /// The length the seed videos are cut to unless --clip says otherwise; replay lines
  /// mention --clip only when it differs.
  static let defaultClipSeconds = 3.0

  @Option(help: ArgumentHelp("Number of random cases.", valueName: "n"))
  var cases = 200

  @Option(help: ArgumentHelp("Run seed.", valueName: "s"))
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp("Time limit per run; a run still going is a hang.", valueName: "seconds"))
  var timeout = 20.0

  @Option(
    help: ArgumentHelp(
      "The leamoji binary. (default: the leamoji next to leamoji-fuzz)", valueName: "path"))
  var leamoji: String?

  @Option(
    help: ArgumentHelp(
      "Folder for inputs that crash, hang or end unclearly.", valueName: "dir"))
  var keep = "fuzz-findings"

  @Option(
    help: ArgumentHelp(
      "Any of video,image,model, comma-separated. (default: all three)", valueName: "list"),
    transform: LeamojiFuzz.targetList)
  var targets: [Target] = Target.allCases

  @Option(
    name: .customLong("jobs"),
    help: ArgumentHelp("Cases run at once. (default: number of cores)", valueName: "n"))
  var givenJobs: Int?

  @Option(
    name: .customLong("clip"),
    help: ArgumentHelp(
      "Length the seed videos are cut to; 0 keeps them whole.", valueName: "seconds"))
  var clipSeconds = LeamojiFuzz.defaultClipSeconds

  @Option(
    help: ArgumentHelp(
      "Folder with SampleVideos/ and Models/. (default: found upwards from leamoji-fuzz, "
        + "else the current folder)",
      valueName: "dir"))
  var root: String?

  @Option(
    help: ArgumentHelp("Address-space limit of each leamoji run; 0 for none.", valueName: "mb"))
  var memoryLimit = 4096

  @Flag(
    help: """
      Instead of random cases, the deterministic stage: every 32-bit number of the first video \
      and image seed (box sizes, timescales, durations, display matrix, sample tables, picture \
      sizes) and every number of the model header, set to each of 10 boundary values, under \
      each command (about 3,100 cases); --cases is then ignored.
      """)
  var sweep = false

  @Option(
    name: .customLong("case"),
    help: ArgumentHelp(
      "Run only these case indices (comma-separated), printing each verdict.",
      valueName: "list"),
    transform: LeamojiFuzz.caseIndices)
  var only: [Int]?

  @Flag(
    help: """
      Shrink each crash and hang input (and the first 10 unclear ones) by truncation and chunk \
      removal to a smaller one that still ends the same way; saved beside it as .min.<ext>.
      """)
  var shrink = false

  @Flag(help: "Also fail (exit 1) on unclear endings.")
  var strict = false

  @Flag(help: "Print a line per case.")
  var verbose = false

  /// Cases run at once: --jobs, else one per core.
  var jobs: Int { givenJobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }

  func validate() throws {
    guard cases >= 0, clipSeconds >= 0, memoryLimit >= 0 else {
      throw ValidationError("--cases, --clip and --memory-limit must not be negative")
    }
    guard jobs >= 1, timeout > 0 else {
      throw ValidationError("--jobs and --timeout must be positive")
    }
  }

  func run() throws {
    let status: Int32
    do throws(FuzzError) {
      status = try FuzzRun(options: self).run()
    } catch {
      Campaign.printError("leamoji-fuzz: \(error)")
      throw ExitCode(error.status)
    }
    if status != 0 { throw ExitCode(status) }
  }

  /// "video,model" as targets, each once, in the order given.
  static func targetList(_ text: String) throws -> [Target] {
    var targets: [Target] = []
    for name in text.split(separator: ",") {
      guard let target = Target(rawValue: String(name)) else {
        throw ValidationError("unknown target '\(name)'")
      }
      if !targets.contains(target) { targets.append(target) }
    }
    guard !targets.isEmpty else { throw ValidationError("no target given") }
    return targets
  }

  /// "3,17,1234" as case indices.
  static func caseIndices(_ text: String) throws -> [Int] {
    try text.split(separator: ",").map { part in
      guard let index = Int(part), index >= 0 else {
        throw ValidationError("'\(part)' is not a case index")
      }
      return index
    }
  }
}
