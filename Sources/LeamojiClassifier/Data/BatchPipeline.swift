import Dispatch
import LeamojiCore
import LeamojiNN

/// An epoch's training batches, made one ahead: while the network trains on batch `b`, batch
/// `b + 1` is made on another thread, into the other of two batch tensors that live as long
/// as the pipeline (so no batch-sized memory is allocated per batch once running).
///
/// A batch's bits depend only on its indices, the epoch's seed and the augmentation
/// (`BatchMaker`), never on when or on which thread it is made, so training gives the same
/// model with or without the pipeline. With one thread (`--threads 1`) nothing runs ahead:
/// each batch is made when it is taken.
final class BatchPipeline: @unchecked Sendable {
  private let maker: BatchMaker
  private let images: ImageSet
  private let augment: Augmentation
  private let threads: Int
  private var batches: [[Int]] = []
  private var seed: UInt64 = 0
  private let slots = [Slot(), Slot()]
  private let group = DispatchGroup()
  private let queue = DispatchQueue(label: "leamoji.batch-pipeline")

  /// One batch tensor, written by the making thread only while the training thread waits
  /// for it or works on the other slot.
  private final class Slot: @unchecked Sendable {
    var tensor = Tensor(shape: [0])
  }

  /// A pipeline making batches of `images` with `augment`; `threads` is the training's thread
  /// count (more than one: make the next batch ahead on a thread of its own).
  init(maker: BatchMaker, images: ImageSet, augment: Augmentation, threads: Int) {
    self.maker = maker
    self.images = images
    self.augment = augment
    self.threads = max(1, threads)
  }

  deinit { group.wait() }

  private var ahead: Bool { threads > 1 }

  /// Starts an epoch: `batches[b]` are batch `b`'s image indices, `seed` the epoch's seed.
  func start(batches: [[Int]], seed: UInt64) {
    group.wait()
    self.batches = batches
    self.seed = seed
    if ahead, !batches.isEmpty { make(0) }
  }

  /// Batch `b` of the epoch (taken in order 0, 1, 2 …); starts making batch `b + 1`. The
  /// caller drops the previous batch before taking the next, so its storage is reused.
  func take(_ b: Int) -> Tensor {
    guard ahead else {
      maker.fill(
        &slots[0].tensor, from: images, indices: batches[b], augment: augment, seed: seed,
        threads: threads)
      return slots[0].tensor
    }
    group.wait()
    if b + 1 < batches.count { make(b + 1) }
    return slots[b % 2].tensor
  }

  /// Waits for any batch still being made (before an early exit).
  func finish() { group.wait() }

  private func make(_ b: Int) {
    let (slot, maker, images, indices) = (slots[b % 2], maker, images, batches[b])
    let (augment, seed) = (augment, seed)
    queue.async(group: group) {
      maker.fill(
        &slot.tensor, from: images, indices: indices, augment: augment, seed: seed, threads: 1)
    }
  }
}
