/// The `varied` scene set: the look first, drawn the same way for every mood, then content of
/// the mood that fits the look. So dark scenes are as often happy (fireworks, fairy lights, a
/// candle-lit birthday, a campfire) as neutral (night traffic, a screen in a dim office, a
/// cinema, a restaurant) or scary (a creature's glowing eyes, a screaming face), and bright,
/// colourful and grey scenes are likewise shared (a creature in daylight, a shark fin at a
/// colourful beach, a storm front; laughing children under a grey sky; a colourful street).
/// Grain, letterbox bars, motion blur and credits text are drawn independently of the mood too.
enum VariedScenes {
  /// The lighting and colour of a scene, independent of its mood.
  enum Look: CaseIterable { case dark, dim, bright, colourful, grey }

  /// A content family: its name, the looks it suits, and how it is drawn.
  struct Family: Sendable {
    let name: String
    let looks: Set<Look>
    let draw: @Sendable (inout SceneSketch, Look, inout SceneRandom) -> Void
  }

  static let all: Set<Look> = Set(Look.allCases)

  /// The plan and film finishing of a random scene of `mood`.
  static func compose(mood: Mood, _ rng: inout SceneRandom) -> (ScenePlan, FilmFinish) {
    let look = rng.pick(Look.allCases)
    let families = families(of: mood).filter { $0.looks.contains(look) }
    let family = rng.pick(families)
    var s = SceneSketch()
    family.draw(&s, look, &rng)
    if rng.chance(0.12) {
      s.credits(&rng, y0: rng.float(0.15...0.6), lines: rng.int(in: 2...5), lineHeight: 0.022)
    }
    var film = FilmFinish()
    if rng.chance(0.3) { film.letterbox = rng.float(0.07...0.13) }
    if rng.chance(0.2) { film.motionBlur = rng.float(0.01...0.04) }
    return (s.plan(grade: grade(look, &rng), variant: family.name, rng: &rng), film)
  }

  /// The families of each mood, by name (for coverage tests and documentation).
  static func familyNames(of mood: Mood) -> [String] { families(of: mood).map(\.name) }

  static func families(of mood: Mood) -> [Family] {
    switch mood {
    case .happy: return HappyCues.families
    case .neutral: return NeutralCues.families
    case .scary: return ScaryCues.families
    }
  }

  /// The grade of a look: exposure key, saturation, cast, contrast, vignette and grain, all
  /// drawn without regard to the mood.
  static func grade(_ look: Look, _ rng: inout SceneRandom) -> Grade {
    let key: ClosedRange<Float>
    let saturation: ClosedRange<Float>
    switch look {
    case .dark: (key, saturation) = (0.1...0.22, 0.8...1.25)
    case .dim: (key, saturation) = (0.22...0.38, 0.75...1.15)
    case .bright: (key, saturation) = (0.55...0.72, 0.8...1.2)
    case .colourful: (key, saturation) = (0.45...0.65, 1.25...1.6)
    case .grey: (key, saturation) = (0.38...0.55, 0.15...0.45)
    }
    let ambient = look == .dark ? rng.float(0.25...0.55) : rng.float(0.75...1)
    return Grade(
      key: rng.float(key), ambient: Color(grey: ambient), saturation: rng.float(saturation),
      tint: Color(rng.float(0.88...1.12), rng.float(0.94...1.04), rng.float(0.88...1.14)),
      shadowTint: Color(rng.float(0...0.03), rng.float(0...0.03), rng.float(0...0.03)),
      lift: rng.float(0...0.1), contrast: rng.float(0.8...1.6), pivot: rng.float(0.35...0.5),
      vignette: rng.chance(0.5) ? rng.float(0...0.6) : 0, vignetteStart: rng.float(0...0.3),
      grain: rng.chance(0.5) ? rng.float(2...12) : rng.float(0...2))
  }

  // MARK: Shared palette and backdrops

  /// A surface colour that suits the look (any hue).
  static func tone(_ look: Look, _ rng: inout SceneRandom) -> Color {
    switch look {
    case .dark: return rng.color(hue: 0...360, saturation: 0.2...0.7, value: 0.25...0.7)
    case .dim: return rng.color(hue: 0...360, saturation: 0.2...0.6, value: 0.4...0.8)
    case .bright: return rng.color(hue: 0...360, saturation: 0.1...0.5, value: 0.7...1)
    case .colourful: return rng.color(hue: 0...360, saturation: 0.6...0.95, value: 0.7...1)
    case .grey: return rng.color(hue: 0...360, saturation: 0...0.12, value: 0.4...0.9)
    }
  }

  /// A sky for the look: night, dusk, day, a saturated gradient or overcast grey.
  static func sky(_ s: inout SceneSketch, _ look: Look, horizonY: Float, _ rng: inout SceneRandom) {
    switch look {
    case .dark:
      s.sky(
        top: rng.color(hue: 210...270, saturation: 0.4...0.8, value: 0.08...0.2),
        horizon: rng.color(hue: 200...320, saturation: 0.3...0.6, value: 0.2...0.4),
        horizonY: horizonY)
      s.stars(&rng, count: rng.int(in: 5...25), color: Color(1, 0.97, 0.9), maxY: horizonY - 0.1)
    case .dim:
      s.sky(
        top: rng.color(hue: 200...280, saturation: 0.3...0.6, value: 0.3...0.5),
        horizon: rng.color(hue: 10...40, saturation: 0.4...0.7, value: 0.6...0.9),
        horizonY: horizonY)
    case .bright:
      s.sky(
        top: Palette.happySkyTop(&rng), horizon: Palette.happySkyHorizon(&rng), horizonY: horizonY)
    case .colourful:
      s.sky(top: tone(look, &rng), horizon: tone(look, &rng), horizonY: horizonY)
    case .grey:
      s.sky(
        top: Color(grey: rng.float(0.45...0.7)), horizon: Color(grey: rng.float(0.7...0.9)),
        horizonY: horizonY)
    }
  }

