import Dispatch
import FoundationEssentials

/// Work splitting across threads with a fixed, thread-count independent assignment of results.
enum Parallel {
  /// The number of threads used when a caller does not say: the active processor count.
  static var defaultThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Runs `body(i)` for every `i` in `0..<count`, on up to `threads` threads.
  ///
  /// Each index is processed exactly once and the caller stores results by index, so results
  /// never depend on the thread count; only the wall time does.
  static func forEach(_ count: Int, threads: Int, _ body: @Sendable (Int) -> Void) {
    let workers = min(max(threads, 1), count)
    if workers <= 1 {
      for i in 0..<count { body(i) }
      return
    }
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
      var i = worker
      while i < count {
        body(i)
        i += workers
      }
    }
  }

  /// Computes `make(i)` for each index in parallel and returns the results in index order.
  static func map<T>(_ count: Int, threads: Int, _ make: @Sendable (Int) -> T) -> [T] {
    var results = [T?](repeating: nil, count: count)
    results.withUnsafeMutableBufferPointer { buffer in
      let slots = Slots(base: buffer.baseAddress)
      forEach(count, threads: threads) { i in slots.store(make(i), at: i) }
    }
    return results.map { $0! }
  }
}

/// Result slots shared by the workers of `Parallel.map`. Safe because every index is written by
/// exactly one worker and nothing reads until all workers have finished.
private struct Slots<T>: @unchecked Sendable {
  let base: UnsafeMutablePointer<T?>?
  func store(_ value: T, at i: Int) { (base! + i).pointee = value }
}
