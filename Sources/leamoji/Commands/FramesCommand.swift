import ArgumentParser
import FoundationEssentials
import LeamojiAnalysis
import LeamojiCommandLine
import LeamojiCore

/// `leamoji frames`: the sampled frames as PNG files, to look at or sort into training folders.
struct Frames: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "frames",
    abstract: "Write the sampled frames of a video as PNG files named by their second.",
    discussion: """
      One PNG per sample: 000000.png, 000001.png, ... (with a fractional --interval the names \
      carry milliseconds: 000000.000.png, 000000.500.png, ...). Each is the frame on screen at \
      that second. Sort them into Happy/, Neutral/ and Scary/ folders to train your own model. \
      Existing frame files in the output folder are not overwritten unless --overwrite is given.

      Examples:
        leamoji frames SampleVideos/meadow-storm.mp4 --out frames/
        leamoji frames movie.mkv --out thumbnails/ --interval 2 --size 320x180
      """
  )

  @Argument(help: "The video to sample.", completion: .file())
  var video: String

  @Option(
    name: .long, help: "Folder for the PNG files (created if missing).", completion: .directory)
  var out: String

  @Option(name: .long, help: "Seconds between samples.")
  var interval: Double = 1

  @Option(name: .long, help: "Size of the PNG files as WxH (default: the video's display size).")
  var size: String?

  @Flag(name: .long, help: "Replace frame files that already exist in the output folder.")
  var overwrite = false

  @Flag(help: "Decode every frame, not only those needed (same frames, slower).")
  var decodeAll = false

  func validate() throws {
    guard interval.isFinite, interval >= 0.001, interval <= 86_400 else {
      throw ValidationError("--interval must be a number of seconds between 0.001 and 86400")
    }
    if let size, PixelSize(parsing: size) == nil {
      throw ValidationError("--size must look like 320x180 (width x height, 1 to 16384 each)")
    }
  }

  func run() throws {
    let export: FrameExport
    do {
      export = try FrameExport(
        video: video, interval: interval, size: size.flatMap(PixelSize.init(parsing:)),
        decodeEverything: decodeAll)
    } catch {
      throw CommandFailure(error)
    }
    let progress = ProgressBar(label: "frames", total: export.expectedCount)
    defer { progress.finish() }
    let summary: FrameExport.Summary
    do {
      summary = try export.write(into: out, overwrite: overwrite) { progress.update($0) }
    } catch let partial as FrameExport.PartialFailure {
      progress.finish()
      if partial.written > 0 {
        Console.print("Wrote \(partial.written) frames to \(out) before the error")
      }
      throw CommandFailure(partial.error)
    }
    progress.finish()
    if summary.corruptPackets > 0 {
      Console.warning("\(video): skipped \(summary.corruptPackets) damaged packets")
    }
    if let note = summary.timelineNote { Console.warning(note) }
    let every = Frames.secondsText(interval)
    Console.print("Wrote \(summary.written) frames (\(summary.size), every \(every) s) to \(out)")
  }

  static func secondsText(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
