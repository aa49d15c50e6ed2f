import Dispatch
import LeamojiCore
import LeamojiNN

/// The one way images become network input: batches `[n, 3, height, width]` of
/// `InputNormalisation`'s `(pixel / 255 − mean) / std`, with optional augmentation of the
/// `pixel / 255` values in between. Training, evaluation and classification all use it, so the
/// same image always gives the same input, bit for bit.
///
/// Each image is made in one pass from its RGB bytes into its slot of the batch
/// (`ImageRender`), with scratch allocated once per thread and batch; `fill` reuses the
/// caller's batch tensor, so a training loop allocates no image-sized memory per batch.
struct BatchMaker: Sendable {
  /// The size of every image.
  let size: PixelSize
  let normalisation: InputNormalisation

  /// The batch for `images[indices]`, in that order. With augmentation, the random choices for
  /// an image depend only on `seed` and the image's index in `images`, never on threads:
  /// images are made on up to `threads` threads, each into its own slot, so the batch is the
  /// same bits for any thread count.
  func batch(
    from images: ImageSet, indices: [Int], augment: Augmentation = [], seed: UInt64 = 0,
    threads: Int = 1
  ) -> Tensor {
    var tensor = Tensor(shape: [0])
    fill(&tensor, from: images, indices: indices, augment: augment, seed: seed, threads: threads)
    return tensor
  }

  /// `batch(from:indices:augment:seed:threads:)` written into `tensor`, whose storage is
  /// reused when it already has the batch's shape (and is not shared).
  func fill(
    _ tensor: inout Tensor, from images: ImageSet, indices: [Int], augment: Augmentation = [],
    seed: UInt64 = 0, threads: Int = 1
  ) {
    precondition(images.size == size, "images are \(images.size), batches \(size)")
    let bytes = images.imageBytes
    precondition(indices.allSatisfy { $0 >= 0 && $0 < images.count }, "image index out of range")
    images.pixels.withUnsafeBufferPointer { pixels in
      let base = Shared(pixels.baseAddress)
      make(
        &tensor, from: base, offsets: indices.map { $0 * bytes }, augment: augment,
        seeds: indices.map { seed ^ (UInt64($0) &* 0xD1B5_4A32_D192_ED03) }, threads: threads)
    }
  }

  /// The batch of `images`, each of the maker's size, unaugmented.
  func batch(_ images: [RGBImage]) -> Tensor {
    precondition(images.allSatisfy { $0.size == size }, "images must be \(size)")
    // One contiguous copy, so that every image is read through a stable pointer.
    var pixels: [UInt8] = []
    pixels.reserveCapacity(images.count * size.width * size.height * 3)
    for image in images { pixels += image.pixels }
    let bytes = size.width * size.height * 3
    var tensor = Tensor(shape: [0])
    pixels.withUnsafeBufferPointer { buffer in
      let base = Shared(buffer.baseAddress)
      make(
        &tensor, from: base, offsets: images.indices.map { $0 * bytes }, augment: [],
        seeds: [], threads: 1)
    }
    return tensor
  }

  /// Image `b` of the batch is the RGB bytes at `base + offsets[b]`; `seeds[b]` seeds its
  /// augmentation (no seeds without augmentation).
  private func make(
    _ tensor: inout Tensor, from base: Shared<UInt8>, offsets: [Int], augment: Augmentation,
    seeds: [UInt64], threads: Int
  ) {
    let count = offsets.count
    let (w, h) = (size.width, size.height)
    precondition(w * h * 3 < Int(Int32.max), "image too large")
    let shape = [count, 3, h, w]
    if tensor.shape != shape { tensor = Tensor(shape: shape) }
    let render = ImageRender(size: size, normalisation: normalisation)
    let plane = 3 * w * h
    tensor.data.withUnsafeMutableBufferPointer { out in
      let slots = Shared(UnsafePointer(out.baseAddress))
      let work: @Sendable (Int, Int) -> Void = { first, step in
        let scratch = UnsafeMutablePointer<Float>.allocate(capacity: render.scratchCount)
        defer { scratch.deallocate() }
        var b = first
        while b < count {
          var rng = SplitMix64(seed: augment.isEmpty ? 0 : seeds[b])
          render.render(
            rgb: base.pointer! + offsets[b], augment: augment, rng: &rng,
            into: UnsafeMutablePointer(mutating: slots.pointer!) + b * plane, scratch: scratch)
          b += step
        }
      }
      let workers = min(max(threads, 1), count)
      if workers <= 1 {
        work(0, 1)
      } else {
        DispatchQueue.concurrentPerform(iterations: workers) { work($0, workers) }
      }
    }
  }
}

/// A pointer shared by the threads making a batch: each image reads only its own source
/// bytes and writes only its own slot, and nothing reads a slot before all are made.
private struct Shared<T>: @unchecked Sendable {
  let pointer: UnsafePointer<T>?
  init(_ pointer: UnsafePointer<T>?) { self.pointer = pointer }
}
