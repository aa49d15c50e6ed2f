/// While `VideoPlayback` seeks, leaves out the disposable frames (see `PacketKind`) between the
/// key frame it lands on and the target that cannot be the frame on screen at the target:
/// another packet starts after them and no later than the target. Playing on decodes every
/// frame. Off for the rest of the file at the first sign that packet times cannot be trusted
/// or of damage, as `SamplingShortcuts` is.
final class SeekShortcut: PacketFilter {
  private let clock: StreamClock
  /// The time being sought, in seconds from the stream's start; nil while playing.
  var target: Double? = nil {
    didSet { recentSent.removeAll(keepingCapacity: true) }
  }
  private var isActive = true
  private var recentSent: [Int64] = []
  private var lastOutputTicks: Int64? = nil

  init(clock: StreamClock) {
    self.clock = clock
  }

  func decision(for facts: PacketFacts, queue: PacketQueue) -> PacketDecision {
    shouldDecode(facts, queue: queue) ? .decode : .skip
  }

  private func shouldDecode(_ facts: PacketFacts, queue: PacketQueue) -> Bool {
    guard isActive, let target, facts.kind?.isDisposable == true, let ticks = facts.ticks,
      clock.seconds(ticks) < target
    else { return true }
    if facts.isHidden { return false }
    queue.fill(to: SamplingShortcuts.witnessWindow)
    guard isActive else { return true }
    func replaces(_ other: Int64) -> Bool { other > ticks && clock.seconds(other) <= target }
    if recentSent.contains(where: replaces) { return false }
    for offset in 0..<min(queue.count, SamplingShortcuts.witnessSearch) {
      let other = queue[offset]
      if !other.isHidden, let time = other.ticks, replaces(time) { return false }
    }
    return true
  }

  func didSend(_ facts: PacketFacts) {
    guard target != nil, let ticks = facts.ticks else { return }
    if recentSent.count == 32 { recentSent.removeFirst() }
    recentSent.append(ticks)
  }

  func didRead(_ facts: PacketFacts) {
    if facts.isCorrupt || facts.kind?.isMalformed == true || facts.ticks == nil {
      isActive = false
    }
  }

  func didDecode(pts: Int64?, bestEffort: Int64?) {
    guard let pts, pts == bestEffort else {
      isActive = false
      return
    }
    let ticks = clock.relativeTicks(pts)
    // Across a seek the order starts again; within one, frames come in time order.
    if let last = lastOutputTicks, ticks <= last, target == nil { isActive = false }
    lastOutputTicks = ticks
  }

  func sawDamage() { isActive = false }

  /// A seek starts: frames come from its key frame on.
  func seekStarted(to time: Double) {
    target = time
    lastOutputTicks = nil
  }
}
