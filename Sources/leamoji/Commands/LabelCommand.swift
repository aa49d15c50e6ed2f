import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCommandLine
import LeamojiCore
import LeamojiLabelling
import LeamojiTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// `leamoji label`: sort frames into training folders with one key press each.
struct LabelFrames: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "label",
    abstract: "Sort frames into training folders in the terminal, one key press per frame.",
    discussion: """
      Shows one frame at a time (a video sampled every --interval seconds, or the images of a \
      folder) with the model's guess. Each decision writes the frame as PNG to \
      FOLDER/<Label>/ (Happy/, Neutral/, Scary/ for the shipped model), named \
      <video-id>-<second>.png or after the image, so that `leamoji train FOLDER` reads it as it \
      is. A journal in FOLDER (.leamoji-label.json) makes a second run skip what is already \
      decided and lets u undo across runs. With --test-share, that share of each label's \
      decisions goes to the sibling test folder (FOLDER-test, or test beside a folder named \
      train).

      Keys: 1…9 pick the model's 1st…9th label (a label's first letter works too when it is \
      unique: h, n, s); Enter or space accepts the guess; x skips; u undoes the last decision; \
      ← / → move without deciding; q saves and quits.

      Examples:
        leamoji label SampleVideos/night-walk.mp4 --into labels/
        leamoji label frames/ movie.mp4 --into labels/ --test-share 0.2 --order time
      """
  )

  @Argument(help: "Videos or folders of images.", completion: .file())
  var sources: [String]

  @Option(
    name: .long, help: "Training folder the labelled frames go to (created if missing).",
    completion: .directory)
  var into: String

  @Option(name: .long, help: "Seconds between the frames taken from a video.")
  var interval: Double = 1

  @Option(
    name: .long,
    help: "Order of the frames: uncertain (least confident guess first), time or random.")
  var order: String = LabelOrder.uncertain.rawValue

  @Option(name: .long, help: "Seed of the random order.")
  var seed: UInt64 = 0

  @Option(name: .long, help: "Share of each label's decisions sent to the sibling test folder.")
  var testShare: Double = 0

  @OptionGroup var modelOptions: ModelOptions

  @Option(help: "Canvas size as COLSxROWS (default: the window, following resizes).")
  var size: String?

  func validate() throws {
    guard !sources.isEmpty else { throw ValidationError("give at least one video or folder") }
    guard interval.isFinite, interval >= 0.001, interval <= 86_400 else {
      throw ValidationError("--interval must be a number of seconds between 0.001 and 86400")
    }
    guard LabelOrder(rawValue: order) != nil else {
      throw ValidationError("--order must be uncertain, time or random")
    }
    guard testShare.isFinite, testShare >= 0, testShare <= 1 else {
      throw ValidationError("--test-share must be between 0 and 1")
    }
    if let size, PixelSize(parsing: size) == nil {
      throw ValidationError("--size must look like 120x40 (columns x rows)")
    }
  }

  func run() throws {
    guard TerminalSession.isTerminal() else {
      throw CommandFailure(
        "label needs a terminal (stdin and stdout); to write frames without one use: "
          + "leamoji frames VIDEO --out FOLDER", status: .usage)
    }
    let classifier = try modelOptions.load().classifier
    let progress = BatchProgress(enabled: Console.stderrIsTerminal)
    let report: LabelLoop.Report
    do {
      let found = try LabelSources.read(sources, interval: interval, classifier: classifier) {
        source, done in progress.update(Console.safe(source), done: done, total: nil)
      }
      progress.clear()
      for path in found.unreadableImages {
        Console.warning("\(path): not an image, skipped")
      }
      guard !found.items.isEmpty else {
        throw CommandFailure("\(sources.joined(separator: ", ")): no frames", status: .badInput)
      }
      let items = LabelOrder(rawValue: order)!.arrange(found.items, seed: seed)
      let lock = try Self.lockFolder(into)
      defer { lock.release() }
      let session = try LabelSession(
        folder: into, testShare: testShare, labels: classifier.labelNames, items: items)
      report = try LabelLoop(
        session: session, labels: classifier.labels,
        fixedSize: size.flatMap(PixelSize.init(parsing:))
      ).run()
      let counts = session.counts
      let summary = classifier.labelNames.map { "\($0) \(counts[$0] ?? 0)" }
      Console.print(
        "\(report.decided) decisions this run; in \(into): \(summary.joined(separator: ", ")), "
          + "skipped \(counts[nil] ?? 0), \(session.remaining) of \(items.count) frames left")
    } catch let error as LeamojiError {
      progress.clear()
      throw CommandFailure(error)
    }
    if let signal = report.terminationSignal {
      throw ExitCode(128 + signal)
    }
  }

  /// Creates the labelling folder and takes its journal's lock (one run per folder), saying on
  /// stderr when another run holds it and this one waits. `review --into` files through it too.
  static func lockFolder(_ into: String) throws -> FileLock {
    do {
      try FileManager.default.createDirectory(atPath: into, withIntermediateDirectories: true)
      let lockPath = LabelJournal.path(in: into) + ".lock"
      if isLockedElsewhere(lockPath) {
        Console.writeStderr(
          "\(Console.safe(into)): another leamoji label run is using this folder; waiting for it\n"
        )
      }
      return try FileLock.acquire(lockPath)
    } catch let error as DurableFileError {
      throw CommandFailure(error)
    } catch {
      throw CommandFailure(
        "\(into): cannot create the folder (\(ErrorText.describe(error)))",
        status: .cannotWrite)
    }
  }

  /// True when another process holds the journal's lock (a quick non-blocking look, so that a
  /// second run says why it waits instead of hanging silently).
  static func isLockedElsewhere(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if flock(fd, LOCK_EX | LOCK_NB) == 0 {
      _ = flock(fd, LOCK_UN)
      return false
    }
    return errno == EWOULDBLOCK
  }
}
