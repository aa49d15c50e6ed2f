import Dispatch
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
  /// an image depend only on `seed` and the image's index in `images`, never on threads:
  /// images are made on up to `threads` threads, each into its own slot, so the batch is the
  /// same bits for any thread count (training spends a third of its time here otherwise).
  func batch(
    from images: ImageSet, indices: [Int], augment: Augmentation = [], seed: UInt64 = 0,
    threads: Int = 1
  ) -> Tensor {
    precondition(images.size == size, "images are \(images.size), batches \(size)")
    return batch(
      indices.map { images.image($0) }, augment: augment,
      seeds: indices.map { seed ^ (UInt64($0) &* 0xD1B5_4A32_D192_ED03) }, threads: threads)
  }

  /// The batch of `images`, each of the maker's size, unaugmented.
  func batch(_ images: [RGBImage]) -> Tensor {
    batch(images.map { $0.pixels[...] }, augment: [], seeds: [])
  }

  /// `pixels[b]` is image `b`'s RGB bytes; `seeds[b]` seeds its augmentation.
  private func batch(
    _ pixels: [ArraySlice<UInt8>], augment: Augmentation, seeds: [UInt64], threads: Int = 1
  ) -> Tensor {
    let (w, h) = (size.width, size.height)
    let count = 3 * w * h
    var data = [Float](repeating: 0, count: pixels.count * count)
    data.withUnsafeMutableBufferPointer { out in
      let slots = BatchSlots(base: out.baseAddress)
      let make: @Sendable (Int) -> Void = { [self] b in
        var planes = InputNormalisation.unitPlanes(pixels[b], pixels: w * h)
        if !augment.isEmpty {
          var rng = SplitMix64(seed: seeds[b])
          planes = augment.applied(to: planes, width: w, height: h, rng: &rng)
        }
        normalisation.normalise(
          planes, into: UnsafeMutableBufferPointer(start: slots.base! + b * count, count: count))
      }
      let workers = min(max(threads, 1), pixels.count)
      if workers <= 1 {
        for b in 0..<pixels.count { make(b) }
      } else {
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
          var b = worker
          while b < pixels.count {
            make(b)
            b += workers
          }
        }
      }
    }
    return Tensor(shape: [pixels.count, 3, h, w], data: data)
  }
}

/// The batch's float storage shared by the threads making its images; each image writes only
/// its own slot and nothing reads before all are made.
private struct BatchSlots: @unchecked Sendable {
  let base: UnsafeMutablePointer<Float>?
}
