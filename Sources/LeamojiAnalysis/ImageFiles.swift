import FoundationEssentials
import LeamojiClassifier
import LeamojiCore
import LeamojiVideo

#if canImport(Glibc)
  import Glibc
#endif

/// Still images in and out, for the commands that read or write pictures (classify, train,
/// evaluate, scenes) without touching the video module themselves.
public enum ImageFiles {
  /// Decodes an image file (PNG, JPEG, BMP, WebP, …) to RGB, resized to `size` when given.
  public static func decode(path: String, size: PixelSize?) throws(LeamojiError) -> RGBImage {
    do {
      return try ImageCodec.decode(path: path, size: size)
    } catch {
      throw LeamojiError(error)
    }
  }

  /// The decoder the classifier's folder loading uses (it never sees FFmpeg itself).
  public static let decoder: @Sendable (String, PixelSize) throws -> RGBImage = { path, size in
    try ImageCodec.decode(path: path, size: size)
  }

  /// `image` as PNG bytes.
  public static func png(_ image: RGBImage) throws(LeamojiError) -> [UInt8] {
    do {
      return try ImageCodec.encodePNG(image)
    } catch {
      throw LeamojiError(error)
    }
  }

  /// Labels one image file: decoded at the classifier's input size, then predicted.
  public static func classify(
    path: String, with classifier: Classifier
  ) throws(LeamojiError) -> Prediction {
    let image = try decode(path: path, size: classifier.inputSize)
    do {
      guard let prediction = try classifier.classify([image], threads: 1).first else {
        throw LeamojiError.unexpected("\(path): no prediction")
      }
      return prediction
    } catch let error as LeamojiError {
      throw error
    } catch {
      throw LeamojiError.unexpected("\(path): \(error)")
    }
  }
}

extension ImageFiles {
  /// The pooled features of one image file (`Classifier.features`): decoded at the
  /// classifier's input size.
  public static func features(
    path: String, with classifier: Classifier
  ) throws(LeamojiError) -> [Float] {
    let image = try decode(path: path, size: classifier.inputSize)
    do {
      guard let features = try classifier.features([image], threads: 1).first else {
        throw LeamojiError.unexpected("\(path): no features")
      }
      return features
    } catch let error as LeamojiError {
      throw error
    } catch {
      throw LeamojiError.unexpected("\(path): \(error)")
    }
  }
}

/// Process-wide set-up every front end does once, before any work.
public enum LeamojiProcess {
  /// Silences FFmpeg's own console logging (problems come back as `LeamojiError`s and
  /// counters instead); makes writes past a file-size limit (`ulimit -f`) fail with EFBIG,
  /// reported like a full disk, instead of killing the process halfway through; and has
  /// SIGINT, SIGTERM and SIGHUP remove the temporary files being written before the process
  /// ends by the signal (a terminal session takes them over while it runs: see
  /// `SignalCoordinator`). On a CPU without the instructions the network kernels were built
  /// for, prints why on stderr and exits with status 69 before any network code can crash.
  public static func prepare() {
    if let problem = CPURequirement.problem() {
      _ = FileDescriptor.writeAll(Array("leamoji: \(problem)\n".utf8), to: 2)
      exit(69)
    }
    signal(SIGXFSZ, SIG_IGN)
    FFmpegLogging.silence()
    DurableFile.removeTemporariesOnTermination()
  }

  /// The FFmpeg release and library versions this process runs with (and was built against
  /// where they differ), one line, from LeamojiVideo: for `leamoji --version`.
  public static var ffmpegVersion: String { FFmpegVersion.summary }
}
