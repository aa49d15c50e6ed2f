import LeamojiCore

/// Turns the classifier's per-second probabilities into the emoji timeline of a movie.
///
/// Steps:
/// 1. Samples are put in time order; the raw label of a sample is its most probable label
///    (ties: the first in label order). With a `scaryThreshold`, a sample is scary exactly when
///    its scary probability reaches the threshold, and otherwise takes its most probable other
///    label: how sensitive the warnings are (`analyze --sensitivity`).
/// 2. Flicker is removed: a run of equal labels lasting less than `minimumSceneLength`
///    (2 s by default: one sample at the default 1 s interval, up to three at 0.5 s) is
///    relabelled as an adjacent run of at least that length — the one whose label is more
///    probable over the flicker's samples — shortest flicker first. Runs that are long enough
///    are never relabelled. In samples the threshold is ⌈minimumSceneLength / interval⌉, the
///    interval being the sampler's, which the caller passes. See `SceneSmoother` for the
///    exact rule, its tie-breaks and the why.
/// 3. One marker per scene, at its first sample; the first marker is at the first sample.
///    `confidence` is the mean probability of the scene's label over the scene's samples
///    (4 decimals); `cueAt = max(0, second - seekAhead)`. Times are kept to the millisecond.
public struct MarkerEncoder: Sendable {
  /// The labels in the order of `SecondScore.probabilities`; markers take their names and emoji.
  public var labels: [Label]
  /// How many seconds before its scene a marker's emoji is shown (0 allowed).
  public var seekAhead: Double
  /// Shortest scene that survives smoothing, in seconds; 0 disables smoothing.
  public var minimumSceneLength: Double
  /// The scary probability from which a sample is scary (labels without `scary` ignore it);
  /// nil: the most probable label.
  public var scaryThreshold: Double? = nil
  /// Seconds between samples: the sampler's interval.
  public var interval: Double
  /// How sound and pace join the picture, for scores that carry signals (see `SignalFusion`);
  /// scores without signals are labelled by the picture alone, as before.
  public var fusion: SignalFusion = .standard

  /// - Precondition: `labels` is not empty, `interval > 0`, `seekAhead >= 0`,
  ///   `minimumSceneLength >= 0`.
  public init(
    labels: [Label], interval: Double, seekAhead: Double = 5, minimumSceneLength: Double = 2
  ) {
    precondition(!labels.isEmpty, "the marker encoder needs at least one label")
    precondition(interval > 0 && interval.isFinite, "interval must be a finite number > 0")
    precondition(seekAhead >= 0 && seekAhead.isFinite, "seekAhead must be a finite number >= 0")
    precondition(
      minimumSceneLength >= 0 && minimumSceneLength.isFinite, "minimumSceneLength must be >= 0")
    self.labels = labels
    self.interval = interval
    self.seekAhead = seekAhead
    self.minimumSceneLength = minimumSceneLength
  }

