#if canImport(Glibc)
  import Glibc
#endif

/// Samples one video with two single-threaded `SampleEngine`s at once, each with its own
/// demuxer and decoder, dealt alternate runs of samples (`SampleShare`): the frames one run
/// needs are decoded from a clean start of their own, independently of the other run's, so
/// the two keep two cores busy with little waiting. FFmpeg's frame threads scale worse here:
/// a sampler empties its decoder at every jump to a key frame, and the frame threads wait
/// while it drains.
///
/// The samples come out in sample order. A worker is held back while it is more than
/// `window` samples ahead of the caller, which bounds the samples waiting (and so memory).
/// An engine that is no longer clean (a shortcut switched off, damage, an error) stops both:
/// the caller then samples the rest sequentially (`FrameSampler`), so the counts and
/// concealment of damage are exactly those of the sequential path.
final class ParallelSampling: @unchecked Sendable {
  /// What a worker says about the next sample of its share.
  enum Outcome {
    case sample(SampledFrame)
    /// The video has no more samples.
    case end
    /// The engine stopped being clean or failed: sample sequentially from here.
    case unclean
  }

  /// One engine and the outcomes it has produced but the caller not yet taken.
  private final class Worker {
    let engine: SampleEngine
    var outcomes: [Outcome] = []
    var thread: pthread_t? = nil

    init(engine: SampleEngine) { self.engine = engine }
  }

  private let workers: [Worker]
  private let run: Int
  private let window: Int
  private let monitor = Monitor()
  /// Samples handed to the caller (guarded by `monitor`).
  private var delivered = 0
  /// Set to end the workers (guarded by `monitor`).
  private var cancelled = false

  /// Engines in share order (engine i answers `SampleShare(run:part: i, parts:)`).
  /// - Parameter window: how many samples past the caller's next one a worker may start.
  init(engines: [SampleEngine], run: Int, window: Int) {
    workers = engines.map(Worker.init)
    self.run = run
    self.window = window
  }

  deinit { stop() }

  /// Starts the worker threads; false when a thread cannot be created (nothing runs then).
  func start() -> Bool {
    for index in workers.indices {
      let context = Unmanaged.passRetained(WorkerStart(sampling: self, index: index))
      var thread = pthread_t()
      let created = pthread_create(
        &thread, nil,
        { raw in
          let start = Unmanaged<WorkerStart>.fromOpaque(raw!).takeRetainedValue()
          start.sampling.work(start.index)
          return nil
        }, context.toOpaque())
      guard created == 0 else {
        context.release()
        stop()
        return false
      }
      monitor.locked { workers[index].thread = thread }
    }
    return true
  }

  /// Ends the workers and waits for them (idempotent).
  func stop() {
    monitor.locked {
      cancelled = true
      monitor.broadcast()
    }
    for worker in workers {
      let thread = monitor.locked { () -> pthread_t? in
        defer { worker.thread = nil }
        return worker.thread
      }
      if let thread { pthread_join(thread, nil) }
    }
  }

  /// The outcome for the next sample in order (waits for the worker answering it).
  func next() -> Outcome {
    monitor.locked {
      let index = delivered
      let worker = workers[SampleShare.owner(of: index, run: run, parts: workers.count)]
      while worker.outcomes.isEmpty { monitor.wait() }
      let outcome = worker.outcomes.removeFirst()
      if case .sample(let sample) = outcome {
        // Out of order would mean the shares overlap: never deliver it.
        guard sample.index == index else { return .unclean }
        delivered += 1
        monitor.broadcast()
      }
      return outcome
    }
  }

  /// How the engines decoded so far, as one summary.
  var decoding: DecodingSummary {
    let parts = workers.map(\.engine.decoding)
    let read = parts.map(\.packetsRead).max() ?? 0
    let sent = parts.reduce(0) { $0 + $1.packetsRead - $1.packetsSkipped }
    return DecodingSummary(
      packetsRead: read, packetsSkipped: max(0, read - sent),
      framesDecoded: parts.reduce(0) { $0 + $1.framesDecoded },
      restarts: parts.reduce(0) { $0 + $1.restarts }, fallbackReason: nil,
      parallelDecoders: workers.count, runSamples: run)
  }

  /// A worker thread's loop: the samples of engine `index`'s share, in order, until the end,
  /// an unclean engine or cancellation.
  private func work(_ index: Int) {
    let worker = workers[index]
    let engine = worker.engine
    while true {
      let upcoming = engine.nextIndex
      let go = monitor.locked { () -> Bool in
        while !cancelled && upcoming >= delivered + window { monitor.wait() }
        return !cancelled
      }
      guard go else { return }
      let outcome: Outcome
      do {
        if let sample = try engine.next() {
          outcome = engine.isClean ? .sample(sample) : .unclean
        } else {
          outcome = engine.isClean ? .end : .unclean
        }
      } catch {
        outcome = .unclean
      }
      monitor.locked {
        worker.outcomes.append(outcome)
        monitor.broadcast()
      }
      guard case .sample = outcome else { return }
    }
  }

  private final class WorkerStart {
    let sampling: ParallelSampling
    let index: Int
    init(sampling: ParallelSampling, index: Int) {
      self.sampling = sampling
      self.index = index
    }
  }
}

/// A pthread mutex with one condition variable; this object is their one owner.
final class Monitor: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  init() {
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
    condition.deallocate()
  }

  /// Runs `body` holding the mutex.
  func locked<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }

  /// Waits for a `broadcast` (call only inside `locked`).
  func wait() { pthread_cond_wait(condition, mutex) }

  /// Wakes every waiter (call inside `locked`).
  func broadcast() { pthread_cond_broadcast(condition) }
}