  /// Ground under a sky, returning the ridge for standing things on.
  @discardableResult
  static func outdoor(_ s: inout SceneSketch, _ look: Look, _ rng: inout SceneRandom) -> Ridge {
    let horizon = rng.float(0.55...0.72)
    sky(&s, look, horizonY: horizon, &rng)
    let ground = tone(look, &rng)
    let ridge = s.hills(
      &rng, base: horizon, amplitude: rng.float(0.01...0.05),
      paint: .noise(
        ground, ground.scaled(0.85), scale: 20, seed: UInt32(truncatingIfNeeded: rng.next())),
      parallax: 0.8)
    if rng.chance(clutterChance) { outdoorClutter(&s, look, ridge: ridge, &rng) }
    return ridge
  }

  /// A room with a wall, a floor, maybe a window and a lamp; returns the floor line.
  @discardableResult
  static func indoor(_ s: inout SceneSketch, _ look: Look, _ rng: inout SceneRandom) -> Float {
    let floorY = rng.float(0.7...0.85)
    let wall = tone(look, &rng)
    let paint: Paint =
      rng.chance(0.3)
      ? .stripes(wall, wall.scaled(0.88), degrees: 0, period: rng.float(0.05...0.1)) : .solid(wall)
    let floor = tone(look, &rng).scaled(0.8)
    s.room(wall: paint, floor: .solid(floor), floorY: floorY)
    if rng.chance(clutterChance) { indoorClutter(&s, look, floorY: floorY, &rng) }
    if rng.chance(0.4) {
      let wx = rng.float(-0.2...0.8)
      let outside: Color = look == .dark ? Color(0.1, 0.12, 0.25) : tone(look, &rng)
      s.window(
        x0: wx, y0: 0.12, x1: wx + rng.float(0.15...0.25), y1: rng.float(0.35...0.5),
        glass: .solid(outside), glassEmission: 1, frame: tone(look, &rng))
    }
    let lamp = look == .dark || look == .dim
    s.light(
      x: rng.float(0...1), y: rng.float(-0.1...0.3), radius: lamp ? 0.4 : 1,
      color: Color(1, rng.float(0.8...0.95), rng.float(0.6...0.9)).scaled(lamp ? 0.8 : 0.3),
      haze: lamp ? 0.2 : 0)
    return floorY
  }

  /// A street: sky, a row of buildings with windows, a road; returns the road line.
  @discardableResult
  static func street(_ s: inout SceneSketch, _ look: Look, _ rng: inout SceneRandom) -> Float {
    let roadY = rng.float(0.72...0.82)
    sky(&s, look, horizonY: roadY - 0.1, &rng)
    var x: Float = -0.5
    let night = look == .dark || look == .dim
    while x < 1.5 {
      let w = rng.float(0.18...0.35)
      s.building(
        &rng, x0: x, x1: x + w - 0.01, top: rng.float(0.1...0.45), baseY: roadY,
        color: tone(look, &rng), windowDark: Color(grey: 0.15),
        windowLit: night ? Color(1, 0.85, 0.5).scaled(1.2) : tone(look, &rng),
        litFraction: night ? 0.4 : 0.1, windowEmission: night ? 1 : 0)
      x += w
    }
    s.fill(.rect(x0: -2, y0: roadY, x1: 3, y1: 2, corner: 0), Color(grey: rng.float(0.2...0.4)))
    if rng.chance(clutterChance) { streetClutter(&s, look, roadY: roadY, &rng) }
    return roadY
  }

  /// Any of the three backdrops; returns the line things stand on.
  static func anyBackdrop(_ s: inout SceneSketch, _ look: Look, _ rng: inout SceneRandom) -> Float {
    switch rng.int(in: 0...2) {
    case 0: return indoor(&s, look, &rng)
    case 1: return outdoor(&s, look, &rng).base
    default: return street(&s, look, &rng)
    }
  }

  /// A skin tone.
  static func skin(_ rng: inout SceneRandom) -> Color {
    rng.color(hue: 15...35, saturation: 0.25...0.6, value: 0.35...0.95)
  }

  /// One to `most` faces of one expression across the frame, large enough to read at 64 px
  /// (a head radius of at least 0.11 of the frame height: the mouth is then 4 pixels wide).
  /// In dark and dim looks the faces are usually lit, as a film lights its actors, so the
  /// expression stays readable whatever the mood.
  static func faces(
    _ s: inout SceneSketch, _ look: Look, _ rng: inout SceneRandom,
    expression: SceneSketch.Expression, most: Int, baseY: Float = 0.62
  ) {
    let count = rng.int(in: 1...most)
    if (look == .dark || look == .dim) && rng.chance(0.7) {
      s.light(
        x: rng.float(0.3...0.7), y: baseY - rng.float(0.2...0.4), radius: rng.float(0.5...0.8),
        color: Color(1, rng.float(0.8...0.95), rng.float(0.65...0.9)).scaled(rng.float(0.5...0.9)))
    }
    for k in 0..<count {
      let r = count == 1 ? rng.float(0.15...0.22) : rng.float(0.11...0.15)
      let x = (Float(k) + 0.5) / Float(count) + rng.float(-0.06...0.06)
      s.face(
        &rng, x: x, y: baseY + rng.float(-0.08...0.05), r: r, skin: skin(&rng),
        clothes: tone(look, &rng), expression: expression)
    }
  }
}
