import LeamojiCore

/// A synthetic video clip cut from generated scenes, with known labels: the source of the
/// sample videos and their ground truth.
///
/// Each segment of the script is one shot of a fresh scene of its mood, with gentle motion
/// (a slow camera pan or push-in, drifting clouds and confetti, bobbing balloons, a handheld
/// shake and flickering lights in scary shots) and a hard cut to the next segment. Frames are
/// rendered on demand, so a long clip costs no memory.
public struct SceneClip: Sendable {
  /// One shot: a mood held for a duration.
  public struct Segment: Equatable, Sendable {
    public var mood: Mood
    /// Duration in seconds (> 0). Whole seconds keep per-second labels unambiguous.
    public var seconds: Double
    public init(_ mood: Mood, seconds: Double) {
      precondition(seconds > 0, "a segment must last more than 0 s")
      self.mood = mood
      self.seconds = seconds
    }
  }

  /// The script this clip was made from.
  public let script: [Segment]
  /// The seed every shot, movement and grain pattern derives from.
  public let seed: UInt64
  /// Frame size in pixels.
  public let size: PixelSize
  /// Frames per second.
  public let fps: Int
  /// Total number of frames: `fps` x total seconds (rounded to whole frames).
  public let frameCount: Int
  /// First frame of each segment, plus `frameCount` at the end.
  public let segmentStarts: [Int]
  private let scenes: [MoodScene]
  private let moves: [CameraMove]

  /// A clip of `script`'s segments in order, each shot composed from `seed` and its position.
  public init(script: [Segment], seed: UInt64, size: PixelSize, fps: Int = 25) {
    precondition(!script.isEmpty, "a clip needs at least one segment")
    precondition(fps > 0, "fps must be positive")
    self.script = script
    self.seed = seed
    self.size = size
    self.fps = fps
    var starts: [Int] = []
    var elapsed = 0.0
    for segment in script {
      starts.append(Int((elapsed * Double(fps)).rounded()))
      elapsed += segment.seconds
    }
    frameCount = Int((elapsed * Double(fps)).rounded())
    starts.append(frameCount)
    segmentStarts = starts
    var scenes: [MoodScene] = []
    var moves: [CameraMove] = []
    for (k, segment) in script.enumerated() {
      let shotSeed = SceneRandom.mix(seed, UInt64(k) &+ 0x5C07)
      scenes.append(MoodScene(mood: segment.mood, seed: shotSeed))
      var rng = SceneRandom(seed: SceneRandom.mix(shotSeed, 0xCA3E_4A00))
      moves.append(CameraMove(&rng, mood: segment.mood))
    }
    self.scenes = scenes
    self.moves = moves
  }

  /// Convenience: a script as `(mood, seconds)` pairs.
  public init(script: [(Mood, Double)], seed: UInt64, size: PixelSize, fps: Int = 25) {
    self.init(script: script.map { Segment($0.0, seconds: $0.1) }, seed: seed, size: size, fps: fps)
  }

  /// Duration in seconds (`frameCount / fps`).
  public var duration: Double { Double(frameCount) / Double(fps) }

  /// Index of the segment that frame `index` belongs to.
  public func segmentIndex(atFrame index: Int) -> Int {
    precondition(index >= 0 && index < frameCount, "frame \(index) is outside 0..<\(frameCount)")
    var k = 0
    while k + 1 < script.count && segmentStarts[k + 1] <= index { k += 1 }
    return k
  }

  /// The ground-truth mood of frame `index`.
  public func mood(atFrame index: Int) -> Mood {
    script[segmentIndex(atFrame: index)].mood
  }

  /// The ground truth for leamoji's sampling: the mood of the frame on screen at each whole
  /// second `t = 0, 1, 2, ...` while `t < duration`.
  public var labelsPerSecond: [Mood] {
    var labels: [Mood] = []
    var second = 0
    while Double(second) < duration {
      labels.append(mood(atFrame: min(second * fps, frameCount - 1)))
      second += 1
    }
    return labels
  }

  /// Renders frame `index` (0-based).
  public func frame(at index: Int) -> RGBImage {
    let k = segmentIndex(atFrame: index)
    let local = index - segmentStarts[k]
    let length = segmentStarts[k + 1] - segmentStarts[k]
    let progress = length > 1 ? Double(local) / Double(length - 1) : 0
    let time = Double(local) / Double(fps)
    let camera = moves[k].camera(progress: progress, time: time)
    let grain = UInt32(truncatingIfNeeded: SceneRandom.mix(seed, UInt64(index) &+ 0x6A41))
    return scenes[k].render(size: size, camera: camera, time: time, grainSeed: grain)
  }
}

/// A shot's slow camera movement: an eased pan and/or zoom, plus handheld shake for scary
/// shots.
struct CameraMove: Sendable {
  var from: SceneCamera
  var to: SceneCamera
  var shake: Double

  init(_ rng: inout SceneRandom, mood: Mood) {
    let panX = rng.uniform(-0.06, 0.06)
    let panY = rng.uniform(-0.02, 0.02)
    let z0 = rng.uniform(1, 1.05)
    let z1 = rng.chance(0.5) ? z0 + rng.uniform(0.03, 0.1) : max(1, z0 - rng.uniform(0.02, 0.05))
    from = SceneCamera(centerX: 0.5 - panX / 2, centerY: 0.5 - panY / 2, zoom: z0)
    to = SceneCamera(centerX: 0.5 + panX / 2, centerY: 0.5 + panY / 2, zoom: z1)
    shake = mood == .scary ? rng.uniform(0.002, 0.005) : 0
  }

  func camera(progress: Double, time: Double) -> SceneCamera {
    let p = min(max(progress, 0), 1)
    let e = p * p * (3 - 2 * p)
    var c = SceneCamera(
      centerX: from.centerX + (to.centerX - from.centerX) * e,
      centerY: from.centerY + (to.centerY - from.centerY) * e,
      zoom: from.zoom + (to.zoom - from.zoom) * e)
    if shake > 0 {
      c.centerX +=
        shake * (PortableMath.sceneSin(time * 7.1) + 0.5 * PortableMath.sceneSin(time * 13.3 + 1))
      c.centerY +=
        shake * (PortableMath.sceneSin(time * 5.3 + 2) + 0.5 * PortableMath.sceneSin(time * 11.9))
    }
    return c
  }
}
