import LeamojiCore
import Testing

@testable import LeamojiTerminal

@Suite("Mood palette")
struct MoodPaletteTests {
  @Test("mood colours: happy warm yellow, neutral grey, scary dark red, others blue, none grey")
  func labelColours() {
    #expect(MoodPalette.colour(for: "happy") == RGB(250, 200, 40))
    #expect(MoodPalette.colour(for: "Neutral") == RGB(140, 140, 140))
    #expect(MoodPalette.colour(for: "scary") == RGB(150, 20, 60))
    #expect(MoodPalette.colour(for: "sad") == RGB(60, 110, 200))
    #expect(MoodPalette.colour(for: "") == RGB(60, 110, 200))
    #expect(MoodPalette.colour(for: nil) == RGB(50, 50, 50))
  }

  @Test("text is black on light backgrounds and white on dark ones")
  func textColour() {
    #expect(MoodPalette.textColour(on: Label.happy.colour) == RGB(0, 0, 0))
    #expect(MoodPalette.textColour(on: Label.scary.colour) == RGB(255, 255, 255))
    #expect(MoodPalette.textColour(on: Label.otherColour) == RGB(255, 255, 255))
  }
}
