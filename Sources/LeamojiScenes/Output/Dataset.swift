/// Which half of the generated data set an item belongs to.
public enum DatasetSplit: String, CaseIterable, Codable, Sendable {
  case train
  case test

  /// The top folder leamoji writes, as Create ML named them: `Training Data`, `Testing Data`.
  public var folderName: String {
    switch self {
    case .train: return "Training Data"
    case .test: return "Testing Data"
    }
  }
}

/// One image of the generated data set: which scene to render and where it goes.
public struct DatasetItem: Hashable, Sendable {
  public let mood: Mood
  /// Scene seed: render with `makeScene(mood:seed:size:)`.
  public let seed: UInt64
  /// Position within its class (0-based).
  public let index: Int

  /// The class subfolder, capitalised as in Create ML data sets (`Happy`, `Neutral`, `Scary`).
  public var folderName: String { datasetFolderName(of: mood) }
  /// A stable file name, e.g. `happy-00042.png`.
  public var fileName: String { numberedPNGName(mood.rawValue, index) }
}

/// A mood's class subfolder, capitalised as in Create ML data sets (`Happy`, `Neutral`, `Scary`).
func datasetFolderName(of mood: Mood) -> String {
  mood.rawValue.prefix(1).uppercased() + mood.rawValue.dropFirst()
}

/// `stem-00042.png`: the index zero-padded to five digits, so names sort in index order.
func numberedPNGName(_ stem: String, _ index: Int) -> String {
  let digits = String(index)
  return "\(stem)-\(String(repeating: "0", count: max(0, 5 - digits.count)))\(digits).png"
}

/// The items of one split of the generated data set: `perClass` scenes of every mood, ordered
/// by mood then index.
///
/// Scene seeds derive from `seed`, the split, the mood and the index. Training seeds are even
/// and testing seeds odd, so the two splits can never share a scene, whatever `seed` and sizes
/// are; seeds within a split are distinct too. Growing `perClass` keeps the earlier items.
public func datasetItems(perClass: Int, split: DatasetSplit, seed: UInt64) -> [DatasetItem] {
  precondition(perClass >= 0, "perClass must not be negative")
  let splitBit: UInt64 = split == .train ? 0 : 1
  var items: [DatasetItem] = []
  items.reserveCapacity(perClass * Mood.allCases.count)
  for mood in Mood.allCases {
    var used = Set<UInt64>()
    let base = SceneRandom.mix(
      SceneRandom.mix(seed, 0xDA7A_5E70 + splitBit), UInt64(mood.index + 1))
    var counter: UInt64 = 0
    for index in 0..<perClass {
      var s: UInt64
      repeat {
        s = (SceneRandom.mix(base, counter) & ~1) | splitBit
        counter += 1
      } while !used.insert(s).inserted
      items.append(DatasetItem(mood: mood, seed: s, index: index))
    }
  }
  return items
}
