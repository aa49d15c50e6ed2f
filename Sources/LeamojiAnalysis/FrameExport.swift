import FoundationEssentials
import LeamojiCore
import LeamojiVideo

/// `frames`' work: a video's samples written as PNG files named by their second, the way to
/// build one's own training folders.
public final class FrameExport {
  /// What an export wrote.
  public struct Summary: Sendable {
    public let written: Int
    /// The size of the written pictures.
    public let size: PixelSize
    public let corruptPackets: Int
    /// The warning line when the timeline was cut short at an implausible hold, else nil.
    public let timelineNote: String?
  }

  /// A video that fails partway: the frames written before it stay (each one complete).
  public struct PartialFailure: Error, Sendable {
    public let written: Int
    public let error: LeamojiError
  }

  private let sampler: FrameSampler
  private let interval: Double

  /// Opens `video` for sampling every `interval` seconds, at `size` or the display size;
  /// `decodeEverything` decodes every frame rather than only those the samples need.
  /// - Throws: `LeamojiError` when the video cannot be opened.
  public init(
    video: String, interval: Double, size: PixelSize?, decodeEverything: Bool = false
  ) throws(LeamojiError) {
    do {
      sampler = try FrameSampler(
        path: video, interval: interval, size: size, decodeEverything: decodeEverything)
    } catch {
      throw LeamojiError(error)
    }
    self.interval = interval
  }

  /// How many samples the export expects (nil when the duration is unknown).
  public var expectedCount: Int? { sampler.expectedSampleCount }

  /// Writes every sample into `folder` (made if missing). Existing frame files are an error
  /// unless `overwrite`; each file is written whole or not at all.
  /// - Parameter progress: called with the number of files written so far.
  /// - Throws: `LeamojiError` before anything is written (folder problems, existing frames),
  ///   `PartialFailure` when decoding fails partway (the frames before it stay).
  public func write(
    into folder: String, overwrite: Bool, progress: (Int) -> Void
  ) throws -> Summary {
    try Self.prepare(folder: folder, overwrite: overwrite)
    let fractional = interval != interval.rounded()
    var written = 0
    do {
      while let sample = try sampler.next() {
        let name = Self.fileName(for: sample.time, fractional: fractional)
        let path = PathText.appending(name, to: folder)
        let png = try ImageCodec.encodePNG(sample.image)
        do {
          try DurableFile(path).write(png, replacing: overwrite)
        } catch {
          throw LeamojiError(error)
        }
        written += 1
        progress(written)
      }
    } catch let error as MediaError {
      throw PartialFailure(written: written, error: LeamojiError(error))
    }
    return Summary(
      written: written, size: sampler.outputSize, corruptPackets: sampler.corruptPacketCount,
      timelineNote: sampler.timelineBound?.note)
  }

  /// `000042.png`, or `000042.500.png` when the interval has fractions of a second.
  public static func fileName(for time: Double, fractional: Bool) -> String {
    if !fractional { return CFormat.string("%06ld.png", Int(time.rounded())) }
    let milliseconds = Int((time * 1000).rounded())
    return CFormat.string("%06ld.%03ld.png", milliseconds / 1000, milliseconds % 1000)
  }

  /// Whether `name` looks like a file this export writes.
  public static func isFrameFileName(_ name: String) -> Bool {
    guard name.hasSuffix(".png") else { return false }
    let stem = name.dropLast(4)
    return stem.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && stem.count >= 6
  }

  private static func prepare(folder: String, overwrite: Bool) throws(LeamojiError) {
    var isDirectory = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) {
      guard isDirectory else {
        throw LeamojiError.cannotWrite("\(folder): exists and is not a folder")
      }
      if !overwrite,
        let existing = try? FileManager.default.contentsOfDirectory(atPath: folder)
          .sorted().first(where: isFrameFileName)
      {
        let path = PathText.appending(existing, to: folder)
        throw LeamojiError.cannotWrite(
          "\(path): already exists; use another --out folder or --overwrite")
      }
    } else {
      do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      } catch {
        throw LeamojiError.cannotWrite(
          "\(folder): cannot create the folder (\(ErrorText.describe(error)))")
      }
    }
  }
}
