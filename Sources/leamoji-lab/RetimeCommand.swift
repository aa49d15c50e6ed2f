import ArgumentParser
import FoundationEssentials
import LeamojiCore
import LeamojiLab

/// `leamoji-lab retime`: analyze's timeline of each analysed entry at other scary thresholds.
struct Retime: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Re-derive analyze's timeline at other scary thresholds from saved frames.",
    discussion: """
      For each entry of MOVIEDATA with per-second frames (analyze --frames), prints one JSON \
      line per threshold: {"id":...,"labels":[...],"threshold":...}, the label of each frame \
      in time order after smoothing, as analyze would have written it with that scary \
      threshold (analyze --sensitivity p). It runs leamoji's own marker encoder and scene \
      smoother on the frames' probabilities, with the picture alone (as analyze --signals \
      picture). The probabilities are kept to 4 decimals in MovieData.json, so a frame within \
      that rounding of a threshold may differ from analyze's. Entries without frames are \
      skipped. "none" in --thresholds is the most probable label (threshold null).

      Examples:
        leamoji-lab retime check.json --thresholds 0.3,0.38,0.5
        leamoji-lab retime check.json --thresholds none,0.38
        leamoji-lab retime check.json --from 0.01 --to 0.99 --step 0.01
      """
  )

  @Argument(help: "A MovieData.json written by analyze --frames.", completion: .file())
  var movieData: String

  @Option(
    help: ArgumentHelp(
      "Comma-separated scary thresholds, each between 0 and 1, or none.", valueName: "list"))
  var thresholds: String?

  @Option(help: ArgumentHelp("The first threshold of a range.", valueName: "p"))
  var from: Double?

  @Option(help: ArgumentHelp("The last threshold of a range (included).", valueName: "p"))
  var to: Double?

  @Option(help: ArgumentHelp("The range's step.", valueName: "d"))
  var step: Double?

  @Option(help: "Seconds between the frames, as analyze --interval.")
  var interval = 1.0

  func validate() throws {
    _ = try list()
    guard interval.isFinite, interval > 0, interval <= 3600 else {
      throw ValidationError("--interval must be a number of seconds above 0 (got \(interval))")
    }
  }

  /// The thresholds asked for, in order (nil: the most probable label).
  func list() throws -> [Double?] {
    let range = [from, to, step].compactMap { $0 }
    if let thresholds {
      guard range.isEmpty else {
        throw ValidationError("give --thresholds or --from, --to and --step, not both")
      }
      return try thresholds.split(separator: ",", omittingEmptySubsequences: false).map {
        let text = $0.filter { $0 != " " }
        if text == "none" { return nil }
        guard let p = Double(text), p > 0, p < 1 else {
          throw ValidationError(
            "--thresholds takes probabilities between 0 and 1 or none (got \"\(text)\")")
        }
        return p
      }
    }
    guard let from, let to, let step else {
      throw ValidationError("give --thresholds LIST, or --from, --to and --step")
    }
    guard from > 0, from < 1, to > 0, to < 1, from <= to else {
      throw ValidationError("--from and --to take probabilities between 0 and 1, --from first")
    }
    guard step.isFinite, step > 0, (to - from) / step < 10_000 else {
      throw ValidationError("--step must be above 0, and at most 10000 thresholds")
    }
    // Counted, not summed, and kept to millionths, so 0.01 steps give 0.07, not 0.0699999.
    let count = Int(((to - from) / step + 1e-9).rounded(.down))
    return (0...count).map { (((from + Double($0) * step) * 1e6).rounded()) / 1e6 }
  }

  func run() throws {
    let thresholds = try list()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    for retiming in try Retiming.read(path: movieData, interval: interval) {
      for threshold in thresholds {
        let line = Line(
          id: retiming.id, threshold: threshold,
          labels: retiming.labels(scaryThreshold: threshold))
        print(UnsafeText.jsonEscaped(String(decoding: try encoder.encode(line), as: UTF8.self)))
      }
    }
  }

  /// One output line.
  struct Line: Encodable {
    let id: String
    let threshold: Double?
    let labels: [String]

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(id, forKey: .id)
      // null, not absent, for the most probable label.
      try container.encode(threshold, forKey: .threshold)
      try container.encode(labels, forKey: .labels)
    }

    enum CodingKeys: String, CodingKey { case id, threshold, labels }
  }
}
