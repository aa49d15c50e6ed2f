/// Removes flicker from per-sample labels: runs shorter than a minimum scene length.
///
/// The rule: a run of equal labels with fewer than `minimumSamples` samples is *flicker*; a
/// longer run is a *scene*. Flicker runs are relabelled one at a time, shortest first (ties: the
/// one whose own label is least probable on average, then the earliest), as an adjacent scene —
/// of two adjacent scenes, the one whose label is more probable over the flicker's samples (ties:
/// the longer scene, then the earlier one). Only when no flicker touches a scene at all (the
/// whole remaining video flickers) does the shortest flicker join its more probable neighbour,
/// scene or not. This repeats until no flicker is left or one run remains.
///
/// Why this rule: a one-second "scene" is almost always a misclassified frame (a flash, a cut, a
/// dark frame), and a marker for it would flash an emoji for a moment that does not exist. The
/// rule removes flicker without ever stretching it into a scene (a flicker is absorbed by real
/// scenes, never the other way round), never relabels a run that was already a scene (scenes
/// only grow), treats the first and last samples like the others, and leaves a labelling
/// without flicker exactly as the classifier produced it. A centred median filter has none of
/// these guarantees with three labels (h s n has no majority) and at the edges.
///
/// Probabilities are compared as integers (millionths) so that ties are exact and the result
/// never depends on floating-point rounding. Cost: O(samples + runs · log runs).
struct SceneSmoother {
  /// Shortest run that counts as a scene, in samples (1 disables smoothing).
  let minimumSamples: Int

  /// The smoothed label of each sample.
  /// - Parameters:
  ///   - labels: the raw label index of each sample (usually the most probable one).
  ///   - probabilities: one row per sample, one column per label.
  func smooth(labels raw: [Int], probabilities: [[Double]]) -> [Int] {
    guard !raw.isEmpty else { return [] }
    var runs = Runs(
      raw: raw,
      mass: probabilities.map { row in
        row.map { $0.isFinite ? Int64(($0 * 1_000_000).rounded()) : 0 }
      })
    let minimum = minimumSamples
    func isFlicker(_ run: Int) -> Bool { runs.count[run] < minimum }
    func touchesScene(_ run: Int) -> Bool {
      runs.neighbours(of: run).contains { !isFlicker($0) }
    }
    var queue = MinHeap<FlickerKey>()
    func enqueue(_ run: Int) {
      guard run >= 0, runs.alive[run], isFlicker(run), touchesScene(run) else { return }
      queue.push(runs.key(run))
    }
    for run in runs.label.indices { enqueue(run) }

    while runs.aliveCount > 1 {
      let flicker: Int
      let candidates: [Int]
      if let key = queue.pop() {
        let run = key.run
        guard runs.alive[run], runs.version[run] == key.version, isFlicker(run), touchesScene(run)
        else { continue }
        flicker = run
        candidates = runs.neighbours(of: run).filter { !isFlicker($0) }
      } else {
        // No flicker touches a scene: every remaining run is flicker (or none is left).
        guard let run = runs.aliveRuns().filter(isFlicker).min(by: { runs.key($0) < runs.key($1) })
        else { break }
        flicker = run
        candidates = runs.neighbours(of: run)
      }
      let target = candidates.max { a, b in
        let (massA, massB) = (
          runs.mass(of: runs.label[a], over: flicker), runs.mass(of: runs.label[b], over: flicker)
        )
        if massA != massB { return massA < massB }
        if runs.count[a] != runs.count[b] { return runs.count[a] < runs.count[b] }
        return runs.start[a] > runs.start[b]  // the earlier one is "larger"
      }!
      runs.absorb(flicker, into: target)
      enqueue(runs.previous[target])
      enqueue(runs.next[target])
      enqueue(target)
    }
    return runs.expanded()
  }
}

/// Priority of a flicker run: fewer samples first, then less probable own label, then earlier.
/// `version` tells a stale queue entry (the run changed since) from a current one.
private struct FlickerKey: Comparable {
  var count: Int
  var ownMass: Int64
  var start: Int
  var run: Int
  var version: Int

  static func < (a: FlickerKey, b: FlickerKey) -> Bool {
    if a.count != b.count { return a.count < b.count }
    // Same count: comparing the sums compares the means.
    if a.ownMass != b.ownMass { return a.ownMass < b.ownMass }
    return a.start < b.start
  }
}

/// Runs of equal labels as a doubly linked list over arrays, merged in place.
private struct Runs {
  let mass: [[Int64]]
  var label: [Int] = []
  var start: [Int] = []
  var count: [Int] = []
  var previous: [Int] = []
  var next: [Int] = []
  var alive: [Bool] = []
  var version: [Int] = []
  var head = 0
  var aliveCount = 0

  init(raw: [Int], mass: [[Int64]]) {
    self.mass = mass
    for (index, value) in raw.enumerated() {
      if index > 0 && value == raw[index - 1] {
        count[count.count - 1] += 1
      } else {
        label.append(value)
        start.append(index)
        count.append(1)
      }
    }
    aliveCount = label.count
    previous = label.indices.map { $0 - 1 }
    next = label.indices.map { $0 + 1 < label.count ? $0 + 1 : -1 }
    alive = Array(repeating: true, count: label.count)
    version = Array(repeating: 0, count: label.count)
  }

  func neighbours(of run: Int) -> [Int] { [previous[run], next[run]].filter { $0 >= 0 } }

  /// Sum over the run's samples of the probability of `label`.
  func mass(of label: Int, over run: Int) -> Int64 {
    (start[run]..<(start[run] + count[run])).reduce(Int64(0)) { $0 + mass[$1][label] }
  }

  func key(_ run: Int) -> FlickerKey {
    FlickerKey(
      count: count[run], ownMass: mass(of: label[run], over: run), start: start[run], run: run,
      version: version[run])
  }

  func aliveRuns() -> [Int] {
    var result: [Int] = []
    var run = head
    while run >= 0 {
      result.append(run)
      run = next[run]
    }
    return result
  }

  /// Relabels `run` as its neighbour `target` and merges them; if the run beyond has the same
  /// label too, it joins as well.
  mutating func absorb(_ run: Int, into target: Int) {
    let beyond = previous[run] == target ? next[run] : previous[run]
    merge(run, into: target)
    if beyond >= 0 && label[beyond] == label[target] { merge(beyond, into: target) }
    version[target] += 1
  }

  private mutating func merge(_ run: Int, into target: Int) {
    count[target] += count[run]
    start[target] = min(start[target], start[run])
    alive[run] = false
    aliveCount -= 1
    if previous[run] >= 0 { next[previous[run]] = next[run] } else { head = next[run] }
    if next[run] >= 0 { previous[next[run]] = previous[run] }
  }

  /// One label per sample.
  func expanded() -> [Int] {
    var result: [Int] = []
    for run in aliveRuns() {
      result.append(contentsOf: repeatElement(label[run], count: count[run]))
    }
    return result
  }
}

/// A binary min-heap.
private struct MinHeap<Element: Comparable> {
  private var items: [Element] = []

  mutating func push(_ item: Element) {
    items.append(item)
    var child = items.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard items[child] < items[parent] else { break }
      items.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> Element? {
    guard let first = items.first else { return nil }
    let last = items.removeLast()
    guard !items.isEmpty else { return first }
    items[0] = last
    var parent = 0
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var smallest = parent
      if left < items.count && items[left] < items[smallest] { smallest = left }
      if right < items.count && items[right] < items[smallest] { smallest = right }
      if smallest == parent { return first }
      items.swapAt(parent, smallest)
      parent = smallest
    }
  }
}
