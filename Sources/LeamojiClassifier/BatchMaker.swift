import LeamojiCore
import LeamojiNN

/// The one way images become network input: batches `[n, 3, height, width]` of
/// `InputNormalisation`'s `(pixel / 255 − mean) / std`, with optional augmentation of the
/// `pixel / 255` values in between. Training, evaluation and classification all use it, so the
/// same image always gives the same input, bit for bit.
struct BatchMaker: Sendable {
  /// The size of every image.
  let size: PixelSize
  let normalisation: InputNormalisation

  /// The batch for `images[indices]`, in that order. With augmentation, the random choices for
  /// an image depend only on `seed` and the image's index in `images`, never on threads.
  func batch(
    from images: ImageSet, indices: [Int], augment: Augmentation = [], seed: UInt64 = 0
  ) -> Tensor {
    precondition(images.size == size, "images are \(images.size), batches \(size)")
    return batch(
      indices.map { images.image($0) }, augment: augment,
      seeds: indices.map { seed ^ (UInt64($0) &* 0xD1B5_4A32_D192_ED03) })
  }

  /// The batch of `images`, each of the maker's size, unaugmented.
  func batch(_ images: [RGBImage]) -> Tensor {
    batch(images.map { $0.pixels[...] }, augment: [], seeds: [])
  }

  /// `pixels[b]` is image `b`'s RGB bytes; `seeds[b]` seeds its augmentation.
  private func batch(
    _ pixels: [ArraySlice<UInt8>], augment: Augmentation, seeds: [UInt64]
  ) -> Tensor {
    let (w, h) = (size.width, size.height)
    let count = 3 * w * h
    var data = [Float](repeating: 0, count: pixels.count * count)
    data.withUnsafeMutableBufferPointer { out in
      for (b, rgb) in pixels.enumerated() {
        var planes = InputNormalisation.unitPlanes(rgb, pixels: w * h)
        if !augment.isEmpty {
          var rng = SplitMix64(seed: seeds[b])
          planes = augment.applied(to: planes, width: w, height: h, rng: &rng)
        }
        let slot = out[(b * count)..<((b + 1) * count)]
        normalisation.normalise(planes, into: UnsafeMutableBufferPointer(rebasing: slot))
      }
    }
    return Tensor(shape: [pixels.count, 3, h, w], data: data)
  }
}
