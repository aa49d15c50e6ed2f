import FoundationEssentials
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTimeline
import LeamojiVideo

/// One frame to decide on in `leamoji label`: where it comes from, its name, and the model's
/// guess.
public struct LabelItem: Sendable {
  /// Where the picture is.
  public enum Origin: Sendable, Equatable {
    /// The frame on screen at `time` seconds of the video at `path`.
    case video(path: String, time: Double)
    /// The image file at `path`.
    case image(path: String)
  }

  /// The file name without `.png`: `<video-id>-<second>` or the image's name without extension.
  public let name: String
  public let origin: Origin
  /// The model's guess.
  public let prediction: Prediction
  /// Position in the sources as given (videos in time order, images by name).
  public let sourceOrder: Int

  public init(name: String, origin: Origin, prediction: Prediction, sourceOrder: Int) {
    self.name = name
    self.origin = origin
    self.prediction = prediction
    self.sourceOrder = sourceOrder
  }

  /// The guess's probability.
  public var confidence: Double { Double(prediction.confidence) }

  /// Where the frame is, for the screen: `night-walk.mp4 at 0:12` or the image's file name.
  public var place: String {
    switch origin {
    case .video(let path, let time):
      let seconds = Int(time)
      let clock = CFormat.string("%ld:%02ld", seconds / 60, seconds % 60)
      return "\(PathText.lastComponent(path)) at \(clock)"
    case .image(let path):
      return PathText.lastComponent(path)
    }
  }
}

/// The order frames are shown in.
public enum LabelOrder: String, CaseIterable, Sendable {
  /// Least confident guess first: each key press teaches the model the most.
  case uncertain
  /// As in the sources: videos in time order, images by name.
  case time
  /// Shuffled (the same shuffle for the same `seed`).
  case random

  /// `items` in this order.
  public func arrange(_ items: [LabelItem], seed: UInt64 = 0) -> [LabelItem] {
    switch self {
    case .time:
      return items.sorted { $0.sourceOrder < $1.sourceOrder }
    case .uncertain:
      return items.sorted {
        $0.confidence != $1.confidence
          ? $0.confidence < $1.confidence : $0.sourceOrder < $1.sourceOrder
      }
    case .random:
      var generator = SplitMix64(seed: seed)
      return items.sorted { $0.sourceOrder < $1.sourceOrder }.shuffled(using: &generator)
    }
  }
}

/// Reads `label`'s sources: samples each video every `interval` seconds, lists each image
/// folder, and has the classifier guess every frame. Pictures are not kept: `LabelPictures`
/// decodes the few on or near the screen again.
public enum LabelSources {
  /// What reading the sources found.
  public struct Result: Sendable {
    public var items: [LabelItem]
    /// Files in image folders that could not be decoded (skipped).
    public var unreadableImages: [String]
  }

  /// The name a video's frames get: `<video-id>-<second>`, the second without a fraction when
  /// it has none (`night-walk-12`, `night-walk-12.5`).
  public static func frameName(videoID: String, time: Double) -> String {
    let milliseconds = Int((time * 1000).rounded())
    if milliseconds % 1000 == 0 { return "\(videoID)-\(milliseconds / 1000)" }
    var fraction = CFormat.string("%03ld", milliseconds % 1000)
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(videoID)-\(milliseconds / 1000).\(fraction)"
  }

