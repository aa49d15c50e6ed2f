/// Named colour families for each mood, following common film-lighting and set-design habits.
///
/// The composers draw every colour from these so that a mood's palette is defined in one
/// place: warm, saturated and light for happy; greys, beiges and muted blues/greens for
/// neutral; near-black with cold blue/green or blood-red accents for scary.
enum Palette {
  // MARK: happy

  /// Sky blues of a clear day, from the zenith ...
  static func happySkyTop(_ rng: inout SceneRandom) -> Color {
    rng.color(hue: 198...215, saturation: 0.5...0.75, value: 0.88...1.0)
  }
  /// ... to the pale horizon.
  static func happySkyHorizon(_ rng: inout SceneRandom) -> Color {
    rng.color(hue: 185...205, saturation: 0.12...0.3, value: 0.97...1.0)
  }
  /// Fresh greens of lawns and hills in sunlight.
  static func happyGreen(_ rng: inout SceneRandom) -> Color {
    rng.color(hue: 75...125, saturation: 0.55...0.85, value: 0.65...0.92)
  }
  /// Candy colours for balloons, flowers, toys and confetti.
  static func happyAccent(_ rng: inout SceneRandom) -> Color {
    let hues: [ClosedRange<Float>] = [
      355...360, 0...12, 25...40, 45...58, 95...130, 190...215, 300...335,
    ]
    let hue = rng.pick(hues)
    return rng.color(hue: hue, saturation: 0.65...0.95, value: 0.85...1.0)
  }
  /// Pastel wall colours: pink, butter yellow, mint, lilac, peach, baby blue.
  static func happyPastel(_ rng: inout SceneRandom) -> Color {
    let hues: [ClosedRange<Float>] = [330...350, 45...58, 140...165, 265...285, 18...30, 195...210]
    return rng.color(hue: rng.pick(hues), saturation: 0.22...0.42, value: 0.93...1.0)
  }
  /// Warm light: sunlight, candles, fairy lights.
  static func warmLight(_ rng: inout SceneRandom) -> Color {
    rng.color(hue: 28...52, saturation: 0.35...0.7, value: 1.0...1.0)
  }

  // MARK: neutral

  /// Walls and surfaces of ordinary rooms: off-white, beige, light grey, muted blue-grey.
  static func neutralWall(_ rng: inout SceneRandom) -> Color {
    if rng.chance(0.7) {
      return rng.color(hue: 25...50, saturation: 0.05...0.2, value: 0.62...0.85)
    }
    return rng.color(hue: 190...220, saturation: 0.05...0.14, value: 0.6...0.8)
  }
  /// Greys (concrete, asphalt, furniture, overcast sky).
  static func neutralGrey(_ rng: inout SceneRandom, value: ClosedRange<Float>) -> Color {
    rng.color(hue: 20...220, saturation: 0.0...0.08, value: value)
  }
  /// Muted colours with a little hue left: browns, olives, slate blues, sage greens.
  static func neutralMuted(_ rng: inout SceneRandom, value: ClosedRange<Float> = 0.35...0.7)
    -> Color
  {
    let hues: [ClosedRange<Float>] = [20...40, 60...100, 100...150, 195...225]
    return rng.color(hue: rng.pick(hues), saturation: 0.1...0.3, value: value)
  }

  // MARK: scary

  /// The hue family of a scary scene's grade.
  enum ScaryCast: CaseIterable {
    case coldBlue, sicklyGreen, bloodRed
  }

  /// Deep night / shadow colour in the scene's cast.
  static func scaryDark(
    _ rng: inout SceneRandom, _ cast: ScaryCast, value: ClosedRange<Float> = 0.04...0.14
  ) -> Color {
    switch cast {
    case .coldBlue: return rng.color(hue: 205...235, saturation: 0.45...0.8, value: value)
    case .sicklyGreen: return rng.color(hue: 120...170, saturation: 0.35...0.65, value: value)
    case .bloodRed: return rng.color(hue: 350...365, saturation: 0.6...0.9, value: value)
    }
  }
  /// Pale, cold light: moonlight, fluorescent tubes, lightning.
  static func coldLight(_ rng: inout SceneRandom, _ cast: ScaryCast) -> Color {
    switch cast {
    case .coldBlue: return rng.color(hue: 195...220, saturation: 0.08...0.3, value: 1...1)
    case .sicklyGreen: return rng.color(hue: 75...110, saturation: 0.15...0.4, value: 1...1)
    case .bloodRed: return rng.color(hue: 355...365, saturation: 0.55...0.85, value: 1...1)
    }
  }
  /// Grade multipliers that push the whole frame towards the cast.
  static func scaryTint(_ cast: ScaryCast, _ rng: inout SceneRandom) -> Color {
    switch cast {
    case .coldBlue: return Color(rng.float(0.7...0.8), rng.float(0.86...0.95), rng.float(1.1...1.2))
    case .sicklyGreen:
      return Color(rng.float(0.72...0.82), rng.float(1.02...1.1), rng.float(0.8...0.9))
    case .bloodRed:
      return Color(rng.float(1.2...1.32), rng.float(0.55...0.65), rng.float(0.55...0.66))
    }
  }
  /// Shadow colour added to the darkest tones (split toning).
  static func scaryShadowTint(_ cast: ScaryCast) -> Color {
    switch cast {
    case .coldBlue: return Color(0, 0.012, 0.03)
    case .sicklyGreen: return Color(0, 0.025, 0.012)
    case .bloodRed: return Color(0.03, 0, 0.004)
    }
  }
}
