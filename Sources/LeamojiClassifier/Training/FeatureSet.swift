import FoundationEssentials
import LeamojiCore
import LeamojiNN

/// Labelled images as a pretrained backbone sees them: one row of pooled features per image
/// (and per horizontally flipped image, when asked), what a head trains on in seconds instead
/// of the images themselves. Made by `FeatureSet.extract`, which computes each image's features
/// once and keeps them in a `FeatureCache`.
public struct FeatureSet: Sendable {
  /// Floats per image.
  public let width: Int
  public let labelNames: [String]
  /// `count × width` floats, image `i`'s at `i * width`.
  public private(set) var features: [Float]
  /// The flipped images' features in the same order, when extracted with `flip`.
  public private(set) var flipped: [Float]?
  public private(set) var labels: [Int]
  public private(set) var paths: [String]
  /// The SHA-256 of each image file (hex): with the labels, what the model card's data digest
  /// is made of.
  public private(set) var digests: [String]

  public var count: Int { labels.count }

  public init(width: Int, labelNames: [String], flip: Bool) {
    self.width = width
    self.labelNames = labelNames
    features = []
    flipped = flip ? [] : nil
    labels = []
    paths = []
    digests = []
  }

  mutating func append(
    features row: [Float], flipped flippedRow: [Float]?, label: Int, path: String, digest: String
  ) {
    features += row
    if let flippedRow { flipped? += flippedRow }
    labels.append(label)
    paths.append(path)
    digests.append(digest)
  }

  /// The images at `indices`, in that order.
  public func subset(_ indices: [Int]) -> FeatureSet {
    var result = FeatureSet(width: width, labelNames: labelNames, flip: flipped != nil)
    for i in indices {
      let range = (i * width)..<((i + 1) * width)
      result.append(
        features: Array(features[range]), flipped: flipped.map { Array($0[range]) },
        label: labels[i], path: paths[i], digest: digests[i])
    }
    return result
  }

  /// Images per label, in label order.
  public var countsPerLabel: [Int] {
    var counts = [Int](repeating: 0, count: labelNames.count)
    for label in labels { counts[label] += 1 }
    return counts
  }

  /// Computes the features of every image of `folder` with `backbone` (the input of its last
  /// layer), taking those already in `cache` from it and adding the others. Images are decoded
  /// in chunks, so memory holds one chunk of pictures, not the folder.
  /// - Parameters:
  ///   - labelNames: the label order (a label of the folder not in it is an error); the
  ///     folder's own when nil.
  ///   - flip: also the features of each image mirrored left to right (the head's only
  ///     augmentation: the others would need the backbone on every step).
  ///   - progress: called with (images done, total).
  /// - Returns: the set, and the files that did not decode (skipped).
  public static func extract(
    _ folder: LabelledFolder, labelNames: [String]? = nil, backbone: Classifier,
    cache: FeatureCache?, flip: Bool, threads: Int, decode: ImageDecoder,
    progress: (Int, Int) -> Void = { _, _ in }
  ) throws(ClassifierError) -> (set: FeatureSet, skipped: [ImageSet.Skipped]) {
    let names = labelNames ?? folder.labels
    var mapping: [Int] = []
    for label in folder.labels {
      guard let index = names.firstIndex(of: label) else {
        throw .badLabels(reason: "label '\(label)' is not one of \(names)")
      }
      mapping.append(index)
    }
    let width = backbone.network.shapes[backbone.network.shapes.count - 2].reduce(1, *)
    var set = FeatureSet(width: width, labelNames: names, flip: flip)
    var skipped: [ImageSet.Skipped] = []
    let items = folder.items
    let chunk = 64
    var start = 0
    while start < items.count {
      let part = Array(items[start..<min(items.count, start + chunk)])
      // Each file's digest names its cache entry; only the missing ones are decoded.
      var digests: [String?] = []
      var rows: [[Float]?] = []
      var flippedRows: [[Float]?] = []
      for item in part {
        guard let bytes = FileManager.default.contents(atPath: item.path) else {
          digests.append(nil)
          rows.append(nil)
          flippedRows.append(nil)
          skipped.append(ImageSet.Skipped(path: item.path, reason: "\(item.path): cannot read"))
          continue
        }
        let digest = SHA256.hex([UInt8](bytes))
        digests.append(digest)
        rows.append(cache?.features(image: digest, flipped: false, width: width))
        flippedRows.append(flip ? cache?.features(image: digest, flipped: true, width: width) : nil)
      }
      // The missing pictures, decoded on `threads` threads, in the chunk's order.
      let wanted = part.indices.filter {
        digests[$0] != nil && (rows[$0] == nil || (flip && flippedRows[$0] == nil))
      }
      let decoded = ImageSet.decodeAll(
        wanted.map { part[$0].path }, size: backbone.inputSize, threads: threads, decode: decode)
      var missing: [Int] = []
      var images: [RGBImage] = []
      for (i, outcome) in zip(wanted, decoded) {
        switch outcome {
        case .success(let image):
          images.append(image)
          missing.append(i)
        case .failure(let failure):
          digests[i] = nil
          skipped.append(ImageSet.Skipped(path: part[i].path, reason: failure.reason))
        }
      }
      if !images.isEmpty {
        let computed = try backbone.features(images, threads: threads)
        let mirrored =
          flip ? try backbone.features(images.map { $0.mirrored() }, threads: threads) : []
        for (j, i) in missing.enumerated() {
          rows[i] = computed[j]
          cache?.store(computed[j], image: digests[i]!, flipped: false)
          if flip {
            flippedRows[i] = mirrored[j]
            cache?.store(mirrored[j], image: digests[i]!, flipped: true)
          }
        }
      }
      for (i, item) in part.enumerated() {
        guard let digest = digests[i], let row = rows[i] else { continue }
        set.append(
          features: row, flipped: flip ? flippedRows[i] : nil, label: mapping[item.label],
          path: item.path, digest: digest)
      }
      start += part.count
      progress(start, items.count)
    }
    return (set, skipped)
  }
}

extension RGBImage {
  /// The image mirrored left to right.
  func mirrored() -> RGBImage {
    var out = self
    let (w, h) = (width, height)
    out.pixels.withUnsafeMutableBufferPointer { dst in
      pixels.withUnsafeBufferPointer { src in
        for y in 0..<h {
          for x in 0..<w {
            let from = (y * w + x) * 3
            let to = (y * w + (w - 1 - x)) * 3
            dst[to] = src[from]
            dst[to + 1] = src[from + 1]
            dst[to + 2] = src[from + 2]
          }
        }
      }
    }
    return out
  }
}