  /// Every frame of `sources` (videos or folders of images) with the model's guess.
  /// - Parameter progress: called with the source and the frames read from it so far.
  /// - Throws: `LeamojiError` naming the first source that cannot be read.
  public static func read(
    _ sources: [String], interval: Double, classifier: Classifier,
    progress: (String, Int) -> Void = { _, _ in }
  ) throws(LeamojiError) -> Result {
    var result = Result(items: [], unreadableImages: [])
    var taken: Set<String> = []
    for source in sources {
      var isFolder = false
      guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder) else {
        throw LeamojiError.noInput("\(source): no such file or folder")
      }
      if isFolder {
        try readFolder(source, classifier: classifier, into: &result, taken: &taken) {
          progress(source, $0)
        }
      } else {
        try readVideo(source, interval: interval, classifier: classifier, into: &result) {
          progress(source, $0)
        }
      }
    }
    return result
  }

  private static func readVideo(
    _ path: String, interval: Double, classifier: Classifier, into result: inout Result,
    progress: (Int) -> Void
  ) throws(LeamojiError) {
    let id = MovieID.slug(fromFileName: PathText.lastComponent(path))
    do {
      let sampler = try FrameSampler(path: path, interval: interval, size: classifier.inputSize)
      var batch: [SampledFrame] = []
      var count = 0
      func flush() throws {
        let predictions = try classifier.classify(batch.map(\.image))
        for (sample, prediction) in zip(batch, predictions) {
          result.items.append(
            LabelItem(
              name: frameName(videoID: id, time: sample.time),
              origin: .video(path: path, time: sample.time), prediction: prediction,
              sourceOrder: result.items.count))
        }
        count += batch.count
        batch.removeAll(keepingCapacity: true)
        progress(count)
      }
      while let sample = try sampler.next() {
        batch.append(sample)
        if batch.count == 64 { try flush() }
      }
      try flush()
    } catch let error as MediaError {
      throw LeamojiError(error)
    } catch let error as LeamojiError {
      throw error
    } catch {
      throw LeamojiError.unexpected("\(path): \(error)")
    }
  }

  private static func readFolder(
    _ folder: String, classifier: Classifier, into result: inout Result, taken: inout Set<String>,
    progress: (Int) -> Void
  ) throws(LeamojiError) {
    let names: [String]
    do {
      names = try FolderListing.visibleFileNames(in: folder)
    } catch {
      throw LeamojiError.noInput("\(folder): cannot list the folder")
    }
    var count = 0
    for name in names {
      let path = PathText.appending(name, to: folder)
      guard let image = try? ImageFiles.decode(path: path, size: classifier.inputSize),
        let prediction = try? classifier.classify([image], threads: 1).first
      else {
        result.unreadableImages.append(path)
        continue
      }
      var stem = PathText.deletingExtension(name)
      if stem.isEmpty { stem = name }
      var unique = stem
      var n = 2
      while taken.contains(unique) {
        unique = "\(stem)-\(n)"
        n += 1
      }
      taken.insert(unique)
      result.items.append(
        LabelItem(
          name: unique, origin: .image(path: path), prediction: prediction,
          sourceOrder: result.items.count))
      count += 1
      progress(count)
    }
  }
}

/// Decodes the pictures of items on or near the screen: the full-size frame (what is filed)
/// and a smaller one for the canvas. Keeps a few; the video is opened once per file.
final class LabelPictures {
  struct Picture {
    let full: RGBImage
    let screen: RGBImage
  }

  private var players: [String: VideoPlayback] = [:]
  private var cache: [String: Picture] = [:]
  private var screenSize: (PixelSize) -> PixelSize

  /// - Parameter screenSize: the canvas picture size for a picture of a given size.
  init(screenSize: @escaping (PixelSize) -> PixelSize) {
    self.screenSize = screenSize
  }

  /// Forgets the screen-sized pictures (after a resize).
  func resized(screenSize: @escaping (PixelSize) -> PixelSize) {
    self.screenSize = screenSize
    cache.removeAll()
  }

  /// The item's pictures, decoded now unless cached.
  func picture(for item: LabelItem) throws(LeamojiError) -> Picture {
    if let cached = cache[item.name] { return cached }
    let picture: Picture
    switch item.origin {
    case .video(let path, let time):
      let player: VideoPlayback
      if let open = players[path] {
        player = open
      } else {
        do {
          player = try VideoPlayback(path: path)
        } catch {
          throw LeamojiError(error)
        }
        players[path] = player
      }
      guard player.seek(to: time) != nil else {
        throw LeamojiError.badInput("\(path): no frame at \(time) s")
      }
      do {
        let display = player.info.displaySize
        picture = Picture(
          full: try player.image(size: display),
          screen: try player.image(size: screenSize(display)))
      } catch {
        throw LeamojiError(error)
      }
    case .image(let path):
      let full = try ImageFiles.decode(path: path, size: nil)
      let size = screenSize(full.size)
      let screen = size == full.size ? full : try ImageFiles.decode(path: path, size: size)
      picture = Picture(full: full, screen: screen)
    }
    cache[item.name] = picture
    return picture
  }

  /// Drops every cached picture except those of `names`.
  func keep(only names: Set<String>) {
    cache = cache.filter { names.contains($0.key) }
  }
}
