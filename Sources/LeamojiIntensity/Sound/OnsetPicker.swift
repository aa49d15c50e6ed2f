/// Onsets by peak picking on the frames' flux: frame `j` is an onset when its flux is
///   - greater than each of the 3 frames before it, and at least each of the 3 after it (one
///     onset per plateau, at its start), and
///   - greater than the mean flux of the 16 frames before it plus `margin`.
/// Frames before the stream count as flux 0. A frame is decided when the frame 3 after it
/// finishes: onsets are reported 3 frames (48 ms at 16 kHz) late, and the stream's last 3
/// frames are never decided.
struct OnsetPicker: Sendable, Equatable {
  /// Frames compared on each side.
  static let span = 3
  /// Frames whose mean flux the peak must beat.
  static let historyCount = 16
  /// How far above that mean a peak must be (flux units: summed over 257 bins, so 50 is a mean
  /// rise of about 0.2 in `ln(1 + 100|X|)` per bin; white noise's flux varies by about 10 from
  /// frame to frame, a click over quiet by hundreds).
  static let margin = 50.0

  /// The flux of the last `historyCount + span + 1` frames, oldest first: the 16 before the
  /// candidate, the candidate, the 3 after it.
  private var window = [Double](repeating: 0, count: historyCount + span + 1)
  private var seen = 0

  /// Adds the flux of the next frame; returns whether the frame 3 before it is an onset (nil
  /// while fewer than 4 frames have been seen).
  mutating func add(_ flux: Double) -> Bool? {
    window.removeFirst()
    window.append(flux)
    seen += 1
    guard seen > Self.span else { return nil }
    let c = Self.historyCount
    let candidate = window[c]
    for i in (c - Self.span)..<c where !(candidate > window[i]) { return false }
    for i in (c + 1)...(c + Self.span) where !(candidate >= window[i]) { return false }
    var sum = 0.0
    for i in 0..<c { sum += window[i] }
    return candidate > sum / Double(c) + Self.margin
  }
}
