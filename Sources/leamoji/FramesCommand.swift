import ArgumentParser
import Foundation
import LeamojiCore
import LeamojiVideo

/// `leamoji frames`: the sampled frames as PNG files, to look at or sort into training folders.
struct Frames: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "frames",
    abstract: "Write the sampled frames of a video as PNG files named by their second.",
    discussion: """
      One PNG per sample: 000000.png, 000001.png, ... (with a fractional --interval the names
      carry milliseconds: 000000.000.png, 000000.500.png, ...). Each is the frame on screen at
      that second. Sort them into Happy/, Neutral/ and Scary/ folders to train your own model.
      Existing frame files in the output folder are not overwritten unless --overwrite is given.

      Examples:
        leamoji frames SampleVideos/forest.mp4 --out frames/
        leamoji frames movie.mkv --out frames/ --interval 2 --size 320x180
      """
  )

  @Argument(help: "The video to sample.", completion: .file())
  var video: String

  @Option(name: .long, help: "Folder for the PNG files (created if missing).", completion: .directory)
  var out: String

  @Option(name: .long, help: "Seconds between samples.")
  var interval: Double = 1

  @Option(name: .long, help: "Size of the PNG files as WxH (default: the video's display size).")
  var size: String?

  @Flag(name: .long, help: "Replace frame files that already exist in the output folder.")
  var overwrite = false

  func validate() throws {
    guard interval.isFinite, interval >= 0.001, interval <= 86_400 else {
      throw ValidationError("--interval must be a number of seconds between 0.001 and 86400")
    }
    if let size, PixelSize(parsing: size) == nil {
      throw ValidationError("--size must look like 320x180 (width x height, 1 to 16384 each)")
    }
  }

  func run() throws {
    let sampler: FrameSampler
    do {
      sampler = try FrameSampler(path: video, interval: interval, size: size.flatMap(PixelSize.init(parsing:)))
    } catch {
      throw CommandFailure(error)
    }
    try prepareOutputFolder()
    let expected = sampler.info.duration.map { Int(($0 / interval).rounded(.up)) }
    let progress = ProgressBar(label: "frames", total: expected)
    let fractional = interval != interval.rounded()
    var written = 0
    defer { progress.finish() }
    do {
      while let sample = try sampler.next() {
        let path = (out as NSString).appendingPathComponent(Frames.fileName(for: sample.time, fractional: fractional))
        let png = try ImageCodec.encodePNG(sample.image)
        do {
          try DurableFile(path).write(png, replacing: overwrite)
        } catch {
          throw CommandFailure(error)
        }
        written += 1
        progress.update(written)
      }
    } catch let error as MediaError {
      progress.finish()
      if written > 0 { Console.print("Wrote \(written) frames to \(out) before the error") }
      throw CommandFailure(error)
    }
    progress.finish()
    if sampler.corruptPacketCount > 0 {
      Console.warning("\(video): skipped \(sampler.corruptPacketCount) damaged packets")
    }
    Console.print("Wrote \(written) frames (\(sampler.outputSize), every \(Frames.secondsText(interval)) s) to \(out)")
  }

  /// `000042.png`, or `000042.500.png` when the interval has fractions of a second.
  static func fileName(for time: Double, fractional: Bool) -> String {
    if !fractional { return String(format: "%06d.png", Int(time.rounded())) }
    let milliseconds = Int((time * 1000).rounded())
    return String(format: "%06d.%03d.png", milliseconds / 1000, milliseconds % 1000)
  }

  static func secondsText(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }

  private func prepareOutputFolder() throws {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: out, isDirectory: &isDirectory) {
      guard isDirectory.boolValue else {
        throw CommandFailure("\(out): exists and is not a folder", status: .cannotWrite)
      }
      if !overwrite, let existing = try? FileManager.default.contentsOfDirectory(atPath: out)
        .sorted().first(where: Frames.isFrameFileName)
      {
        throw CommandFailure(
          "\((out as NSString).appendingPathComponent(existing)): already exists; use another --out folder or --overwrite",
          status: .cannotWrite)
      }
    } else {
      do {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      } catch {
        throw CommandFailure("\(out): cannot create the folder (\(error.localizedDescription))", status: .cannotWrite)
      }
    }
  }

  /// Whether `name` looks like a file this command writes.
  static func isFrameFileName(_ name: String) -> Bool {
    guard name.hasSuffix(".png") else { return false }
    let stem = name.dropLast(4)
    return stem.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && stem.count >= 6
  }
}
