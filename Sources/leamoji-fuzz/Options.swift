import Foundation

/// The fuzzer's command line.
struct Options {
  var cases = 200
  var seed: UInt64 = 1
  var timeout = 20.0
  var leamoji: String?
  var keep = "fuzz-findings"
  var targets = Target.allCases
  var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
  var clipSeconds = Options.defaultClipSeconds
  /// The address-space limit of every leamoji run, in MB; 0 for none.
  var memoryLimit = 4096
  var root: String?
  /// Only these case indices (a replay); nil runs 0..<cases.
  var only: [Int]?
  var shrink = false
  var sweep = false
  var strict = false
  var verbose = false
  var help = false

  static let defaultClipSeconds = 3.0

  static let usage = """
    USAGE: leamoji-fuzz [--cases N] [--seed S] [--timeout SECONDS] [--leamoji PATH] [--keep DIR]
                        [--targets video,image,model] [--jobs N] [--clip SECONDS] [--root DIR]
                        [--memory-limit MB] [--sweep] [--case I[,I...]] [--shrink] [--strict]
                        [--verbose]

    Mutates seed inputs and runs leamoji on each mutant with a time limit, counting how each run ends:
      accepted     exit status 0
      clear error  status 64, 65, 66 or 73 and one stderr line "leamoji: ..." naming the input
                   (lines "leamoji: warning: ..." may come with it)
      unclear      anything else: status 1 or undocumented, no or several error lines
      crash        ended by a signal, or a Swift "Fatal error" / crash report on stderr
      hang         still running at the time limit (killed)
    A run that allocates past --memory-limit ends as a crash (Swift's "failed to allocate"),
    not by taking the machine's memory.

    Targets and commands (the variants alternate from case to case):
      video  SampleVideos/*.mp4, cut to their first --clip seconds (no re-encoding):
             leamoji analyze <mutant.mp4> --output <tmp>/MovieData.json [--no-poster]
             leamoji frames <mutant.mp4> --out <tmp>/frames
      image  a 64x36 PNG that leamoji frames takes from each clip:
             leamoji classify <mutant.png>   and   leamoji analyze <mutant.png> --no-poster
      model  Models/leamoji.safetensors, mutated mostly in its JSON header:
             leamoji classify <seed.png> --model <mutant.safetensors>

    Case i mutates target i mod (number of targets) with a generator seeded by (seed, i), so
    --seed S --targets T --case i replays it. Crash, hang and unclear inputs are saved under
    --keep as <outcome>-<target>-<command>-seed<S>-case<i>.<ext>, with a .txt beside each
    (reason, mutations, stderr, the command to rerun it).

    OPTIONS:
      --cases N          Number of cases. (default: 200)
      --seed S           Run seed. (default: 1)
      --timeout SECONDS  Time limit per run; a run still going is a hang. (default: 20)
      --leamoji PATH     The leamoji binary. (default: the leamoji next to leamoji-fuzz)
      --keep DIR         Folder for inputs that crash, hang or end unclearly. (default: fuzz-findings)
      --targets LIST     Any of video,image,model. (default: all three)
      --jobs N           Cases run at once. (default: number of cores)
      --clip SECONDS     Length the seed videos are cut to; 0 keeps them whole. (default: 3)
      --root DIR         Folder with SampleVideos/ and Models/. (default: found upwards from
                         leamoji-fuzz, else the current folder)
      --memory-limit MB  Address-space limit of each leamoji run; 0 for none. (default: 4096)
      --sweep            Instead of random cases, the deterministic stage: every 32-bit number
                         of the first video and image seed (box sizes, timescales, durations,
                         display matrix, sample tables, picture sizes) and every number of the
                         model header, set to each of 10 boundary values, under each command
                         (about 5,000 cases); --cases is then ignored.
      --case LIST        Run only these case indices (comma-separated), printing each verdict.
      --shrink           Shrink each crash and hang input (and the first 10 unclear ones) by
                         truncation and chunk removal to a smaller one that still ends the
                         same way; saved beside it as .min.<ext>.
      --strict           Also fail (exit 1) on unclear endings.
      --verbose          Print a line per case.
      -h, --help         Show this help.

    EXIT STATUS: 0 no crash or hang (and no unclear ending with --strict), 1 otherwise,
    64 bad usage, 65 a seed file cannot be used, 66 a seed file or leamoji is missing,
    73 the temporary or --keep folder cannot be written.

    EXAMPLES:
      leamoji-fuzz                                   # 200 cases, seed 1
      leamoji-fuzz --cases 5000 --seed 7 --keep .build/fuzz-findings --shrink
      leamoji-fuzz --targets model --cases 1000 --timeout 5
      leamoji-fuzz --seed 7 --case 1234 --verbose    # replay one case
      leamoji-fuzz --sweep --keep .build/fuzz-findings
    """

  /// Parses the arguments (without the program name).
  init(parsing arguments: [String]) throws(UsageError) {
    var rest = arguments[...]
    func value(_ name: String) throws(UsageError) -> String {
      guard let next = rest.popFirst() else { throw UsageError("\(name) needs a value") }
      return next
    }
    func number<T: LosslessStringConvertible>(_ name: String, _ type: T.Type) throws(UsageError) -> T {
      let text = try value(name)
      guard let parsed = T(text) else { throw UsageError("\(name): '\(text)' is not a valid number") }
      return parsed
    }
    while let argument = rest.popFirst() {
      switch argument {
      case "--cases": cases = try number(argument, Int.self)
      case "--seed": seed = try number(argument, UInt64.self)
      case "--timeout": timeout = try number(argument, Double.self)
      case "--leamoji": leamoji = try value(argument)
      case "--keep": keep = try value(argument)
      case "--targets": targets = try Self.targets(try value(argument))
      case "--jobs": jobs = try number(argument, Int.self)
      case "--clip": clipSeconds = try number(argument, Double.self)
      case "--root": root = try value(argument)
      case "--memory-limit": memoryLimit = try number(argument, Int.self)
      case "--case": only = try Self.indices(try value(argument))
      case "--shrink": shrink = true
      case "--sweep": sweep = true
      case "--strict": strict = true
      case "--verbose": verbose = true
      case "-h", "--help": help = true
      default: throw UsageError("unknown argument '\(argument)'")
      }
    }
    guard cases >= 0, jobs >= 1, timeout > 0, clipSeconds >= 0, memoryLimit >= 0 else {
      throw UsageError("--cases, --clip and --memory-limit must not be negative; --jobs and --timeout must be positive")
    }
  }

  private static func targets(_ text: String) throws(UsageError) -> [Target] {
    var targets: [Target] = []
    for name in text.split(separator: ",") {
      guard let target = Target(rawValue: String(name)) else { throw UsageError("--targets: unknown target '\(name)'") }
      if !targets.contains(target) { targets.append(target) }
    }
    guard !targets.isEmpty else { throw UsageError("--targets: no target given") }
    return targets
  }

  private static func indices(_ text: String) throws(UsageError) -> [Int] {
    var indices: [Int] = []
    for part in text.split(separator: ",") {
      guard let index = Int(part), index >= 0 else { throw UsageError("--case: '\(part)' is not a case index") }
      indices.append(index)
    }
    return indices
  }
}

/// A bad command line; one line.
struct UsageError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
