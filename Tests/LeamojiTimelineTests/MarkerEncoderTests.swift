import Foundation
import LeamojiCore
import Testing

@testable import LeamojiTimeline

@Suite("Marker encoder")
struct MarkerEncoderTests {
  let encoder = MarkerEncoder(labels: Label.standard, interval: 1)

  /// Each sample's label before smoothing: the encoder's labels with smoothing off.
  func rawLabels(_ encoder: MarkerEncoder, _ scores: [SecondScore]) -> [String] {
    var raw = encoder
    raw.minimumSceneLength = 0
    return raw.encode(scores).labels.map(\.name)
  }

  func summary(_ markers: [Marker]) -> [String] { markers.map { "\($0.label)@\($0.second)" } }

  @Test("a one-second flicker is removed: h h s h h gives one marker")
  func flickerRemoved() {
    let timeline = encoder.encode(scores("hhshh"))
    #expect(summary(timeline.markers) == ["happy@0.0"])
    #expect(timeline.labels == Array(repeating: Label.happy, count: 5))
    #expect(rawLabels(encoder, scores("hhshh")) == ["happy", "happy", "scary", "happy", "happy"])
    // Mean happy probability over the five samples: (4 * 0.8 + 0.1) / 5.
    #expect(timeline.markers[0].confidence == 0.66)
  }

