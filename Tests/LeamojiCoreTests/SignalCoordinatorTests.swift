import Foundation
import LeamojiTestSupport
import Testing

@testable import LeamojiCore

#if canImport(Glibc)
  import Glibc
#endif

/// The coordinator's decisions, on participant lists of the tests' own. No real signal is sent
/// here: with no participant taking it over, one would end the test process. Real signals go
/// through the shared coordinator in TerminalSessionTests (taken over by the terminal session)
/// and in the CLI tests (`ResourceLimitTimingTests.interruptedWrite`, `PlaySignalTmuxTests`).
@Suite("SignalCoordinator")
struct SignalCoordinatorTests {
  /// What the participants saw, in order: `"<name> <signal>"`.
  final class Journal: Sendable {
    private let entries = Locked<[String]>([])
    func note(_ name: String) -> @Sendable (Int32) -> Void {
      { signal in self.entries.withValue { $0.append("\(name) \(signal)") } }
    }
    var all: [String] { entries.withValue { $0 } }
  }

  @Test("with no participant a termination signal ends the process")
  func nobody() {
    #expect(SignalParticipants().dispatch(SIGTERM, keepLockedWhenEnding: false) == .ending)
  }

  @Test("clean-ups run in the order registered, with the signal, and then the process ends")
  func cleanUps() {
    let participants = SignalParticipants()
    let journal = Journal()
    participants.add(.cleanUp, journal.note("files"))
    participants.add(.cleanUp, journal.note("logs"))
    #expect(participants.dispatch(SIGINT, keepLockedWhenEnding: false) == .ending)
    #expect(journal.all == ["files \(SIGINT)", "logs \(SIGINT)"])
  }

  @Test("a participant that takes over gets every signal; clean-ups wait and nothing ends")
  func takeOver() {
    let participants = SignalParticipants()
    let journal = Journal()
    participants.add(.cleanUp, journal.note("files"))
    participants.add(.takeOver, journal.note("player"))
    #expect(participants.dispatch(SIGINT, keepLockedWhenEnding: false) == .takenOver)
    #expect(participants.dispatch(SIGHUP, keepLockedWhenEnding: false) == .takenOver)
    #expect(journal.all == ["player \(SIGINT)", "player \(SIGHUP)"])
    #expect(participants.count(.takeOver) == 1 && participants.count(.cleanUp) == 1)
  }

  @Test("once the taker is cancelled, the next signal cleans up and ends: play analysing first")
  func cancelled() {
    let participants = SignalParticipants()
    let journal = Journal()
    participants.add(.cleanUp, journal.note("files"))
    // `play` plays, then restores the terminal: the session's registration goes.
    let session = participants.add(.takeOver, journal.note("session"))
    #expect(participants.dispatch(SIGTERM, keepLockedWhenEnding: false) == .takenOver)
    session.cancel()
    session.cancel()  // a second cancel does nothing
    #expect(participants.count(.takeOver) == 0)
    #expect(participants.dispatch(SIGINT, keepLockedWhenEnding: false) == .ending)
    #expect(journal.all == ["session \(SIGTERM)", "files \(SIGINT)"])
  }

  @Test("several takers are all told; cancelling one leaves the others")
  func severalTakers() {
    let participants = SignalParticipants()
    let journal = Journal()
    let first = participants.add(.takeOver, journal.note("a"))
    participants.add(.takeOver, journal.note("b"))
    #expect(participants.dispatch(SIGHUP, keepLockedWhenEnding: false) == .takenOver)
    first.cancel()
    #expect(participants.dispatch(SIGINT, keepLockedWhenEnding: false) == .takenOver)
    #expect(journal.all == ["a \(SIGHUP)", "b \(SIGHUP)", "b \(SIGINT)"])
  }

  @Test("when ending, the list stays locked: nobody registers while the process ends")
  func lockedWhileEnding() {
    let participants = SignalParticipants()
    let journal = Journal()
    participants.add(.cleanUp, journal.note("files"))
    #expect(participants.dispatch(SIGTERM, keepLockedWhenEnding: true) == .ending)
    let registered = Locked(false)
    // This thread stays blocked for good, as a real one would until the process ends.
    Thread {
      participants.add(.takeOver, journal.note("late"))
      registered.withValue { $0 = true }
    }.start()
    #expect(!eventually(within: 0.2) { registered.withValue { $0 } })
    #expect(journal.all == ["files \(SIGTERM)"])
  }

  @Test("the coordinator owns SIGINT, SIGTERM and SIGHUP once something registers")
  func owns() {
    let registration = SignalCoordinator.register(.takeOver) { _ in }
    defer { registration.cancel() }
    #expect(SignalCoordinator.terminationSignals == [SIGINT, SIGTERM, SIGHUP])
    // Under nohup (SIGHUP ignored from the start) the coordinator leaves SIGHUP ignored.
    for signal in SignalCoordinator.terminationSignals
    where !(signal == SIGHUP && SignalCoordinator.isIgnored(SIGHUP)) {
      var action = sigaction()
      sigaction(signal, nil, &action)
      let handler = unsafeBitCast(action.__sigaction_handler, to: Int.self)
      #expect(
        handler != unsafeBitCast(SIG_DFL, to: Int.self)
          && handler != unsafeBitCast(SIG_IGN, to: Int.self))
      #expect(action.sa_flags & Int32(SA_RESTART) != 0, "interrupted reads and writes resume")
    }
    #expect(SignalCoordinator.shared.count(.takeOver) >= 1)
  }
}
