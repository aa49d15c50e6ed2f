import LeamojiClassifier
import LeamojiCore
import Testing

@Suite("Evaluation")
struct EvaluationTests {
  @Test("the confusion matrix counts the classifier's predictions against the true labels")
  func confusionMatrix() throws {
    let classifier = try Classifier.untrained(
      labelNames: ["happy", "scary"], size: PixelSize(width: 16, height: 16), seed: 2)
    let set = toySet(count: 10)
    let (matrix, outcomes) = try Evaluation.confusionMatrix(of: classifier, on: set, threads: 2)
    let predictions = try classifier.classify(set, threads: 1)
    #expect(matrix.labels == ["happy", "scary"])
    #expect(matrix.total == 10 && outcomes.count == 10)
    #expect(outcomes.map(\.prediction) == predictions)
    #expect(outcomes.map(\.path) == set.paths && outcomes.map(\.truth) == set.labels)
    for truth in 0..<2 {
      for predicted in 0..<2 {
        let count = zip(set.labels, predictions).filter {
          $0 == truth && $1.classIndex == predicted
        }.count
        #expect(matrix.counts[truth][predicted] == count)
      }
    }
    let correct = outcomes.filter(\.isCorrect).count
    #expect(matrix.accuracy == Double(correct) / 10)
  }
}
