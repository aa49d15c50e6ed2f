/// Scary compositions: low-key, dark, cold blue/green or blood-red casts, hard contrast with a
/// few bright highlights (the moon, a bare bulb, glowing eyes), a strong vignette and film
/// grain. Two families are brighter on average on purpose: a corridor ending in a blinding
/// window with a silhouette, and a lightning storm — bright pixels, but in a cold, crushed,
/// grainy grade.
enum ScaryScenes {
  /// A random scary scene.
  static func compose(_ rng: inout SceneRandom) -> ScenePlan {
    switch rng.weightedIndex([0.26, 0.2, 0.2, 0.18, 0.16]) {
    case 0: return darkForest(&rng)
    case 1: return bloodRoom(&rng)
    case 2: return brightWindowCorridor(&rng)
    case 3: return hauntedHill(&rng)
    default: return cellar(&rng)
    }
  }

  /// The scary "lab": the cast's tint, crushed blacks, steep contrast, heavy vignette, grain.
  static func grade(
    _ rng: inout SceneRandom, cast: Palette.ScaryCast, key: ClosedRange<Float>, ambient: Float
  ) -> Grade {
    let tint = Palette.scaryTint(cast, &rng)
    return Grade(
      key: rng.float(key), ambient: Color(grey: ambient).times(tint),
      saturation: rng.float(0.6...0.9),
      tint: tint, shadowTint: Palette.scaryShadowTint(cast), lift: rng.float(0...0.012),
      contrast: rng.float(1.4...1.85), pivot: rng.float(0.35...0.45),
      vignette: rng.float(0.5...0.85),
      vignetteStart: rng.float(0...0.1), grain: rng.float(7...15))
  }

  static func pickCast(_ rng: inout SceneRandom, blue: Double, green: Double, red: Double)
    -> Palette.ScaryCast
  {
    [Palette.ScaryCast.coldBlue, .sicklyGreen, .bloodRed][rng.weightedIndex([blue, green, red])]
  }

  /// Pairs of glowing eyes in the dark that blink in clips.
  static func eyes(
    _ s: inout SceneSketch, _ rng: inout SceneRandom, count: Int, y: ClosedRange<Float>
  ) {
    let color = rng.chance(0.5) ? Color(1, 0.85, 0.2) : Color(1, 0.15, 0.1)
    for _ in 0..<count {
      let x = rng.float(-0.3...1.3)
      let ey = rng.float(y)
      let gap = rng.float(0.015...0.03)
      for side: Float in [-1, 1] {
        s.fill(
          .ellipse(x: x + side * gap, y: ey, rx: 0.009, ry: 0.005), color.scaled(1.8), emission: 1,
          flicker: 1)
        s.glow(x: x + side * gap, y: ey, r: 0.03, color: color, strength: 0.35, flicker: 1)
      }
    }
  }

