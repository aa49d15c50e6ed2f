import Testing

@testable import LeamojiScenes

@Suite("Mood")
struct MoodTests {
  @Test("mood labels are the lower-case strings used everywhere else")
  func moodLabels() {
    #expect(Mood.allCases.map(\.rawValue) == ["happy", "neutral", "scary"])
    #expect(Mood.allCases.map(\.index) == [0, 1, 2])
    #expect(Mood(rawValue: "scary") == .scary)
  }
}
