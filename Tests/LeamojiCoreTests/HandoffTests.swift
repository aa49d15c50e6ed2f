import Foundation
import Testing

@testable import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// The hand-off between `VideoAnalysis`'s decoding thread and its network (issue 37): values
/// in order, never more than `capacity` held, the producer's error after its values, and a
/// consumer that stops early never leaves the producer waiting.
@Suite("Handoff")
struct HandoffTests {
  struct Broken: Error, Equatable { let at: Int }

  @Test("a thousand values arrive in order, never more than the capacity held", arguments: [1, 3])
  func inOrder(capacity: Int) throws {
    let handoff = Handoff<Int>(capacity: capacity)
    let most = Locked(0)
    let held = Locked(0)
    let producer = try #require(
      JoinableThread.start {
        for i in 0..<1000 {
          #expect(handoff.put(i))
          held.withValue { h in
            h += 1
            most.withValue { $0 = max($0, h) }
          }
        }
        handoff.finish()
      })
    var seen: [Int] = []
    while let value = try handoff.take() {
      held.withValue { $0 -= 1 }
      seen.append(value)
      if value % 100 == 0 { usleep(200) }  // a slow consumer: the producer has to wait
    }
    producer.join()
    #expect(seen == Array(0..<1000))
    // `held` is counted after `put` returns, so it can run one ahead of what is queued.
    #expect(most.withValue { $0 } <= capacity + 1)
  }

  @Test("the producer's error comes after the values put before it, and then again")
  func errorAfterValues() throws {
    let handoff = Handoff<Int>(capacity: 2)
    let producer = try #require(
      JoinableThread.start {
        for i in 0..<5 { handoff.put(i) }
        handoff.finish(throwing: Broken(at: 5))
      })
    var seen: [Int] = []
    #expect(throws: Broken(at: 5)) {
      while let value = try handoff.take() { seen.append(value) }
    }
    producer.join()
    #expect(seen == [0, 1, 2, 3, 4])
    #expect(throws: Broken(at: 5)) { _ = try handoff.take() }
  }

  @Test("cancelling wakes a producer waiting on a full hand-off, and its puts fail from then")
  func cancelWakesProducer() throws {
    let handoff = Handoff<Int>(capacity: 1)
    let puts = Locked<[Bool]>([])
    let producer = try #require(
      JoinableThread.start {
        var i = 0
        while true {
          let accepted = handoff.put(i)
          puts.withValue { $0.append(accepted) }
          if !accepted { return }
          i += 1
        }
      })
    #expect(try handoff.take() == 0)
    handoff.cancel()
    producer.join()  // would hang if the waiting producer were not woken
    #expect(handoff.isCancelled)
    let results = puts.withValue { $0 }
    #expect(results.last == false)
    #expect(results.dropLast().allSatisfy { $0 })
  }

  @Test("an empty stream ends at once")
  func empty() throws {
    let handoff = Handoff<String>(capacity: 4)
    handoff.finish()
    #expect(try handoff.take() == nil)
    #expect(try handoff.take() == nil)
  }
}
