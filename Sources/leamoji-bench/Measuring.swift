import Dispatch
import LeamojiCore
import LeamojiNN

/// Repeats `body` for about `seconds` (after one warm-up) and returns runs per second.
func runsPerSecond(for seconds: Double, _ body: () throws -> Void) rethrows -> Double {
  try body()
  var runs = 0
  let start = DispatchTime.now().uptimeNanoseconds
  var elapsed = 0.0
  repeat {
    try body()
    runs += 1
    elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  } while elapsed < seconds
  return Double(runs) / elapsed
}

/// A tensor of standard-normal numbers from `seed`: the same input for every run.
func gaussianTensor(_ shape: [Int], seed: UInt64) -> Tensor {
  var rng = SplitMix64(seed: seed)
  let count = shape.reduce(1, *)
  return Tensor(shape: shape, data: (0..<count).map { _ in Float(rng.nextGaussian()) })
}
