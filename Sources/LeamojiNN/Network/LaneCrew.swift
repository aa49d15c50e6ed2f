import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Threads that run one sample's steps together ("lanes"), so that a batch of one image still
/// uses every core. Lane 0 is the caller's thread; lanes `1..<count` are threads the crew owns,
/// parked between jobs. Inside a job the lanes meet at a spin barrier after every step: well
/// under a microsecond, where handing each step to a thread pool costs several.
///
/// The threads are the crew's own rather than a shared pool's because a barrier is only safe
/// when every lane is sure to run: a pool may run a job's parts one after the other on one
/// thread, and the first would then wait forever for the second.
final class LaneCrew: @unchecked Sendable {
  let count: Int
  private let state: LaneCrewState
  private var threads: [pthread_t] = []

  /// A crew of `count` lanes (`count - 1` threads of its own).
  init(count: Int) {
    self.count = max(1, count)
    state = LaneCrewState(count: self.count)
    for lane in 1..<self.count {
      let start = Unmanaged.passRetained(LaneStart(state: state, lane: lane)).toOpaque()
      var thread = pthread_t()
      let status = pthread_create(
        &thread, nil,
        { raw in
          let start = Unmanaged<LaneStart>.fromOpaque(raw!).takeRetainedValue()
          start.state.work(lane: start.lane)
          return nil
        }, start)
      if status != 0 {
        // No thread: the job runs without this lane (`run` gives its parts to lane 0).
        Unmanaged<LaneStart>.fromOpaque(start).release()
        break
      }
      threads.append(thread)
    }
    state.lanes = threads.count + 1
  }

  deinit {
    state.stop()
    for thread in threads { pthread_join(thread, nil) }
  }

  /// The lanes the crew runs: `count`, or fewer when a thread could not be started.
  var lanes: Int { state.lanes }

  /// Runs `body(lane)` on every lane at once (lane 0 on the caller's thread) and returns when
  /// all have finished. Inside `body`, `barrier()` waits until every lane has reached it.
  func run(_ body: @escaping (Int) -> Void) {
    state.run(body)
  }

  /// Waits until every lane of the running job has called it as often as this one.
  func barrier() {
    state.barrier()
  }
}

/// What a lane thread is started with.
private final class LaneStart {
  let state: LaneCrewState
  let lane: Int
  init(state: LaneCrewState, lane: Int) {
    self.state = state
    self.lane = lane
  }
}

/// The crew's shared counters; the threads hold this, not the crew, so the crew's owner
/// decides when they stop.
private final class LaneCrewState: @unchecked Sendable {
  /// How long a lane spins before it sleeps: a little longer than one step's imbalance between
  /// lanes, and short enough that a lane waiting for the next frame soon stops using its core.
  static let spinsBeforeYield = 1 << 12
  static let spinsBeforeSleep = 1 << 14

  var lanes: Int
  private let job = Atomic<Int>(0)
  private let finished = Atomic<Int>(0)
  private let arrived = Atomic<Int>(0)
  private let phase = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  /// The running job's body; written before `job` is advanced, read after.
  private var body: ((Int) -> Void)?
  /// One wake-up per lane thread and job (lane `l` waits on `wakeups[l - 1]`).
  private let wakeups: [DispatchSemaphore]

  init(count: Int) {
    lanes = count
    wakeups = (1..<max(2, count)).map { _ in DispatchSemaphore(value: 0) }
  }

  func run(_ body: @escaping (Int) -> Void) {
    guard lanes > 1 else { return body(0) }
    self.body = body
    finished.store(0, ordering: .relaxed)
    job.add(1, ordering: .releasing)
    for lane in 1..<lanes { wakeups[lane - 1].signal() }
    body(0)
    var spins = 0
    while finished.load(ordering: .acquiring) < lanes - 1 { LaneCrewState.pause(&spins) }
    self.body = nil
  }

  func barrier() {
    guard lanes > 1 else { return }
    let current = phase.load(ordering: .acquiring)
    if arrived.add(1, ordering: .acquiringAndReleasing).newValue == lanes {
      arrived.store(0, ordering: .relaxed)
      phase.store(current + 1, ordering: .releasing)
    } else {
      var spins = 0
      while phase.load(ordering: .acquiring) == current { LaneCrewState.pause(&spins) }
    }
  }

  /// A lane thread's life: wait for a job (spinning a little, then asleep), run its part.
  func work(lane: Int) {
    var seen = 0
    while true {
      var spins = 0
      while job.load(ordering: .acquiring) == seen, !stopping.load(ordering: .acquiring),
        spins < LaneCrewState.spinsBeforeSleep
      {
        spins += 1
      }
      wakeups[lane - 1].wait()
      if stopping.load(ordering: .acquiring) { return }
      seen += 1
      if let body { body(lane) }
      finished.add(1, ordering: .releasing)
    }
  }

  func stop() {
    stopping.store(true, ordering: .releasing)
    for wakeup in wakeups { wakeup.signal() }
  }

  /// One turn of a wait loop: spin, and after a while give the core away between checks.
  private static func pause(_ spins: inout Int) {
    spins += 1
    if spins > spinsBeforeYield { sched_yield() }
  }
}
