/// The short-term loudness blocks behind `peakMomentary` and `rise`: K-weighted squares summed
/// in 100 ms sub-blocks, counted from the stream's first sample, with the last 2 s of sub-blocks
/// kept across windows. The stream is taken as silent before its first sample.
struct LoudnessBlocks: Sendable, Equatable {
  /// What one finished 100 ms sub-block gives.
  struct Block: Sendable, Equatable {
    /// BS.1770 momentary loudness (LUFS): the 400 ms ending with this sub-block.
    var momentary: Double
    /// Loudness of this 100 ms minus the loudness of the 2 s before it (LU), both floored at
    /// −70 LUFS.
    var rise: Double
  }

  /// Samples per 100 ms sub-block.
  let length: Int
  /// Sub-blocks in a momentary (400 ms) block, and in the 2 s a rise is measured against.
  static let momentaryCount = 4
  static let backgroundCount = 20
  /// The sums of squares of the last `backgroundCount` finished sub-blocks, oldest first.
  private var history: [Double]
  private var sum = 0.0
  private var filled = 0

  init(sampleRate: Int) {
    length = sampleRate / 10
    history = [Double](repeating: 0, count: Self.backgroundCount)
  }

  /// Adds one K-weighted squared sample; returns the block when it finishes a sub-block.
  mutating func add(_ square: Double) -> Block? {
    sum += square
    filled += 1
    guard filled == length else { return nil }
    var recent = sum
    for i in (Self.backgroundCount - Self.momentaryCount + 1)..<Self.backgroundCount {
      recent += history[i]
    }
    var background = 0.0
    for value in history { background += value }
    let n = Double(length)
    let block = Block(
      momentary: Decibels.loudness(meanSquare: recent / (n * Double(Self.momentaryCount))),
      rise: Decibels.loudness(meanSquare: sum / n)
        - Decibels.loudness(meanSquare: background / (n * Double(Self.backgroundCount))))
    history.removeFirst()
    history.append(sum)
    sum = 0
    filled = 0
    return block
  }
}