  /// Markers and per-sample labels for `scores` (any order; empty gives an empty timeline).
  /// - Precondition: every `probabilities` array has one value per label. Non-finite values
  ///   count as 0.
  public func encode(_ scores: [SecondScore]) -> EncodedTimeline {
    let ordered = scores.enumerated().sorted {
      $0.element.second != $1.element.second
        ? $0.element.second < $1.element.second : $0.offset < $1.offset
    }.map(\.element)
    guard !ordered.isEmpty else {
      return EncodedTimeline(markers: [], frames: [], labels: [], events: [])
    }
    let rows: [[Double]] = ordered.map { score in
      precondition(
        score.probabilities.count == labels.count,
        "second \(score.second): \(score.probabilities.count) probabilities for \(labels.count) labels"
      )
      return score.probabilities.map { $0.isFinite ? Double($0) : 0 }
    }
    let withSignals = ordered.contains { $0.signals != nil }
    let scary = labels.firstIndex { $0.name == Label.scary.name }
    let pictureLabels = rows.map(label(of:))
    let fired: [Set<Signal>] =
      if let scary, withSignals {
        firedSignals(ordered, rows: rows, pictureLabels: pictureLabels, scary: scary)
      } else {
        Array(repeating: [], count: ordered.count)
      }
    let raw = rows.indices.map { i in
      let picture = pictureLabels[i]
      guard let scary, withSignals else { return picture }
      if !fired[i].isEmpty { return scary }
      // The picture alone would say scary, but it may not fire (`--signals` without picture).
      return picture == scary ? LabelRule.mostProbable(rows[i], except: scary) : picture
    }
    let minimumSamples = max(1, Int((minimumSceneLength / interval - 1e-9).rounded(.up)))
    let smoothed = SceneSmoother(minimumSamples: minimumSamples).smooth(
      labels: raw, probabilities: rows)

    func names(_ signals: Set<Signal>) -> [String]? {
      signals.isEmpty ? nil : signals.sorted().map(\.rawValue)
    }
    var markers: [Marker] = []
    var start = 0
    while start < ordered.count {
      var end = start + 1
      while end < ordered.count && smoothed[end] == smoothed[start] { end += 1 }
      let label = smoothed[start]
      let total = rows[start..<end].reduce(0.0) { $0 + $1[label] }
      let second = Rounding.time(ordered[start].second)
      let why: Set<Signal> =
        withSignals && label == scary ? fired[start..<end].reduce([]) { $0.union($1) } : []
      markers.append(
        Marker(
          confidence: Rounding.probability(total / Double(end - start)),
          cueAt: Rounding.time(max(0, second - seekAhead)),
          emoji: labels[label].emoji,
          label: labels[label].name,
          second: second,
          firedBy: names(why)))
      start = end
    }
    let frames = ordered.indices.map { i in
      FrameScore(
        second: Rounding.time(ordered[i].second),
        label: labels[smoothed[i]].name,
        probabilities: Dictionary(
          zip(labels.map(\.name), rows[i].map(Rounding.probability)),
          uniquingKeysWith: { first, _ in first }),
        intensity: ordered[i].signals.map { Rounding.probability($0.intensity) },
        firedBy: withSignals ? names(fired[i]) : nil)
    }
    let events: [TimelineEvent] =
      fusion.signals.contains(.sudden)
      ? ordered.filter { $0.signals?.sudden == true }.map { score in
        let second = Rounding.time(score.second)
        return TimelineEvent(
          cueAt: Rounding.time(max(0, second - seekAhead)), kind: TimelineEvent.sudden,
          second: second)
      } : []
    return EncodedTimeline(
      markers: markers, frames: frames, labels: smoothed.map { labels[$0] }, events: events)
  }

  /// The signals that fire for each sample (time order), before smoothing, given each sample's
  /// picture label and the index of the scary label.
  func firedSignals(
    _ ordered: [SecondScore], rows: [[Double]], pictureLabels: [Int], scary: Int
  ) -> [Set<Signal>] {
    // Without a tuned threshold the picture decides by its most probable label; sound then
    // compares with an even chance.
    let threshold = scaryThreshold ?? 0.5
    var previousSudden = false
    return ordered.indices.map { i in
      let signals = ordered[i].signals
      let fired = fusion.fired(
        p: rows[i][scary], pictureFires: pictureLabels[i] == scary, threshold: threshold,
        signals: signals, previousSudden: previousSudden)
      previousSudden = signals?.sudden ?? false
      return fired
    }
  }

  /// The picture's label of one sample with these probabilities, as an index into `labels`,
  /// and whether it is scary: step 1's decision (before smoothing and sound), the one the
  /// poster uses too, so that a second's label is decided in one place.
  public func pictureLabel(of probabilities: [Float]) -> (index: Int, isScary: Bool) {
    precondition(probabilities.count == labels.count, "one probability per label")
    let index = label(of: probabilities.map { $0.isFinite ? Double($0) : 0 })
    return (index, labels[index].name == Label.scary.name)
  }

  /// The label of one sample before smoothing (step 1), as an index into `labels`: decided
  /// here, once (`LabelRule`), and carried as a `Label` from then on.
  func label(of row: [Double]) -> Int {
    LabelRule.decide(
      row, threshold: scaryThreshold,
      scary: labels.firstIndex(where: { $0.name == Label.scary.name }))
  }
}

/// What the marker encoder produces for one video.
public struct EncodedTimeline: Equatable, Sendable {
  /// One marker per scene, sorted by `second`.
  public var markers: [Marker]
  /// One entry per sample, in time order, with the smoothed label: the `frames` array of
  /// `MovieData.json` and the data of mood strips.
  public var frames: [FrameScore]
  /// The label of each sample after smoothing (the label of `frames`), in time order.
  public var labels: [Label]
  /// Sudden scares, in time order (empty for a video without sound).
  public var events: [TimelineEvent]

  public init(
    markers: [Marker], frames: [FrameScore], labels: [Label], events: [TimelineEvent] = []
  ) {
    self.markers = markers
    self.frames = frames
    self.labels = labels
    self.events = events
  }
}
