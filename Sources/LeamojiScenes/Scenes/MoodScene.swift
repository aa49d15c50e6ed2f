import LeamojiCore

/// One generated scene of a given mood: a deterministic function of `(mood, seed)`.
///
/// The composition is drawn in resolution-independent world coordinates, so the same scene
/// can be rendered at 64x64 for training and at 640x360 for a sample video and shows the same
/// picture (a wider frame reveals more at the sides). Rendering is single-threaded and uses
/// only portable arithmetic, so pixels are identical run to run.
public struct MoodScene: Sendable {
  /// The mood the scene was composed for (its ground-truth label).
  public let mood: Mood
  /// The seed it was composed from.
  public let seed: UInt64
  /// The family of compositions it was drawn from.
  public let set: SceneSet
  let plan: ScenePlan
  /// Film finishing applied to the developed image (letterbox, motion blur); `varied` only.
  let film: FilmFinish

  /// Composes the scene for `mood` from `seed`. Different moods use unrelated random streams,
  /// so `(happy, 7)` and `(scary, 7)` share nothing; so do the two sets.
  public init(mood: Mood, seed: UInt64, set: SceneSet = .classic) {
    self.mood = mood
    self.seed = seed
    self.set = set
    switch set {
    case .classic:
      var rng = SceneRandom(
        seed: SceneRandom.mix(seed, 0x4C45_414D_0000 | UInt64(mood.index + 1)))
      switch mood {
      case .happy: plan = HappyScenes.compose(&rng)
      case .neutral: plan = NeutralScenes.compose(&rng)
      case .scary: plan = ScaryScenes.compose(&rng)
      }
      film = FilmFinish()
    case .varied:
      var rng = SceneRandom(
        seed: SceneRandom.mix(seed, 0x5641_5249_0000 | UInt64(mood.index + 1)))
      (plan, film) = VariedScenes.compose(mood: mood, &rng)
    }
  }

  /// The composition family, e.g. `"sunny-meadow"`, `"evening-room"`, `"dark-forest"`
  /// (useful to check coverage and to explain a misclassification).
  public var variant: String { plan.variant }

  /// Renders the scene.
  /// - Parameters:
  ///   - size: output size in pixels (any aspect ratio).
  ///   - camera: framing; `.standard` shows the designed composition.
  ///   - time: seconds since the shot began, for moving elements and flicker (0 for stills).
  ///   - grainSeed: film-grain pattern; by default derived from the scene's seed.
  public func render(
    size: PixelSize, camera: SceneCamera = .standard, time: Double = 0, grainSeed: UInt32? = nil
  ) -> RGBImage {
    let grain = grainSeed ?? UInt32(truncatingIfNeeded: SceneRandom.mix(seed, 0x6752_6169_6E00))
    let image = Renderer.render(plan, size: size, camera: camera, time: time, grainSeed: grain)
    return film.isEmpty ? image : film.apply(to: image)
  }
}

/// Renders the still scene of `mood` for `seed` at `size` from `set`: the one-call way to make
/// a training image. Same arguments, same pixels.
public func makeScene(mood: Mood, seed: UInt64, size: PixelSize, set: SceneSet = .classic)
  -> RGBImage
{
  MoodScene(mood: mood, seed: seed, set: set).render(size: size)
}
