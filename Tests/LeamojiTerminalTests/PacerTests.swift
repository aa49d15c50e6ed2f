import Testing

@testable import LeamojiTerminal

@Suite("Pacer")
struct PacerTests {
  /// 10 fps keeps the numbers round.
  let period = 0.1

  func approx(_ decision: FrameDecision, _ delay: Double) -> Bool {
    guard case .show(let d) = decision else { return false }
    return abs(d - delay) < 1e-9
  }

  @Test("on-time frames are shown, each waiting for its own deadline")
  func onTime() {
    let clock = FakeClock(100)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: nil)
    #expect(approx(pacer.decide(pts: 0), 0))  // the first frame anchors the schedule
    #expect(approx(pacer.decide(pts: 0.1), 0.1))
    clock.advance(0.1)
    #expect(approx(pacer.decide(pts: 0.2), 0.1))
    clock.advance(0.25)  // 0.05 s late for 0.3 (due at 100.3): less than a period, shown at once
    #expect(approx(pacer.decide(pts: 0.3), 0))
    clock.advance(0.02)
    #expect(approx(pacer.decide(pts: 0.4), 0.03))
    #expect(pacer.framesShown == 5 && pacer.framesDropped == 0)
    #expect(abs(pacer.mediaTime - 0.37) < 1e-9)
    #expect(abs(pacer.delay(until: 0.5) - 0.13) < 1e-9)
  }

  @Test("deadlines come from the anchor, so slow drawing does not add up as drift")
  func noDrift() {
    let clock = FakeClock(0)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: nil)
    for k in 0..<50 {
      let pts = Double(k) * period
      guard case .show(let delay) = pacer.decide(pts: pts) else {
        Issue.record("frame \(k) dropped")
        return
      }
      clock.advance(delay + 0.03)  // wait, then 30 ms of drawing
      #expect(abs(clock.time - (pts + 0.03)) < 1e-9)
    }
  }

  @Test("frames late by more than a period are dropped, never queued")
  func lateDropped() {
    let clock = FakeClock(100)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: nil)
    #expect(approx(pacer.decide(pts: 0), 0))
    clock.advance(0.35)  // a hiccup: frames 0.1 and 0.2 are now more than 0.1 s late
    #expect(pacer.decide(pts: 0.1) == .drop)
    #expect(pacer.decide(pts: 0.2) == .drop)
    #expect(approx(pacer.decide(pts: 0.3), 0))  // 0.05 s late: shown at once
    #expect(approx(pacer.decide(pts: 0.4), 0.05))  // back on schedule
    #expect(pacer.framesShown == 3 && pacer.framesDropped == 2)
  }

  @Test("a frame whose successor is already due is dropped")
  func successorDue() {
    let clock = FakeClock(100)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: nil)
    _ = pacer.decide(pts: 0)
    clock.advance(0.16)
    #expect(pacer.decide(pts: 0.1, nextPTS: 0.15) == .drop)  // 0.15 was due at 100.15
    #expect(approx(pacer.decide(pts: 0.15, nextPTS: 0.25), 0))
  }

  @Test("pause stops media time; resume re-anchors where it stopped")
  func pauseResume() {
    let clock = FakeClock(100)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: nil)
    _ = pacer.decide(pts: 0)
    clock.advance(1)
    #expect(abs(pacer.mediaTime - 1) < 1e-9)
    pacer.pause()
    clock.advance(5)
    #expect(pacer.isPaused && abs(pacer.mediaTime - 1) < 1e-9)
    #expect(pacer.decide(pts: 1.1) == .paused)
    #expect(pacer.framesShown == 1 && pacer.framesDropped == 0)
    pacer.resume()
    #expect(!pacer.isPaused && abs(pacer.mediaTime - 1) < 1e-9)
    #expect(approx(pacer.decide(pts: 1.1), 0.1))  // not 5 s late
    clock.advance(0.5)
    #expect(abs(pacer.mediaTime - 1.5) < 1e-9)
  }

  @Test("seek resets the schedule at the new time, anchored by the first frame after it")
  func seek() {
    let clock = FakeClock(100)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: nil)
    _ = pacer.decide(pts: 0)
    clock.advance(2)
    pacer.seek(to: 7)
    #expect(abs(pacer.mediaTime - 7) < 1e-9)
    clock.advance(0.3)  // decoding from the key frame before 7 s takes a while
    #expect(abs(pacer.mediaTime - 7) < 1e-9)  // the clock waits for the first frame
    #expect(approx(pacer.decide(pts: 7), 0))
    #expect(approx(pacer.decide(pts: 7.1), 0.1))
    clock.advance(0.25)
    #expect(abs(pacer.mediaTime - 7.25) < 1e-9)
    #expect(pacer.framesDropped == 0)
    pacer.seek(to: 2)  // backwards works the same way
    #expect(approx(pacer.decide(pts: 2.04), 0.04))  // first frame a little after the target
  }

  @Test("seek while paused stays paused at the target")
  func seekWhilePaused() {
    let clock = FakeClock(100)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: nil)
    _ = pacer.decide(pts: 0)
    pacer.pause()
    pacer.seek(to: 12)
    clock.advance(3)
    #expect(pacer.isPaused && abs(pacer.mediaTime - 12) < 1e-9)
    #expect(pacer.decide(pts: 12) == .paused)
    pacer.resume()
    clock.advance(1)
    #expect(abs(pacer.mediaTime - 12) < 1e-9)  // still waiting for the first frame
    #expect(approx(pacer.decide(pts: 12), 0))
  }

  @Test("a decoder slower than real time gives a slide show, not a frozen picture")
  func maximumFreeze() {
    let clock = FakeClock(0)
    var pacer = Pacer(clock: clock, framePeriod: period, maximumFreeze: 0.5)
    _ = pacer.decide(pts: 0)
    var shown: [Double] = []
    for k in 1...40 {
      clock.advance(0.2)  // each frame takes twice its period to decode
      let pts = Double(k) * period
      if case .show = pacer.decide(pts: pts) { shown.append(pts) }
    }
    #expect(shown.count >= 8 && shown.count <= 16)  // about one in three
    #expect(pacer.framesShown + pacer.framesDropped == 41)
  }

  @Test("the monotonic clock advances and never goes back")
  func monotonicClock() {
    let clock = MonotonicClock()
    let a = clock.now()
    var b = clock.now()
    while b - a < 0.002 { b = clock.now() }
    #expect(b > a && b - a < 1)
  }
}