  static func darkForest(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let cast = pickCast(&rng, blue: 0.55, green: 0.35, red: 0.1)
    let horizon = rng.float(0.55...0.75)
    let skyTop = Palette.scaryDark(&rng, cast, value: 0.03...0.08)
    s.sky(
      top: skyTop, horizon: Palette.scaryDark(&rng, cast, value: 0.12...0.22), horizonY: horizon)
    if rng.chance(0.3) {
      s.stars(&rng, count: rng.int(in: 5...15), color: Color(grey: 0.6), maxY: horizon - 0.2)
    }
    let moonLight = Palette.coldLight(&rng, cast)
    if rng.chance(0.75) {
      let mx = rng.float(0.1...0.9)
      let my = rng.float(0.1...0.3)
      s.celestial(
        x: mx, y: my, r: rng.float(0.04...0.07), color: moonLight.scaled(1.5), halo: 0.3,
        bite: rng.chance(0.4) ? skyTop : nil)
      s.light(x: mx, y: my, radius: 0.5, color: moonLight.scaled(0.25), haze: 0.15)
      if rng.chance(0.4) {
        s.cloud(
          &rng, x: mx + rng.float(-0.1...0.1), y: my + 0.03, width: rng.float(0.2...0.35),
          color: Palette.scaryDark(&rng, cast, value: 0.05...0.1), opacity: 0.85, softness: 0.02,
          speed: 0.015)
      }
    }
    let farColor = Palette.scaryDark(&rng, cast, value: 0.05...0.09)
    let far = s.hills(&rng, base: horizon, amplitude: 0.03, paint: .solid(farColor), parallax: 0.5)
    for _ in 0..<rng.int(in: 8...16) {
      let tx = rng.float(-0.45...1.45)
      s.pineTree(
        x: tx, baseY: far.height(at: tx) + 0.02, height: rng.float(0.12...0.25), color: farColor,
        trunk: farColor, parallax: 0.5)
    }
    if rng.chance(0.6) {
      s.fogBand(
        y: horizon + rng.float(-0.02...0.06), height: rng.float(0.08...0.15), color: moonLight,
        strength: rng.float(0.08...0.16))
    }
    let black = Palette.scaryDark(&rng, cast, value: 0.01...0.03)
    let ground = s.hills(
      &rng, base: horizon + rng.float(0.12...0.2), amplitude: 0.03, paint: .solid(black),
      parallax: 0.9)
    if rng.chance(0.4) {
      eyes(&s, &rng, count: rng.int(in: 1...3), y: (horizon - 0.05)...(horizon + 0.15))
    }
    for _ in 0..<rng.int(in: 3...7) {
      let tx = rng.float(-0.45...1.45)
      let th = rng.float(0.5...1.0)
      let by = ground.height(at: tx) + 0.05
      if rng.chance(0.5) {
        s.deadTree(&rng, x: tx, baseY: by, height: th, color: black)
      } else {
        s.pineTree(x: tx, baseY: by, height: th, color: black, trunk: black)
      }
    }
    let g = grade(&rng, cast: cast, key: 0.07...0.15, ambient: rng.float(0.18...0.3))
    return s.plan(grade: g, variant: "dark-forest", rng: &rng)
  }

  static func bloodRoom(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let cast = pickCast(&rng, blue: 0.1, green: 0.2, red: 0.7)
    let floorY = rng.float(0.7...0.82)
    let wallHi = Palette.scaryDark(&rng, cast, value: 0.14...0.22)
    let wallLo = Palette.scaryDark(&rng, cast, value: 0.05...0.1)
    s.room(
      wall: .noise(
        wallHi, wallLo, scale: rng.float(10...22), seed: UInt32(truncatingIfNeeded: rng.next())),
      floor: .noise(Color(grey: 0.04), Color(grey: 0.02), scale: 30, seed: 9), floorY: floorY)
    if rng.chance(0.5) {
      s.add(
        .plane,
        .stripes(
          Color(grey: 1), Color(grey: 0.75), degrees: 0, period: rng.float(0.05...0.09), duty: 0.35),
        blend: .multiply)
    }
    let blood = rng.color(hue: 352...362, saturation: 0.8...0.95, value: 0.3...0.5)
    for _ in 0..<rng.int(in: 6...15) {
      let x = rng.float(-0.45...1.45)
      let y0 = rng.float(-0.05...0.25)
      let len = rng.float(0.05...0.3)
      let w = rng.float(0.003...0.008)
      s.fill(.capsule(ax: x, ay: y0, bx: x, by: y0 + len, r: w), blood)
      s.fill(.circle(x: x, y: y0 + len, r: w * 1.6), blood)
    }
    for _ in 0..<rng.int(in: 0...2) {
      let x = rng.float(0...1)
      let y = rng.float(0.25...0.55)
      for k in 0..<3 {
        let o = Float(k) * 0.018
        s.fill(
          .capsule(ax: x + o, ay: y, bx: x + o + 0.05, by: y + 0.14, r: 0.003), Color(grey: 0.01))
      }
    }
    if rng.chance(0.6) {
      let dx = rng.float(0...0.8)
      let dw = rng.float(0.15...0.22)
      let top = floorY - rng.float(0.4...0.5)
      s.fill(
        .rect(x0: dx - 0.015, y0: top - 0.015, x1: dx + dw + 0.015, y1: floorY, corner: 0),
        wallLo.scaled(0.6))
      s.fill(.rect(x0: dx, y0: top, x1: dx + dw, y1: floorY, corner: 0), Color(grey: 0.005))
      if rng.chance(0.5) {
        s.figure(
          x: dx + dw / 2, baseY: floorY - 0.005, height: (floorY - top) * 0.92,
          color: Color(grey: 0.0))
      }
    } else if rng.chance(0.5) {
      s.figure(
        x: rng.float(0...1), baseY: floorY + 0.05, height: rng.float(0.4...0.6),
        color: Color(grey: 0.01))
    }
    let bulbColor = Palette.coldLight(&rng, cast)
    s.bulb(
      x: rng.float(0.2...0.8), y: rng.float(0.15...0.3), r: 0.015, color: bulbColor,
      cord: Color(grey: 0.02), lightRadius: rng.float(0.2...0.3), intensity: 0.7, haze: 0.35,
      flicker: 0.7)
    let g = grade(&rng, cast: cast, key: 0.07...0.15, ambient: rng.float(0.12...0.2))
    return s.plan(grade: g, variant: "blood-room", rng: &rng)
  }

