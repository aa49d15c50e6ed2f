import Dispatch
import FoundationEssentials
import LeamojiCore

/// Decodes an image file to RGB at a given size. The classifier receives this as a function so
/// that it never depends on the video module (the CLI passes `ImageCodec.decode`).
public typealias ImageDecoder = @Sendable (_ path: String, _ size: PixelSize) throws -> RGBImage

/// Labelled images decoded at one size, stored contiguously (RGB bytes), in a fixed order.
public struct ImageSet: Sendable {
  /// Size of every image.
  public let size: PixelSize
  /// Label names; `labels[i]` indexes into this.
  public let labelNames: [String]
  /// All images' RGB bytes back to back (`count * width * height * 3`).
  public private(set) var pixels: [UInt8]
  /// The label index of each image.
  public private(set) var labels: [Int]
  /// The file each image came from.
  public private(set) var paths: [String]

  /// Number of images.
  public var count: Int { labels.count }
  /// Bytes per image.
  public var imageBytes: Int { size.width * size.height * 3 }

  public init(size: PixelSize, labelNames: [String]) {
    self.size = size
    self.labelNames = labelNames
    self.pixels = []
    self.labels = []
    self.paths = []
  }

  /// Appends one image (which must be `size`).
  public mutating func append(_ image: RGBImage, label: Int, path: String) {
    precondition(image.size == size, "image is \(image.size), set holds \(size)")
    pixels.append(contentsOf: image.pixels)
    labels.append(label)
    paths.append(path)
  }

  /// The RGB bytes of image `index`.
  public func image(_ index: Int) -> ArraySlice<UInt8> {
    pixels[(index * imageBytes)..<((index + 1) * imageBytes)]
  }

  /// The images at `indices`, in that order.
  public func subset(_ indices: [Int]) -> ImageSet {
    var result = ImageSet(size: size, labelNames: labelNames)
    result.pixels.reserveCapacity(indices.count * imageBytes)
    for i in indices {
      result.pixels.append(contentsOf: image(i))
      result.labels.append(labels[i])
      result.paths.append(paths[i])
    }
    return result
  }

  /// A file that could not be decoded, and why.
  public struct Skipped: Sendable, Equatable {
    public let path: String
    public let reason: String
  }

  /// Decodes every item of `folder` at `size` with `decode`, on `threads` threads; files that
  /// fail to decode are skipped and returned. Results are in the folder's order whatever the
  /// thread count. `labelNames` maps the folder's labels (default: the folder's own).
  /// - Throws: `DatasetError.unknownLabel` when the folder has a label outside `labelNames`,
  ///   `.noUsableImages` when nothing could be decoded.
  public static func load(
    _ folder: LabelledFolder, size: PixelSize, labelNames: [String]? = nil, threads: Int = 2,
    decode: ImageDecoder, progress: (@Sendable (Int) -> Void)? = nil
  ) throws(DatasetError) -> (images: ImageSet, skipped: [Skipped]) {
    let names = labelNames ?? folder.labels
    var mapping: [Int] = []
    for label in folder.labels {
      guard let index = names.firstIndex(of: label) else {
        throw .unknownLabel(path: folder.root, label: label, known: names)
      }
      mapping.append(index)
    }
    let items = folder.items
    let outcomes = decodeAll(
      items.map(\.path), size: size, threads: threads, decode: decode, progress: progress)
    var set = ImageSet(size: size, labelNames: names)
    var skipped: [Skipped] = []
    for (i, item) in items.enumerated() {
      switch outcomes[i] {
      case .success(let image): set.append(image, label: mapping[item.label], path: item.path)
      case .failure(let failure): skipped.append(Skipped(path: item.path, reason: failure.reason))
      }
    }
    if set.count == 0 { throw .noUsableImages(path: folder.root) }
    return (set, skipped)
  }
}

extension ImageSet {
  /// Decodes `paths` at `size` with `decode` on `threads` threads; the outcomes are in the
  /// order of `paths` whatever the thread count (a picture of another size is a failure).
  /// `progress` gets the number done so far, from the first worker.
  static func decodeAll(
    _ paths: [String], size: PixelSize, threads: Int, decode: ImageDecoder,
    progress: (@Sendable (Int) -> Void)? = nil
  ) -> [Result<RGBImage, DecodeFailure>] {
    let results = Locked(
      [Result<RGBImage, DecodeFailure>](
        repeating: .failure(DecodeFailure(reason: "not decoded")), count: paths.count))
    let done = Locked(0)
    let workers = max(1, min(threads, paths.count))
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var i = worker
      while i < paths.count {
        let outcome: Result<RGBImage, DecodeFailure>
        do {
          let image = try decode(paths[i], size)
          outcome =
            image.size == size
            ? .success(image) : .failure(DecodeFailure(reason: "decoded at the wrong size"))
        } catch {
          outcome = .failure(DecodeFailure(reason: String(describing: error)))
        }
        results.withValue { $0[i] = outcome }
        let finished = done.withValue { n -> Int in
          n += 1
          return n
        }
        if worker == 0 { progress?(finished) }
        i += workers
      }
    }
    return results.withValue { $0 }
  }
}

/// Why one file of a folder could not be decoded.
struct DecodeFailure: Error {
  let reason: String
}
