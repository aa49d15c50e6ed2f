/// The times a `FrameSampler` answers: t_k = k * interval for k = 0, 1, 2, … while t_k is
/// before the stream's end (all of them when its length is unknown). Exact fractions, so that
/// sample times compare with frame timestamps without rounding either way.
struct SampleSchedule {
  let interval: SampleInterval
  /// The stream's length from its start; no sample at or after it.
  let end: ExactTime?
  /// k of the next sample.
  private(set) var nextIndex = 0
  private var finished = false

  init(interval: SampleInterval, end: ExactTime?) {
    self.interval = interval
    self.end = end
  }

  /// t_k of the next sample; nil once the schedule has passed the end or was finished.
  var nextTime: ExactTime? {
    if finished { return nil }
    let time = interval.time(ofSample: nextIndex)
    if let end, !(time < end) { return nil }
    return time
  }

  /// Moves on to the following sample.
  mutating func advance() { nextIndex += 1 }

  /// Ends the schedule early (the stream has no frame left for it).
  mutating func finish() { finished = true }
}

/// The sampling interval as an exact fraction of a second (microsecond precision), so that
/// sample times compare exactly with stream timestamps.
struct SampleInterval {
  let base: TimeBase
  let ticks: Int64

  /// `seconds` rounded to the microsecond (at least one), reduced to lowest terms.
  init(seconds: Double) {
    precondition(seconds > 0 && seconds.isFinite, "sampling interval must be positive")
    var numerator = Int64((seconds * 1_000_000).rounded())
    var denominator: Int64 = 1_000_000
    if numerator == 0 { numerator = 1 }
    let divisor = greatestCommonDivisor(numerator, denominator)
    numerator /= divisor
    denominator /= divisor
    base = TimeBase(num: 1, den: denominator)
    ticks = numerator
  }

  /// k * interval.
  func time(ofSample index: Int) -> ExactTime {
    ExactTime(ticks: Int64(index) * ticks, base: base)
  }
}

private func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
  var (x, y) = (abs(a), abs(b))
  while y != 0 { (x, y) = (y, x % y) }
  return max(x, 1)
}
