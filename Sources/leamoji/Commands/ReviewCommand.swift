import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiCommandLine
import LeamojiCore
import LeamojiLabelling
import LeamojiTerminal
import LeamojiTimeline

/// `leamoji review`: correct an analysed video's timeline in the terminal.
struct Review: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Correct an analysed video's emoji timeline in the terminal.",
    discussion: """
      Steps through the video's timeline second by second in label's view: the frame large, \
      the timeline's label and confidence for that second, and where it is among the scenes. \
      A label key sets the label from the current second to the end of its scene. Each \
      correction is saved at once in the video's entry in the timeline file, as userEdits \
      (confidence 1), which a later `leamoji analyze` of the video applies again; <id>.vtt and \
      <id>.srt beside the file are rewritten when they are there. With --into, each corrected \
      second's frame is also filed as a training image, as `leamoji label` does.

      Keys: 1…9 pick the model's 1st…9th label (a label's first letter works too when it is \
      unique: h, n, s); ↑ / ↓ or k / j move between scenes; ← / → between seconds; u undoes \
      this run's last correction; q quits.

      Examples:
        leamoji analyze SampleVideos/night-walk.mp4 --vtt
        leamoji review SampleVideos/night-walk.mp4 --into labels/
      """
  )

  @Argument(help: "The analysed video.", completion: .file())
  var video: String

  @Option(help: "The timeline file.", completion: .file(extensions: ["json"]))
  var data = MovieData.defaultFileName

  @Option(help: "The entry's id (default: found from the video's file name).")
  var id: String?

  @Option(
    name: .long,
    help: "Training folder the corrected frames also go to, as with label (created if missing).",
    completion: .directory)
  var into: String?

  @Option(help: "Canvas size as COLSxROWS (default: the window, following resizes).")
  var size: String?

  func validate() throws {
    if let size, PixelSize(parsing: size) == nil {
      throw ValidationError("--size must look like 120x40 (columns x rows)")
    }
  }

  func run() throws {
    guard TerminalSession.isTerminal() else {
      throw CommandFailure(
        "review needs a terminal (stdin and stdout); to see the timeline without one use: "
          + "leamoji timeline VIDEO", status: .usage)
    }
    guard FileManager.default.fileExists(atPath: video) else {
      throw CommandFailure("\(video): no such file", status: .noInput)
    }
    let report: ReviewLoop.Report
    let session: ReviewSession
    do {
      var lock: FileLock? = nil
      if let into { lock = try LabelFrames.lockFolder(into) }
      defer { lock?.release() }
      session = try ReviewSession(
        video: video, store: MovieStore(path: data), id: id, folder: into)
      report = try ReviewLoop(session: session, fixedSize: size.flatMap(PixelSize.init(parsing:)))
        .run()
    }
    Console.print(
      "\(report.corrections) correction\(report.corrections == 1 ? "" : "s") this run saved in "
        + "\(data) (entry \(session.id), \(session.earlierEdits.count + report.corrections) in all)"
    )
    if let signal = report.terminationSignal {
      throw ExitCode(128 + signal)
    }
  }
}
