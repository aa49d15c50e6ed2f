import LeamojiClassifier
import Testing

@Suite("Confusion matrix")
struct ConfusionMatrixTests {
  @Test("accuracy, precision and recall from counts")
  func measures() {
    var m = ConfusionMatrix(labels: ["happy", "neutral", "scary"])
    for (t, p) in [(0, 0), (0, 0), (0, 2), (1, 1), (2, 2), (2, 0)] {
      m.add(truth: t, prediction: p)
    }
    #expect(m.total == 6)
    #expect(abs(m.accuracy - 4.0 / 6.0) < 1e-12)
    #expect(m.precision(0) == 2.0 / 3.0)
    #expect(m.recall(0) == 2.0 / 3.0)
    #expect(m.precision(1) == 1 && m.recall(1) == 1)
    #expect(m.recall(2) == 0.5)
    var empty = ConfusionMatrix(labels: ["a", "b"])
    #expect(empty.precision(0) == nil && empty.recall(1) == nil && empty.accuracy == 0)
    empty.add(truth: 1, prediction: 1)
    #expect(empty.rendered().count == 4)
  }
}
