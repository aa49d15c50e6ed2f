/// Makes a failing input smaller while it still fails the same way: first the shortest failing
/// prefix (by bisection), then removal of chunks from half the input down to `minimumChunk`
/// bytes, within a budget of runs.
struct Shrinker {
  let budget: Int
  let minimumChunk: Int
  /// Whether `bytes` still fails the way the original did.
  let stillFails: ([UInt8]) throws(FuzzError) -> Bool

  /// The smallest failing input found and the number of runs it took.
  func shrink(_ original: [UInt8]) throws(FuzzError) -> (bytes: [UInt8], runs: Int) {
    var runs = 0
    func fails(_ candidate: [UInt8]) throws(FuzzError) -> Bool {
      runs += 1
      return try stillFails(candidate)
    }
    var current = original
    var low = 0
    var high = current.count
    while low < high, runs < budget {
      let middle = (low + high) / 2
      if try fails(Array(current.prefix(middle))) { high = middle } else { low = middle + 1 }
    }
    current = Array(current.prefix(high))
    var chunk = current.count / 2
    while chunk >= minimumChunk, runs < budget {
      var start = 0
      while start < current.count, runs < budget {
        var candidate = current
        candidate.removeSubrange(start..<min(current.count, start + chunk))
        if try fails(candidate) { current = candidate } else { start += chunk }
      }
      chunk /= 2
    }
    return (current, runs)
  }
}
