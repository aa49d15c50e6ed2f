import LeamojiTimeline
import Testing

@testable import LeamojiTerminal

@Suite("Cue logic")
struct CueLogicTests {
  /// happy from 0, scary from 10 (cue at 7), neutral from 20 (cue at 17): seek-ahead 3.
  let markers = [marker("happy", at: 0), marker("scary", at: 10), marker("neutral", at: 20)]

  func summary(_ time: Double, _ list: [Marker]? = nil) -> String {
    let state = CueLogic.state(markers: list ?? markers, at: time)
    return "\(state.current?.emoji ?? "-") | \(state.headsUp?.text ?? "-")"
  }

  @Test("current scene: the last marker with second <= t; none before the first")
  func currentMarker() {
    #expect(summary(0) == "😀 | -")
    #expect(summary(6.99) == "😀 | -")
    #expect(summary(10) == "😱 | -")
    #expect(summary(19.5) == "😱 | 😐 neutral scene in 1 s")
    #expect(summary(25) == "😐 | -")
    #expect(summary(1_000) == "😐 | -")
    #expect(CueLogic.state(markers: markers, at: 12).currentIndex == 1)
    let late = [marker("scary", at: 8, seekAhead: 0)]
    #expect(summary(7.9, late) == "- | -")
    #expect(CueLogic.state(markers: late, at: -1).current == nil)
    #expect(
      CueLogic.state(markers: [], at: 5) == CueState(currentIndex: nil, current: nil, headsUp: nil))
  }

  @Test("heads-up during [cueAt, second) with the seconds rounded up")
  func headsUpWindow() {
    #expect(summary(6.999) == "😀 | -")
    #expect(summary(7) == "😀 | 😱 scary scene in 3 s")
    #expect(summary(7.5) == "😀 | 😱 scary scene in 3 s")
    #expect(summary(8) == "😀 | 😱 scary scene in 2 s")
    #expect(summary(9.01) == "😀 | 😱 scary scene in 1 s")
    #expect(summary(9.999) == "😀 | 😱 scary scene in 1 s")
    #expect(summary(10) == "😱 | -")
    let state = CueLogic.state(markers: markers, at: 7.2)
    #expect(state.headsUp == HeadsUp(marker: markers[1], index: 1, secondsUntil: 3))
  }

  @Test("a heads-up shows 👂 for a scene the sound fired and ⚡ for a sudden one")
  func headsUpBadges() {
    var loud = marker("scary", at: 10)
    loud.firedBy = ["picture", "sound"]
    var sudden = marker("scary", at: 10)
    sudden.firedBy = ["sudden", "sound", "unknown"]
    #expect(summary(8, [marker("happy", at: 0), loud]) == "😀 | 😱👂 scary scene in 2 s")
    #expect(summary(8, [marker("happy", at: 0), sudden]) == "😀 | 😱👂⚡ scary scene in 2 s")
  }

  @Test("a sudden scare has its own heads-up in [cueAt, second), the nearest first")
  func suddenHeadsUp() {
    let events = [
      TimelineEvent(cueAt: 7, kind: "sudden", second: 12),
      TimelineEvent(cueAt: 5, kind: "sudden", second: 10),
      TimelineEvent(cueAt: 1, kind: "other", second: 6),
    ]
    #expect(CueLogic.suddenHeadsUp(events: events, at: 4.9) == nil)
    #expect(CueLogic.suddenHeadsUp(events: events, at: 5) == "⚡ sudden scare in 5 s")
    #expect(CueLogic.suddenHeadsUp(events: events, at: 8.5) == "⚡ sudden scare in 2 s")
    #expect(CueLogic.suddenHeadsUp(events: events, at: 10) == "⚡ sudden scare in 2 s")
    #expect(CueLogic.suddenHeadsUp(events: events, at: 12) == nil)
    #expect(CueLogic.suddenHeadsUp(events: [], at: 8) == nil)
  }

  @Test("seek-ahead 0: cueAt == second, so there is never a heads-up")
  func seekAheadZero() {
    let list = [marker("happy", at: 0, seekAhead: 0), marker("scary", at: 10, seekAhead: 0)]
    for t in stride(from: 0.0, through: 12, by: 0.25) {
      #expect(CueLogic.state(markers: list, at: t).headsUp == nil)
    }
    #expect(summary(9.99, list) == "😀 | -")
    #expect(summary(10, list) == "😱 | -")
  }

  @Test("a cue clamped at 0 shows the heads-up from the very start")
  func cueClampedAtZero() {
    let list = [marker("happy", at: 2, seekAhead: 5), marker("scary", at: 30, seekAhead: 5)]
    #expect(list[0].cueAt == 0)
    #expect(summary(0, list) == "- | 😀 happy scene in 2 s")
    #expect(summary(1.5, list) == "- | 😀 happy scene in 1 s")
    #expect(summary(2, list) == "😀 | -")
    #expect(summary(25, list) == "😀 | 😱 scary scene in 5 s")
  }

  @Test("labels and emoji from the file cannot inject escapes into the heads-up")
  func headsUpSanitised() {
    let evil = Marker(
      confidence: 1, cueAt: 0, emoji: "\u{1B}[2J", label: "sc\u{9B}ary\u{7}", second: 4)
    let text = CueLogic.state(markers: [evil], at: 1).headsUp?.text
    #expect(text == "?[2J sc?ary? scene in 3 s")
  }

  @Test("playhead column: floor(t / duration * width), clamped")
  func playhead() {
    #expect(CueLogic.playheadColumn(time: 0, duration: 30, width: 10) == 0)
    #expect(CueLogic.playheadColumn(time: 15, duration: 30, width: 10) == 5)
    #expect(CueLogic.playheadColumn(time: 2.99, duration: 30, width: 10) == 0)
    #expect(CueLogic.playheadColumn(time: 3, duration: 30, width: 10) == 1)
    #expect(CueLogic.playheadColumn(time: 29.99, duration: 30, width: 10) == 9)
    #expect(CueLogic.playheadColumn(time: 30, duration: 30, width: 10) == 9)
    #expect(CueLogic.playheadColumn(time: 99, duration: 30, width: 10) == 9)
    #expect(CueLogic.playheadColumn(time: -4, duration: 30, width: 10) == 0)
    #expect(CueLogic.playheadColumn(time: 5, duration: 0, width: 10) == 0)
    #expect(CueLogic.playheadColumn(time: 5, duration: 30, width: 0) == 0)
    #expect(CueLogic.playheadColumn(time: .nan, duration: 30, width: 10) == 0)
  }

  @Test("strip labels: the scene at the middle of each column's span")
  func strip() {
    let labels = CueLogic.stripLabels(markers: markers, duration: 30, width: 6)
    #expect(labels == ["happy", "happy", "scary", "scary", "neutral", "neutral"])
    let late = [marker("scary", at: 12)]
    #expect(CueLogic.stripLabels(markers: late, duration: 30, width: 3) == [nil, "scary", "scary"])
    #expect(CueLogic.stripLabels(markers: markers, duration: 0, width: 2) == [nil, nil])
  }
}
