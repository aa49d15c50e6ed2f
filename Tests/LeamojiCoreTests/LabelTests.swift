import LeamojiCore
import Testing

@Suite("Label vocabulary")
struct LabelTests {
  @Test("the standard labels: names, emoji and colours in the default model's order")
  func standard() {
    #expect(Label.standard.map(\.name) == ["happy", "neutral", "scary"])
    #expect(Label.standard.map(\.emoji) == ["😀", "😐", "😱"])
    #expect(Label.happy.colour == RGB(250, 200, 40))
    #expect(Label.neutral.colour == RGB(140, 140, 140))
    #expect(Label.scary.colour == RGB(150, 20, 60))
    #expect(Label.standard.map(\.letter) == ["h", "n", "s"])
  }

  @Test("a label by name takes the standard look; a model's emoji wins")
  func byName() {
    #expect(Label(name: "scary") == .scary)
    #expect(Label(name: "happy", emoji: "🥳") == Label(name: "happy", emoji: "🥳"))
    #expect(Label(name: "happy", emoji: "🥳").emoji == "🥳")
    #expect(Label(name: "happy", emoji: "🥳").colour == Label.happy.colour)
    #expect(Label(name: "happy", emoji: "🥳") != .happy)
    // Standard names match in any case for the look; the name stays as written.
    let capital = Label(name: "Neutral")
    #expect(
      capital.name == "Neutral" && capital.emoji == "😐" && capital.colour == Label.neutral.colour)
    #expect(capital.letter == "N")
    #expect(Label.standard(named: "SCARY") == .scary)
    #expect(Label.standard(named: "sad") == nil)
  }

  @Test("other labels: ❔ and blue unless the model gives an emoji")
  func custom() {
    let sad = Label(name: "sad")
    #expect(sad.emoji == "❔" && sad.emoji == Label.unknownEmoji)
    #expect(sad.colour == RGB(60, 110, 200) && sad.colour == Label.otherColour)
    #expect(Label(name: "angry", emoji: "😡").emoji == "😡")
    #expect(Label(name: "angry", emoji: "😡").colour == Label.otherColour)
    #expect(Label(name: "").letter == "?")
    #expect(Label(name: "éclair").letter == "é")
    #expect("\(Label(name: "calm"))" == "calm")
  }
}
