import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Whether `condition` holds within `seconds`, polled every millisecond (on a monotonic clock);
/// it returns as soon as it holds, so a long limit costs only on a starved machine.
public func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
  while DispatchTime.now().uptimeNanoseconds < deadline {
    if condition() { return true }
    usleep(1_000)
  }
  return condition()
}
