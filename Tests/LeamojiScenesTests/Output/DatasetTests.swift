import Testing

@testable import LeamojiScenes

@Suite("Data-set layout")
struct DatasetTests {
  @Test("each split has perClass items of every mood, in order, with stable names")
  func layout() {
    let items = datasetItems(perClass: 5, split: .train, seed: 1)
    #expect(items.count == 15)
    let moods: [Mood] = [.happy, .neutral, .scary]
    #expect(items.map(\.mood) == moods.flatMap { Array(repeating: $0, count: 5) })
    #expect(items.prefix(5).map(\.index) == [0, 1, 2, 3, 4])
    #expect(items[0].fileName == "happy-00000.png")
    #expect(items[14].fileName == "scary-00004.png")
    #expect(items.map(\.folderName).uniqued() == ["Happy", "Neutral", "Scary"])
    #expect(DatasetSplit.train.folderName == "Training Data")
    #expect(DatasetSplit.test.folderName == "Testing Data")
    #expect(datasetItems(perClass: 0, split: .test, seed: 1).isEmpty)
  }

  @Test("training and testing seeds never overlap; seeds are unique within a split")
  func disjoint() {
    for seed: UInt64 in [0, 1, 2024, .max] {
      let train = datasetItems(perClass: 300, split: .train, seed: seed)
      let test = datasetItems(perClass: 300, split: .test, seed: seed)
      let trainSeeds = Set(train.map(\.seed))
      let testSeeds = Set(test.map(\.seed))
      #expect(trainSeeds.count == train.count)
      #expect(testSeeds.count == test.count)
      #expect(trainSeeds.isDisjoint(with: testSeeds))
      // Train seeds are even, test seeds odd: disjoint even across different master seeds.
      #expect(train.allSatisfy { $0.seed % 2 == 0 })
      #expect(test.allSatisfy { $0.seed % 2 == 1 })
    }
  }

  @Test("the layout is deterministic, depends on the seed; growing it keeps earlier items")
  func stable() {
    let nine = datasetItems(perClass: 20, split: .test, seed: 9)
    #expect(nine == datasetItems(perClass: 20, split: .test, seed: 9))
    #expect(nine != datasetItems(perClass: 20, split: .test, seed: 10))
    let small = datasetItems(perClass: 10, split: .train, seed: 4)
    let large = datasetItems(perClass: 30, split: .train, seed: 4)
    for mood in Mood.allCases {
      let grown = large.filter { $0.mood == mood }.prefix(10)
      #expect(small.filter { $0.mood == mood } == Array(grown))
    }
  }
}

extension Array where Element: Hashable {
  fileprivate func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}