  static func brightWindowCorridor(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let cast = pickCast(&rng, blue: 0.6, green: 0.4, red: 0)
    let cx = rng.float(0.35...0.65)
    let cy = rng.float(0.42...0.5)
    let w = rng.float(0.18...0.3)
    let h = rng.float(0.28...0.4)
    let ex0 = cx - w / 2
    let ex1 = cx + w / 2
    let ey0 = cy - h / 2
    let ey1 = cy + h / 2
    let wallColor = Palette.scaryDark(&rng, cast, value: 0.06...0.12)
    let floorA = Palette.scaryDark(&rng, cast, value: 0.02...0.05)
    s.corridor(
      ex0: ex0, ey0: ey0, ex1: ex1, ey1: ey1,
      wall: .stripes(wallColor, wallColor.scaled(0.6), degrees: 0, period: 0.12, duty: 0.08),
      floor: rng.chance(0.5) ? .checks(floorA, floorA.scaled(2.2), period: 0.08) : .solid(floorA),
      ceiling: Palette.scaryDark(&rng, cast, value: 0.02...0.05), endWall: wallColor.scaled(0.8))
    let light = Palette.coldLight(&rng, cast)
    let isDoor = rng.chance(0.5)
    let ox0 = cx - w * (isDoor ? 0.28 : 0.4)
    let ox1 = cx + w * (isDoor ? 0.28 : 0.4)
    let oy0 = isDoor ? ey0 + h * 0.1 : ey0 + h * 0.12
    let oy1 = isDoor ? ey1 : ey1 - h * 0.3
    s.window(
      x0: ox0, y0: oy0, x1: ox1, y1: oy1, glass: .solid(light.scaled(2.2)), glassEmission: 1,
      frame: Color(grey: 0.01), bars: isDoor ? 0 : 1, frameWidth: 0.006, flicker: 0.4)
    s.light(
      x: cx, y: (oy0 + oy1) / 2, radius: 0.3, color: light.scaled(0.6), haze: 0.15, flicker: 0.4)
    s.glow(
      x: cx, y: (oy0 + oy1) / 2, r: max(ox1 - ox0, oy1 - oy0), color: light, strength: 0.22,
      flicker: 0.4)
    s.add(
      .polygon(ConvexPolygon([(ox0, oy1), (ox1, oy1), (ox1 + 0.25, 1.1), (ox0 - 0.25, 1.1)])),
      .vertical(light.scaled(0.25), .black, oy1, 1), blend: .add, flicker: 0.4)
    if rng.chance(0.65) {
      let fh = (oy1 - oy0) * rng.float(0.7...0.9)
      s.figure(
        x: cx + rng.float(-0.03...0.03), baseY: oy1, height: fh, color: Color(grey: 0.0),
        motion: Motion(vx: 0, vy: 0, bobX: 0.003, bobY: 0, frequency: 0.2, phase: 0))
    }
    if rng.chance(0.3) {
      eyes(&s, &rng, count: 1, y: 0.3...0.6)
    }
    var g = grade(&rng, cast: cast, key: 0.22...0.4, ambient: rng.float(0.12...0.2))
    g.contrast = rng.float(1.6...1.95)
    return s.plan(grade: g, variant: "bright-window-corridor", rng: &rng)
  }