  @Test(
    "a scary threshold: scary exactly from that probability, otherwise the most probable other label"
  )
  func scaryThreshold() {
    // happy, neutral, scary per second.
    let rows: [[Float]] = [
      [0.35, 0.3, 0.35], [0.2, 0.45, 0.35], [0.05, 0.3, 0.65], [0.1, 0.1, 0.8], [0.6, 0.3, 0.1],
    ]
    let scores = rows.enumerated().map {
      SecondScore(second: Double($0.offset), probabilities: $0.element)
    }
    var tuned = MarkerEncoder(labels: Label.standard, interval: 1, minimumSceneLength: 0)
    #expect(
      tuned.encode(scores).labels.map(\.name) == ["happy", "neutral", "scary", "scary", "happy"])
    tuned.scaryThreshold = 0.3
    #expect(
      tuned.encode(scores).labels.map(\.name) == ["scary", "scary", "scary", "scary", "happy"])
    tuned.scaryThreshold = 0.7
    #expect(
      tuned.encode(scores).labels.map(\.name) == ["happy", "neutral", "neutral", "scary", "happy"])
    // A model without a scary label ignores it.
    var other = MarkerEncoder(
      labels: [Label(name: "calm", emoji: "🙂"), Label(name: "loud", emoji: "📢")], interval: 1,
      minimumSceneLength: 0)
    other.scaryThreshold = 0.1
    let two = [SecondScore(second: 0, probabilities: [0.8, 0.2])]
    #expect(other.encode(two).labels.map(\.name) == ["calm"])
  }

  @Test("pictureLabel is the label the timeline gives a sample before smoothing, at any threshold")
  func pictureLabelIsTheTimelines() {
    var random = SplitMix64(seed: 38)
    for threshold in [nil, 0.2, 0.4, 0.7] as [Double?] {
      var encoder = MarkerEncoder(labels: Label.standard, interval: 1, minimumSceneLength: 0)
      encoder.scaryThreshold = threshold
      let scores = (0..<200).map { k -> SecondScore in
        let raw = (0..<3).map { _ in Float(random.next() % 1000) + 1 }
        let sum = raw.reduce(0, +)
        return SecondScore(second: Double(k), probabilities: raw.map { $0 / sum })
      }
      let timeline = encoder.encode(scores).labels.map(\.name)
      let decided = scores.map { encoder.pictureLabel(of: $0.probabilities) }
      #expect(decided.map { Label.standard[$0.index].name } == timeline)
      #expect(decided.map(\.isScary) == timeline.map { $0 == "scary" })
    }
  }

  @Test("a two-second scene survives (the minimum scene length is 2 s)")
  func twoSecondSceneSurvives() {
    let timeline = encoder.encode(scores("hhsshh"))
    #expect(summary(timeline.markers) == ["happy@0.0", "scary@2.0", "happy@4.0"])
    #expect(timeline.markers.map(\.confidence) == [0.8, 0.8, 0.8])
  }

  @Test("flicker at the start and at the end is removed too")
  func edgeFlicker() {
    #expect(summary(encoder.encode(scores("shhhh")).markers) == ["happy@0.0"])
    #expect(summary(encoder.encode(scores("hhhhs")).markers) == ["happy@0.0"])
  }

  @Test("a flicker between two different scenes joins the more probable neighbour")
  func flickerBetweenScenes() {
    var input = scores("hhsnn")
    input[2].probabilities = [0.35, 0.25, 0.4]  // scary by a hair; happy beats neutral
    #expect(summary(encoder.encode(input).markers) == ["happy@0.0", "neutral@3.0"])
    input[2].probabilities = [0.25, 0.35, 0.4]
    #expect(summary(encoder.encode(input).markers) == ["happy@0.0", "neutral@2.0"])
  }

  @Test("change points, emoji, confidence (4 decimals) and cueAt")
  func changePoints() {
    var input = scores("hhhhhhhhhhhhsssss")  // scary from 12 s on
    input[12].probabilities = [0.1, 0.2, 0.7]
    input[13].probabilities = [0.05, 0.05, 0.9]
    input[0].probabilities = [0.91234567, 0.05, 0.03765433]
    let markers = encoder.encode(input).markers
    #expect(
      markers == [
        Marker(confidence: 0.8094, cueAt: 0, emoji: "😀", label: "happy", second: 0),
        Marker(confidence: 0.8, cueAt: 7, emoji: "😱", label: "scary", second: 12),
      ])
  }

  @Test("cueAt is clamped at 0, and seekAhead 0 puts the cue on the scene")
  func seekAhead() {
    let clamped = encoder.encode(scores("hhhsssnnn")).markers
    #expect(clamped.map(\.cueAt) == [0, 0, 1])
    let immediate = MarkerEncoder(labels: Label.standard, interval: 1, seekAhead: 0).encode(
      scores("hhhsssnnn")
    )
    .markers
    #expect(immediate.map(\.cueAt) == immediate.map(\.second))
    #expect(immediate.map(\.cueAt) == [0, 3, 6])
    let fractional = MarkerEncoder(labels: Label.standard, interval: 1, seekAhead: 2.5).encode(
      scores("hhhhsss")
    )
    .markers
    #expect(fractional.map(\.cueAt) == [0, 1.5])
    #expect(!clamped.contains { $0.cueAt.sign == .minus })
  }

  @Test("one label throughout gives exactly one marker; no samples give none")
  func degenerate() {
    let one = encoder.encode(scores(String(repeating: "n", count: 30)))
    #expect(
      one.markers == [Marker(confidence: 0.8, cueAt: 0, emoji: "😐", label: "neutral", second: 0)])
    let single = encoder.encode(scores("s"))
    #expect(summary(single.markers) == ["scary@0.0"])
    let empty = encoder.encode([])
    #expect(empty.markers.isEmpty && empty.frames.isEmpty && empty.labels.isEmpty)
  }

  @Test("interval 0.5: a 1.5 s scene is flicker, a 2 s scene survives, times stay fractional")
  func halfSecondInterval() {
    let half = MarkerEncoder(labels: Label.standard, interval: 0.5)
    let short = half.encode(scores("hhhhhssshhhh", interval: 0.5))
    #expect(summary(short.markers) == ["happy@0.0"])
    let real = MarkerEncoder(labels: Label.standard, interval: 0.5, seekAhead: 1).encode(
      scores("hhhhhsssshhhh", interval: 0.5))
    #expect(summary(real.markers) == ["happy@0.0", "scary@2.5", "happy@4.5"])
    #expect(real.markers.map(\.cueAt) == [0, 1.5, 3.5])
    #expect(real.frames.map(\.second).prefix(3) == [0, 0.5, 1])
  }

  @Test(
    "ties: equal probabilities take the first label; equal neighbours take the longer, then the earlier"
  )
  func ties() {
    let even = encoder.encode([SecondScore(second: 0, probabilities: [0.5, 0, 0.5])])
    #expect(summary(even.markers) == ["happy@0.0"])
    var boundary = scores("hhhss")
    boundary[2].probabilities = [0.45, 0.1, 0.45]
    #expect(summary(encoder.encode(boundary).markers) == ["happy@0.0", "scary@3.0"])
    // The flicker is as likely happy as neutral: the longer neighbour wins, then the earlier.
    var between = scores("hhhsnn")
    between[3].probabilities = [0.3, 0.3, 0.4]
    #expect(summary(encoder.encode(between).markers) == ["happy@0.0", "neutral@4.0"])
    between = scores("hhsnn")
    between[2].probabilities = [0.3, 0.3, 0.4]
    #expect(summary(encoder.encode(between).markers) == ["happy@0.0", "neutral@3.0"])
    // The same input in any order gives the same result.
    #expect(encoder.encode(boundary.reversed()) == encoder.encode(boundary))
  }

  @Test("two flickers side by side at the start both join the scene, not each other")
  func adjacentFlickers() {
    #expect(summary(encoder.encode(scores("hshhhh")).markers) == ["happy@0.0"])
    #expect(summary(encoder.encode(scores("nshhhh")).markers) == ["happy@0.0"])
    #expect(summary(encoder.encode(scores("hhhhsnhhhh")).markers) == ["happy@0.0"])
  }

  @Test("a video that only flickers still ends with scenes of at least 2 s")
  func onlyFlicker() {
    let markers = encoder.encode(scores("hsnhsnh")).markers
    #expect(zip(markers, markers.dropFirst()).allSatisfy { $1.second - $0.second >= 2 })
    #expect((markers.last.map { 7 - $0.second } ?? 0) >= 2)
    #expect(encoder.encode(scores("hsnhsnh")) == encoder.encode(scores("hsnhsnh")))
  }

  @Test("frames carry the smoothed label and rounded probabilities; markers the label's emoji")
  func framesAndEmoji() {
    let custom = MarkerEncoder(
      labels: [Label(name: "calm", emoji: "🙂"), Label(name: "tense")], interval: 1)
    let timeline = custom.encode([
      SecondScore(second: 1, probabilities: [0.123456, 0.876544]),
      SecondScore(second: 0, probabilities: [0.2, 0.8]),
    ])
    #expect(timeline.markers.map(\.emoji) == ["❔"])
    #expect(
      timeline.frames == [
        FrameScore(second: 0, label: "tense", probabilities: ["calm": 0.2, "tense": 0.8]),
        FrameScore(second: 1, label: "tense", probabilities: ["calm": 0.1235, "tense": 0.8765]),
      ])
  }

  @Test("minimumSceneLength 0 keeps every raw change")
  func noSmoothing() {
    let raw = MarkerEncoder(labels: Label.standard, interval: 1, minimumSceneLength: 0).encode(
      scores("hhshh"))
    #expect(summary(raw.markers) == ["happy@0.0", "scary@2.0", "happy@3.0"])
  }

  @Test("noisy input: every scene lasts at least 2 s, markers alternate, cueAt follows second")
  func noisyInvariants() {
    var random = UInt64(42)
    func next() -> Float {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Float(random >> 40) / Float(1 << 24)
    }
    let input = (0..<600).map { second in
      let raw = [next(), next(), next()]
      let sum = raw.reduce(0, +)
      return SecondScore(second: Double(second), probabilities: raw.map { $0 / sum })
    }
    let markers = encoder.encode(input).markers
    #expect(markers.first?.second == 0)
    for (a, b) in zip(markers, markers.dropFirst()) {
      #expect(b.second - a.second >= 2)
      #expect(a.label != b.label)
    }
    #expect((markers.last.map { 600 - $0.second } ?? 0) >= 2)
    #expect(markers.allSatisfy { $0.cueAt == max(0, $0.second - 5) })
  }

  @Test("scenes of 2 s or more are never relabelled, and every smoothed scene grew from one")
  func scenesPreserved() {
    var random = UInt64(7)
    func next() -> Int {
      random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(random >> 33)
    }
    for trial in 0..<20 {
      // Sticky random labels: long scenes with frequent one- and two-sample interruptions.
      var raw: [Int] = []
      var current = 0
      while raw.count < 200 + trial {
        if next() % 4 == 0 { current = next() % 3 }
        raw.append(current)
      }
      let rows = raw.map { label in
        (0..<3).map { $0 == label ? 0.5 + Double(next() % 40) / 100 : Double(next() % 10) / 100 }
      }
      let smoothed = SceneSmoother(minimumSamples: 2).smooth(labels: raw, probabilities: rows)
      #expect(shortestRun(smoothed) >= 2)
      var rawScenes: [(label: Int, range: Range<Int>)] = []
      var start = 0
      for i in 1...raw.count where i == raw.count || raw[i] != raw[start] {
        if i - start >= 2 { rawScenes.append((raw[start], start..<i)) }
        start = i
      }
      for scene in rawScenes {
        #expect(smoothed[scene.range].allSatisfy { $0 == scene.label }, "trial \(trial)")
      }
      start = 0
      for i in 1...smoothed.count where i == smoothed.count || smoothed[i] != smoothed[start] {
        let grewFromScene = rawScenes.contains {
          $0.label == smoothed[start] && $0.range.clamped(to: start..<i) == $0.range
        }
        #expect(grewFromScene, "trial \(trial): run \(start)..<\(i)")
        start = i
      }
    }
  }

  private func shortestRun(_ labels: [Int]) -> Int {
    var shortest = Int.max
    var start = 0
    for i in 1...labels.count where i == labels.count || labels[i] != labels[start] {
      shortest = min(shortest, i - start)
      start = i
    }
    return shortest
  }

  @Test("the interval sets the flicker length: a lone sample 4 s long is a scene")
  func intervalSetsFlicker() {
    let seconds = [0, 0.5, 1, 1.5, 2, 6, 6.5, 7, 7.5]
    let labels = "hhhhshhhh"
    let scores = zip(seconds, labels).map { second, letter in
      SecondScore(
        second: second,
        probabilities: letter == "h" ? [0.8, 0.1, 0.1] : [0.1, 0.1, 0.8])
    }
    var encoder = MarkerEncoder(labels: Label.standard, interval: 0.5)
    #expect(encoder.encode(scores).markers.map(\.label) == ["happy"], "one 0.5 s sample is flicker")
    encoder.interval = 4
    #expect(encoder.encode(scores).markers.map(\.label) == ["happy", "scary", "happy"])
  }
}
