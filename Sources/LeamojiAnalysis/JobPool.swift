import Dispatch
import FoundationEssentials
import LeamojiCore

/// The one pool of parallel jobs the front ends share (`analyze --jobs`, `scenes dataset`,
/// `scenes clip`): jobs `0..<count`, each run once, on at most `workers` threads at a time;
/// a free worker takes the next job in order. Returns when every job has finished. What a job
/// reports or fails with is the job's own business (collect it under a `Locked`).
public enum JobPool {
  /// One worker per active core.
  public static var defaultWorkers: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

  /// Runs `job(index)` for every index of `0..<count` on `workers` threads (at least one, at
  /// most `count`).
  public static func run(
    _ count: Int, workers: Int = defaultWorkers, _ job: @Sendable (Int) -> Void
  ) {
    guard count > 0 else { return }
    let next = Locked(0)
    DispatchQueue.concurrentPerform(iterations: min(max(1, workers), count)) { _ in
      while let index = next.withValue({ n -> Int? in
        guard n < count else { return nil }
        n += 1
        return n - 1
      }) {
        job(index)
      }
    }
  }
}