  static func hauntedHill(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let cast = pickCast(&rng, blue: 0.6, green: 0.25, red: 0.15)
    let storm = rng.chance(0.45)
    let horizon = rng.float(0.55...0.72)
    let skyTop = Palette.scaryDark(&rng, cast, value: storm ? 0.18...0.3 : 0.03...0.08)
    s.sky(
      top: skyTop, horizon: Palette.scaryDark(&rng, cast, value: storm ? 0.35...0.5 : 0.1...0.18),
      horizonY: horizon)
    let flash = Palette.coldLight(&rng, .coldBlue)
    if storm {
      for _ in 0..<rng.int(in: 1...2) {
        s.lightning(
          &rng, x: rng.float(0...1), y0: -0.05, y1: horizon - rng.float(0...0.1),
          color: flash.scaled(2))
      }
      s.light(x: 0.5, y: -0.2, radius: 0.8, color: flash.scaled(0.3), flicker: 0.8)
    } else if rng.chance(0.6) {
      let mx = rng.float(0.1...0.9)
      let my = rng.float(0.1...0.28)
      s.celestial(
        x: mx, y: my, r: rng.float(0.05...0.08), color: Palette.coldLight(&rng, cast).scaled(1.4),
        halo: 0.3)
      s.light(x: mx, y: my, radius: 0.5, color: flash.scaled(0.2), haze: 0.1)
    }
    for _ in 0..<rng.int(in: 1...3) {
      s.cloud(
        &rng, x: rng.float(-0.4...1.4), y: rng.float(0.05...0.3), width: rng.float(0.3...0.5),
        color: skyTop.scaled(0.6), opacity: 0.8, softness: 0.03, speed: 0.02)
    }
    let black = Palette.scaryDark(&rng, cast, value: 0.01...0.03)
    let hill = s.hills(
      &rng, base: horizon + 0.05, amplitude: rng.float(0.04...0.1), paint: .solid(black),
      parallax: 0.8)
    let hx = rng.float(0.15...0.85)
    let hw = rng.float(0.25...0.4)
    let hb = hill.height(at: hx) + 0.04
    let hh = hw * rng.float(0.55...0.8)
    s.fill(.rect(x0: hx - hw / 2, y0: hb - hh, x1: hx + hw / 2, y1: hb, corner: 0), black)
    s.fill(
      .polygon(
        ConvexPolygon([
          (hx - hw * 0.58, hb - hh), (hx + hw * 0.1, hb - hh),
          (hx - hw * 0.24, hb - hh - hw * 0.45),
        ])), black)
    s.fill(
      .polygon(
        ConvexPolygon([
          (hx, hb - hh), (hx + hw * 0.58, hb - hh), (hx + hw * 0.29, hb - hh - hw * 0.3),
        ])), black)
    let tx = hx + hw * rng.float(0.3...0.45)
    s.fill(.rect(x0: tx - 0.03, y0: hb - hh * 1.5, x1: tx + 0.03, y1: hb, corner: 0), black)
    s.fill(
      .polygon(
        ConvexPolygon([
          (tx - 0.045, hb - hh * 1.5), (tx + 0.045, hb - hh * 1.5), (tx, hb - hh * 1.5 - 0.12),
        ])), black)
    let windowColor = rng.chance(0.5) ? Color(0.95, 0.9, 0.45) : Palette.coldLight(&rng, cast)
    for _ in 0..<rng.int(in: 1...3) {
      let wx = hx + rng.float(-0.4...0.3) * hw
      let wy = hb - hh * rng.float(0.45...0.85)
      s.fill(
        .rect(x0: wx, y0: wy, x1: wx + hw * 0.08, y1: wy + hh * 0.14, corner: 0),
        windowColor.scaled(1.6), emission: 1, flicker: 0.5)
      s.glow(
        x: wx + hw * 0.04, y: wy + hh * 0.07, r: 0.06, color: windowColor, strength: 0.2,
        flicker: 0.5)
    }
    for _ in 0..<rng.int(in: 1...3) {
      let dx = rng.float(-0.4...1.4)
      s.deadTree(
        &rng, x: dx, baseY: hill.height(at: dx) + 0.06, height: rng.float(0.3...0.6), color: black)
    }
    if rng.chance(0.5) {
      s.tombstones(
        &rng, count: rng.int(in: 3...7), baseY: min(hill.height(at: 0.5) + 0.18, 0.95),
        color: Palette.scaryDark(&rng, cast, value: 0.08...0.14))
    }
    if rng.chance(0.4) {
      for _ in 0..<rng.int(in: 2...5) {
        let bx = rng.float(0...1)
        let by = rng.float(0.08...0.35)
        let motion = rng.drift(speed: 0.04, bob: 0.02, frequency: 0.8...1.5)
        s.fill(
          .polygon(ConvexPolygon([(bx, by), (bx - 0.03, by - 0.012), (bx - 0.02, by + 0.006)])),
          black, motion: motion)
        s.fill(
          .polygon(ConvexPolygon([(bx, by), (bx + 0.03, by - 0.012), (bx + 0.02, by + 0.006)])),
          black, motion: motion)
      }
    }
    var g = grade(
      &rng, cast: cast, key: storm ? 0.26...0.42 : 0.07...0.15, ambient: rng.float(0.15...0.25))
    if storm { g.contrast = rng.float(1.6...1.9) }
    return s.plan(grade: g, variant: storm ? "lightning-storm" : "haunted-hill", rng: &rng)
  }

