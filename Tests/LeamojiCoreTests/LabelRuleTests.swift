import LeamojiCore
import Testing

@Suite("LabelRule: one sample's label from its probabilities")
struct LabelRuleTests {
  @Test("without a threshold the most probable label, ties to the first")
  func mostProbable() {
    #expect(LabelRule.decide([0.2, 0.5, 0.3] as [Float], threshold: nil, scary: 2) == 1)
    #expect(LabelRule.decide([0.4, 0.4, 0.2] as [Double], threshold: nil, scary: 2) == 0)
    #expect(LabelRule.decide([0.1, 0.1, 0.8] as [Float], threshold: 0.9, scary: nil) == 2)
  }

  @Test("with a threshold: scary exactly from it, else the most probable other label")
  func threshold() {
    let row: [Double] = [0.25, 0.4, 0.35]
    #expect(LabelRule.decide(row, threshold: 0.35, scary: 2) == 2)
    #expect(LabelRule.decide(row, threshold: 0.36, scary: 2) == 1)
    // Scary most probable but below the threshold: the most probable of the others, ties first.
    #expect(LabelRule.decide([0.2, 0.2, 0.6] as [Double], threshold: 0.7, scary: 2) == 0)
    #expect(LabelRule.decide([0.7, 0.1, 0.2] as [Double], threshold: 0.8, scary: 0) == 2)
    #expect(LabelRule.decide([0.7, 0.1, 0.2] as [Double], threshold: 0.5, scary: 0) == 0)
  }

  @Test("mostProbable leaves out one index unless it is the only one")
  func except() {
    #expect(LabelRule.mostProbable([0.9, 0.05, 0.05] as [Float], except: 0) == 1)
    #expect(LabelRule.mostProbable([1.0] as [Float], except: 0) == 0)
    #expect(LabelRule.mostProbable([0.1, 0.7, 0.2] as [Double]) == 1)
  }
}
