#if canImport(Glibc)
  import Glibc
#endif

/// Hands values from one producing thread to one consuming thread in order, holding at most
/// `capacity` of them: the producer waits while it is full, the consumer while it is empty.
/// Both wait asleep (a pthread condition), never spinning, so that a waiting side leaves its
/// core to the other side's work.
///
/// The producer ends the stream with `finish(throwing:)` (nil: a normal end); the consumer
/// can stop the producer early with `cancel()`, after which `put` answers false at once.
public final class Handoff<Element>: @unchecked Sendable {
  public let capacity: Int
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var items: [Element?]
  private var head = 0
  private var count = 0
  private var ended = false
  private var failure: (any Error)? = nil
  private var cancelled = false

  public init(capacity: Int) {
    precondition(capacity >= 1, "a hand-off holds at least one value")
    self.capacity = capacity
    items = Array(repeating: nil, count: capacity)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    changed.initialize(to: pthread_cond_t())
    pthread_cond_init(changed, nil)
  }

  deinit {
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(mutex)
    changed.deinitialize(count: 1)
    changed.deallocate()
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Producer: adds `value`, waiting while the hand-off is full. False when the consumer has
  /// cancelled (the value is dropped; stop producing).
  @discardableResult
  public func put(_ value: Element) -> Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while count == capacity, !cancelled { pthread_cond_wait(changed, mutex) }
    if cancelled { return false }
    items[(head + count) % capacity] = value
    count += 1
    pthread_cond_broadcast(changed)
    return true
  }

  /// Producer: no more values; `error` (if any) is what the consumer's `take` throws once the
  /// values before it are taken.
  public func finish(throwing error: (any Error)? = nil) {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    ended = true
    failure = error
    pthread_cond_broadcast(changed)
  }

  /// Consumer: the next value in order, waiting while none is there; nil after the last one.
  /// - Throws: the error the producer finished with, after every value before it.
  public func take() throws -> Element? {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    while count == 0, !ended { pthread_cond_wait(changed, mutex) }
    guard count > 0 else {
      if let failure { throw failure }
      return nil
    }
    let value = items[head]
    items[head] = nil
    head = (head + 1) % capacity
    count -= 1
    pthread_cond_broadcast(changed)
    return value
  }

  /// Consumer: stop the producer (its waiting `put` returns false) and drop what is held.
  public func cancel() {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    cancelled = true
    for i in items.indices { items[i] = nil }
    count = 0
    pthread_cond_broadcast(changed)
  }

  /// Whether the consumer has cancelled (for a producer between values).
  public var isCancelled: Bool {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return cancelled
  }
}

/// A thread of its own whose end can be waited for (`join`), for work that must not wait for
/// a free thread of a shared pool (a pool already busy with the caller could leave it unrun).
public final class JoinableThread: @unchecked Sendable {
  private var thread: pthread_t
  private var joined = false

  private init(thread: pthread_t) { self.thread = thread }

  /// Starts `body` on a new thread; nil when no thread could be made (nothing runs then).
  public static func start(_ body: @escaping @Sendable () -> Void) -> JoinableThread? {
    DetachedThread.spawn(body).map(JoinableThread.init(thread:))
  }

  /// Waits until the body has returned (once; later calls return at once). Not to be called
  /// from the thread itself.
  public func join() {
    guard !joined else { return }
    joined = true
    pthread_join(thread, nil)
  }

  deinit {
    join()
  }
}