  static func cellar(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let cast = pickCast(&rng, blue: 0.4, green: 0.6, red: 0)
    let floorY = rng.float(0.72...0.85)
    let brick = Palette.scaryDark(&rng, cast, value: 0.1...0.18)
    s.room(
      wall: .noise(
        brick, brick.scaled(0.55), scale: rng.float(8...16),
        seed: UInt32(truncatingIfNeeded: rng.next())),
      floor: .noise(Color(grey: 0.06), Color(grey: 0.03), scale: 25, seed: 5), floorY: floorY)
    s.add(
      .rect(x0: -2, y0: -1, x1: 3, y1: floorY, corner: 0),
      .stripes(Color(grey: 1), Color(grey: 0.55), degrees: 90, period: 0.045, duty: 0.12),
      blend: .multiply)
    for _ in 0..<rng.int(in: 2...4) {
      let pipe = Palette.scaryDark(&rng, cast, value: 0.12...0.2)
      if rng.chance(0.5) {
        let y = rng.float(0.05...0.35)
        s.fill(.capsule(ax: -2, ay: y, bx: 3, by: y, r: rng.float(0.01...0.02)), pipe)
      } else {
        let x = rng.float(-0.4...1.4)
        s.fill(.capsule(ax: x, ay: -1, bx: x, by: floorY, r: rng.float(0.01...0.018)), pipe)
      }
    }
    if rng.chance(0.35) {
      let cx = rng.float(0.1...0.9)
      let seat = floorY - 0.1
      s.fill(
        .rect(x0: cx - 0.05, y0: seat - 0.01, x1: cx + 0.05, y1: seat + 0.01, corner: 0),
        Color(grey: 0.02))
      s.fill(
        .rect(x0: cx + 0.035, y0: seat - 0.16, x1: cx + 0.05, y1: floorY, corner: 0),
        Color(grey: 0.02))
      s.fill(
        .rect(x0: cx - 0.05, y0: seat, x1: cx - 0.035, y1: floorY, corner: 0), Color(grey: 0.02))
    }
    if rng.chance(0.3) {
      s.figure(
        x: rng.chance(0.5) ? rng.float(-0.1...0.15) : rng.float(0.85...1.1), baseY: floorY + 0.02,
        height: rng.float(0.45...0.6), color: Color(grey: 0.005))
    } else if rng.chance(0.4) {
      eyes(&s, &rng, count: rng.int(in: 1...2), y: 0.4...0.7)
    }
    let bx = rng.float(0.25...0.75)
    let bulbColor = rng.chance(0.5) ? Color(1, 0.92, 0.65) : Palette.coldLight(&rng, cast)
    s.bulb(
      x: bx, y: rng.float(0.12...0.3), r: 0.014, color: bulbColor, cord: Color(grey: 0.02),
      lightRadius: rng.float(0.15...0.25), intensity: 0.9, haze: 0.4, flicker: 0.7)
    if rng.chance(0.4) {
      var x = rng.float(-0.5 ... -0.4)
      let r = rng.float(0.006...0.012)
      let step = rng.float(0.07...0.1)
      while x < 1.5 {
        s.fill(.capsule(ax: x, ay: -1, bx: x, by: 2, r: r), Color(grey: 0.01))
        x += step
      }
    }
    let g = grade(&rng, cast: cast, key: 0.08...0.18, ambient: rng.float(0.08...0.15))
    return s.plan(grade: g, variant: "cellar", rng: &rng)
  }
}
