#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A source of monotonic time in seconds, injected into the `Pacer` so that tests can drive
/// time by hand instead of sleeping.
public protocol PlaybackClock {
  /// Seconds since an arbitrary fixed point; never goes backwards.
  func now() -> Double
}

/// The real clock: `clock_gettime(CLOCK_MONOTONIC)`, which wall-clock changes (NTP, the user
/// setting the date) do not move.
public struct MonotonicClock: PlaybackClock, Sendable {
  public init() {}

  /// Seconds of `CLOCK_MONOTONIC`.
  public func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1_000_000_000
  }
}
