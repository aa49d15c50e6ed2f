#if canImport(Glibc)
  import Glibc
#endif

/// A plain mutual-exclusion lock (a pthread mutex this object owns and frees), in place of
/// Foundation's `NSLock`: leamoji links only FoundationEssentials (see `PathText`).
public final class ThreadLock: @unchecked Sendable {
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  public init() {
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  public func lock() { pthread_mutex_lock(mutex) }
  public func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` holding the lock.
  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A thread of its own for work that blocks for the life of the process (a signal watcher),
/// in place of Foundation's `Thread`.
public enum DetachedThread {
  /// Starts `body` on a new detached thread.
  /// - Returns: false when no thread could be created.
  @discardableResult
  public static func start(_ body: @escaping @Sendable () -> Void) -> Bool {
    guard let thread = spawn(body) else { return false }
    pthread_detach(thread)
    return true
  }

  /// Starts `body` on a new joinable thread (the caller detaches or joins it); nil when no
  /// thread could be created, and `body` is then released unrun.
  static func spawn(_ body: @escaping @Sendable () -> Void) -> pthread_t? {
    let box = Unmanaged.passRetained(Box(body: body)).toOpaque()
    var thread = pthread_t()
    let started = pthread_create(
      &thread, nil,
      { raw in
        let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
        box.body()
        return nil
      }, box)
    guard started == 0 else {
      Unmanaged<Box>.fromOpaque(box).release()
      return nil
    }
    return thread
  }

  private final class Box {
    let body: @Sendable () -> Void
    init(body: @escaping @Sendable () -> Void) { self.body = body }
  }
}
