/// Decoded sound laid on a grid of sample positions (`AudioSampler.sampleRate` per second,
/// position 0 at the video stream's start), from which whole windows are cut.
///
/// Sound only moves forward: `frontier` is one past the last position written, and a piece
/// that starts before it repeats what is already there, so that part is dropped (an overlap).
/// A piece that starts after it leaves a gap, which reads as zeros and does not count as
/// covered. Pieces are kept only until the windows that need them have been cut (`discard`),
/// so memory follows the decoding front, not the length of the track. Plain Swift, no FFmpeg.
struct SoundPlacement {
  /// A run of consecutive samples starting at `start`.
  private struct Piece {
    var start: Int
    var samples: [Float]
    var end: Int { start + samples.count }
  }

  /// Pieces in increasing order, none overlapping another.
  private var pieces: [Piece] = []
  /// One past the last position any piece reached (nil before the first).
  private(set) var frontier: Int? = nil
  /// Positions below this belong to windows already cut: sound placed there is dropped, so
  /// that audio long before the video's start, say, is never held.
  private(set) var floor = 0

  /// Samples held now (for the memory bound).
  var heldSamples: Int { pieces.reduce(0) { $0 + $1.samples.count } }

  /// Puts `samples` at `position`, dropping any part before the frontier or the floor.
  mutating func place(_ samples: [Float], at position: Int) {
    guard !samples.isEmpty else { return }
    var start = position
    var kept = samples[...]
    let limit = max(frontier ?? floor, floor)
    if start < limit {
      let dropped = limit - start
      if dropped >= samples.count { return }
      kept = samples.dropFirst(dropped)
      start = limit
    }
    frontier = start + kept.count
    if let last = pieces.last, last.end == start {
      pieces[pieces.count - 1].samples.append(contentsOf: kept)
    } else {
      pieces.append(Piece(start: start, samples: Array(kept)))
    }
  }

  /// The samples of positions `start..<end` (zeros where nothing was placed) and how many of
  /// them were placed.
  func window(from start: Int, to end: Int) -> (samples: [Float], covered: Int) {
    var samples = [Float](repeating: 0, count: max(0, end - start))
    var covered = 0
    for piece in pieces where piece.end > start && piece.start < end {
      let from = max(start, piece.start)
      let to = min(end, piece.end)
      for position in from..<to {
        samples[position - start] = piece.samples[position - piece.start]
      }
      covered += to - from
    }
    return (samples, covered)
  }

  /// Forgets every sample before `position` and drops any placed there later (windows are cut
  /// in order).
  mutating func discard(before position: Int) {
    floor = max(floor, position)
    pieces.removeAll { $0.end <= position }
    if let first = pieces.first, first.start < position {
      pieces[0].samples.removeFirst(position - first.start)
      pieces[0].start = position
    }
  }

  /// Forgets everything (after a failure).
  mutating func clear() {
    pieces.removeAll()
  }
}
