import Foundation
import LeamojiCore
import Testing

@testable import LeamojiTimeline

@Suite("Signal fusion in the marker encoder")
struct SignalFusionTests {
  /// An encoder at the normal threshold 0.4 with the standard fusion.
  var encoder: MarkerEncoder {
    var encoder = MarkerEncoder(labels: Label.standard, interval: 1)
    encoder.scaryThreshold = 0.4
    encoder.fusion = SignalFusion(soundWeight: 0.5, soundMargin: 0.1, pictureFloor: 0.1)
    return encoder
  }

  /// Scores with scary probability `p[i]` (the rest neutral) and the given intensities.
  func scores(_ p: [Float], intensity: [Double]?, sudden: Set<Int> = []) -> [SecondScore] {
    p.indices.map { i in
      SecondScore(
        second: Double(i), probabilities: [0, 1 - p[i], p[i]],
        signals: intensity.map { SecondSignals(intensity: $0[i], sudden: sudden.contains(i)) })
    }
  }

  @Test("without signals the timeline is exactly the picture's, with no firedBy or events")
  func noSignalsNoChange() {
    let p: [Float] = [0.1, 0.2, 0.5, 0.6, 0.2, 0.1]
    let timeline = encoder.encode(scores(p, intensity: nil))
    var pictureOnly = encoder
    pictureOnly.fusion = .pictureOnly
    #expect(timeline == pictureOnly.encode(scores(p, intensity: nil)))
    #expect(timeline.markers.allSatisfy { $0.firedBy == nil })
    #expect(timeline.frames.allSatisfy { $0.firedBy == nil && $0.intensity == nil })
    #expect(timeline.events.isEmpty)
    #expect(timeline.markers.map(\.label) == ["neutral", "scary", "neutral"])
  }

  @Test("a loud second with a worried picture is scary, fired by sound; a loud calm one is not")
  func soundFires() {
    // p + i >= 1.0 fires sound at weight 0.5, margin 0.1, threshold 0.4; p below 0.1 never.
    let p: [Float] = [0.05, 0.05, 0.3, 0.3, 0.3, 0.05, 0.05]
    let i: [Double] = [0.9, 0.9, 0.8, 0.75, 0.2, 1.0, 1.0]
    let timeline = encoder.encode(scores(p, intensity: i))
    #expect(
      timeline.labels.map(\.name) == [
        "neutral", "neutral", "scary", "scary", "neutral", "neutral", "neutral",
      ])
    #expect(timeline.markers[1].label == "scary")
    #expect(timeline.markers[1].firedBy == ["sound"])
    #expect(timeline.frames[2].firedBy == ["sound"])
    #expect(timeline.frames[4].firedBy == nil)
    #expect(timeline.frames[0].intensity == 0.9)
    #expect(timeline.markers[0].firedBy == nil)
  }

  @Test("picture and sound together are both named, in order")
  func bothNamed() {
    let timeline = encoder.encode(
      scores([0.9, 0.9, 0.35, 0.1, 0.1], intensity: [0.0, 0.9, 0.9, 0.1, 0.1]))
    #expect(timeline.markers[0].firedBy == ["picture", "sound"])
    #expect(timeline.frames[0].firedBy == ["picture"])
    #expect(timeline.frames[1].firedBy == ["picture", "sound"])
    #expect(timeline.frames[2].firedBy == ["sound"])
  }

  @Test("a sudden second makes a scene of two seconds and an event, even with an unsure picture")
  func suddenScene() {
    let p: [Float] = [0.05, 0.05, 0.05, 0.1, 0.05, 0.05, 0.05]
    let timeline = encoder.encode(
      scores(p, intensity: Array(repeating: 0.1, count: 7), sudden: [3]))
    #expect(timeline.markers.map(\.label) == ["neutral", "scary", "neutral"])
    #expect(timeline.markers[1].second == 3)
    #expect(timeline.markers[1].firedBy == ["sudden"])
    #expect(timeline.events == [TimelineEvent(cueAt: 0, kind: "sudden", second: 3)])
  }

  @Test("--signals picture ignores the sound; --signals sound does not let the picture fire")
  func choosingSignals() {
    let p: [Float] = [0.9, 0.9, 0.05, 0.3, 0.3, 0.05, 0.05]
    let i: [Double] = [0.1, 0.1, 0.1, 0.9, 0.9, 0.1, 0.1]
    var picture = encoder
    picture.fusion = .pictureOnly
    let byPicture = picture.encode(scores(p, intensity: i, sudden: [5]))
    #expect(
      byPicture.labels.map(\.name) == [
        "scary", "scary", "neutral", "neutral", "neutral", "neutral", "neutral",
      ])
    #expect(byPicture.markers[0].firedBy == ["picture"])
    #expect(byPicture.events.isEmpty)
    var sound = encoder
    sound.fusion.signals = [.sound]
    let bySound = sound.encode(scores(p, intensity: i))
    #expect(
      bySound.labels.map(\.name) == [
        "neutral", "neutral", "neutral", "scary", "scary", "neutral", "neutral",
      ])
  }

  @Test("markers and events with firedBy round-trip through MovieData.json; old readers' keys stay")
  func roundTrip() throws {
    let timeline = encoder.encode(
      scores(
        [0.05, 0.05, 0.3, 0.3, 0.05, 0.05], intensity: [0.1, 0.1, 0.9, 0.9, 0.1, 0.1], sudden: [4]))
    let movie = Movie(
      id: "m", title: "m", duration: 6, markers: timeline.markers,
      model: ModelInfo(labels: ["happy", "neutral", "scary"], sha256: "x"), seekAhead: 5,
      frames: timeline.frames, events: timeline.events)
    let bytes = try MovieData.encode([movie])
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("\"firedBy\" : ["))
    #expect(text.contains("\"kind\" : \"sudden\""))
    let read = try MovieData.decode(bytes, path: "m.json")
    #expect(read == [movie])
    // The entry as leamoji reads any file: the same typed view, no problems noted.
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
    #expect(object[0]["events"] != nil)
    let markers = try #require(object[0]["markers"] as? [[String: Any]])
    try #require(markers.count == 2)
    #expect(markers[1]["firedBy"] as? [String] == ["sound", "sudden"])
  }
}
