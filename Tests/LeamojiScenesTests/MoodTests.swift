import Foundation
import LeamojiCore
import Testing

@testable import LeamojiScenes

@Suite("Moods")
struct MoodTests {
  @Test("moods are the standard labels, in the default model's order")
  func standardLabels() {
    #expect(Mood.allCases.map(\.label) == Label.standard)
    #expect(Mood.allCases.map(\.rawValue) == ["happy", "neutral", "scary"])
    #expect(Mood.allCases.map(\.index) == [0, 1, 2])
    #expect(Mood.scary.label.emoji == "😱")
  }

  @Test("raw values round-trip exactly; other names are no mood")
  func rawValues() {
    #expect(Mood(rawValue: "scary") == .scary)
    #expect(Mood(rawValue: "Scary") == nil)
    #expect(Mood(rawValue: "sad") == nil)
    #expect(Mood.allCases.allSatisfy { Mood(rawValue: $0.rawValue) == $0 })
    #expect("\(Mood.neutral)" == "neutral")
  }

  @Test("moods encode as their names in JSON")
  func json() throws {
    let data = try JSONEncoder().encode([Mood.happy, .scary])
    #expect(String(decoding: data, as: UTF8.self) == #"["happy","scary"]"#)
    #expect(try JSONDecoder().decode([Mood].self, from: data) == [.happy, .scary])
  }
}
