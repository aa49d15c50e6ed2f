import Testing

@testable import LeamojiVideo

@Suite("Sample schedule")
struct SampleScheduleTests {
  static let tenths = TimeBase(num: 1, den: 10)

  @Test("intervals are exact fractions of a second, to the microsecond")
  func exactIntervals() {
    let interval = SampleInterval(seconds: 0.3)
    #expect(interval.base == Self.tenths && interval.ticks == 3)
    #expect(interval.time(ofSample: 2) == ExactTime(ticks: 6, base: Self.tenths))
    let twoAndAHalf = SampleInterval(seconds: 2.5)
    #expect(twoAndAHalf.base == TimeBase(num: 1, den: 2) && twoAndAHalf.ticks == 5)
    let tiny = SampleInterval(seconds: 1e-9)
    #expect(tiny.base == TimeBase(num: 1, den: 1_000_000) && tiny.ticks == 1, "at least 1 µs")
  }

  @Test("times run k * interval and stop before the end, a sample at the end excluded")
  func stopsBeforeTheEnd() {
    let oneSecond = ExactTime(ticks: 1000, base: TimeBase(num: 1, den: 1000))
    var schedule = SampleSchedule(interval: SampleInterval(seconds: 0.5), end: oneSecond)
    var seconds: [Double] = []
    while let time = schedule.nextTime, seconds.count < 10 {
      seconds.append(time.seconds)
      schedule.advance()
    }
    #expect(seconds == [0, 0.5], "1 s is the end itself")
    #expect(schedule.nextIndex == 2)
  }

  @Test("without a known end it goes on until finished")
  func unknownEnd() {
    var schedule = SampleSchedule(interval: SampleInterval(seconds: 1), end: nil)
    for _ in 0..<1000 { schedule.advance() }
    #expect(schedule.nextTime == ExactTime(ticks: 1000, base: TimeBase(num: 1, den: 1)))
    schedule.finish()
    #expect(schedule.nextTime == nil)
    #expect(schedule.nextIndex == 1000)
  }
}
