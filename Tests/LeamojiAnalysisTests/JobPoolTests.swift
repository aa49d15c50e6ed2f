import Dispatch
import LeamojiAnalysis
import LeamojiCore
import Testing

@Suite("JobPool: the one pool of parallel jobs")
struct JobPoolTests {
  @Test("every job runs exactly once, whatever the number of workers", arguments: [1, 2, 3, 8, 50])
  func everyJobOnce(workers: Int) {
    let runs = Locked([Int](repeating: 0, count: 37))
    JobPool.run(37, workers: workers) { index in runs.withValue { $0[index] += 1 } }
    #expect(runs.withValue { $0 } == [Int](repeating: 1, count: 37))
  }

  @Test("never more jobs at a time than workers")
  func concurrencyIsBounded() {
    let state = Locked((running: 0, peak: 0))
    JobPool.run(12, workers: 3) { _ in
      state.withValue {
        $0.running += 1
        $0.peak = max($0.peak, $0.running)
      }
      // Long enough for other workers to take a job meanwhile, if there were too many.
      usleepMilliseconds(20)
      state.withValue { $0.running -= 1 }
    }
    #expect(state.withValue { $0.peak } <= 3)
  }

  @Test("one worker takes the jobs in order; no jobs, no call")
  func orderAndEmpty() {
    let order = Locked([Int]())
    JobPool.run(6, workers: 1) { index in order.withValue { $0.append(index) } }
    #expect(order.withValue { $0 } == [0, 1, 2, 3, 4, 5])
    let called = Locked(false)
    JobPool.run(0) { _ in called.withValue { $0 = true } }
    JobPool.run(4, workers: 0) { _ in }  // zero workers still finishes (one worker)
    #expect(called.withValue { $0 } == false)
  }
}

private func usleepMilliseconds(_ milliseconds: Int) {
  let done = DispatchSemaphore(value: 0)
  DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
    done.signal()
  }
  done.wait()
}
