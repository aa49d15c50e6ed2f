import LeamojiCore
/// Happy compositions: high-key, warm, saturated and bright, with soft shadows and lifted
/// blacks. One family on purpose breaks "happy = bright": a festive night (fairy lights,
/// fireworks, lit windows) is dark on average but warm, colourful and soft, so a classifier
/// has to look at tone and colour, not only at brightness.
enum HappyScenes {
  /// A random happy scene.
  static func compose(_ rng: inout SceneRandom) -> ScenePlan {
    switch rng.weightedIndex([0.26, 0.17, 0.2, 0.15, 0.22]) {
    case 0: return sunnyMeadow(&rng)
    case 1: return sunsetBeach(&rng)
    case 2: return partyRoom(&rng)
    case 3: return toyShapes(&rng)
    default: return festiveNight(&rng)
    }
  }

  /// The happy "lab": warm cast, boosted saturation, lifted soft blacks, gentle contrast.
  static func grade(_ rng: inout SceneRandom, key: ClosedRange<Float>, ambient: Color? = nil)
    -> Grade
  {
    Grade(
      key: rng.float(key), ambient: ambient ?? Color(grey: rng.float(0.85...1)),
      saturation: rng.float(1.1...1.35),
      tint: Color(rng.float(1.03...1.09), 1, rng.float(0.86...0.95)),
      shadowTint: Color(0.02, 0.008, 0.025), lift: rng.float(0.07...0.14),
      contrast: rng.float(0.8...0.95),
      pivot: 0.45, vignette: rng.float(0...0.12), vignetteStart: 0.3, grain: rng.float(0...2))
  }

  static func sunnyMeadow(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let horizon = rng.float(0.5...0.66)
    let skyLow = Palette.happySkyHorizon(&rng)
    s.sky(top: Palette.happySkyTop(&rng), horizon: skyLow, horizonY: horizon)
    let sunX = rng.float(0.05...0.95)
    let sunY = rng.float(0.08...0.28)
    s.celestial(
      x: sunX, y: sunY, r: rng.float(0.05...0.085), color: Color(1, 0.93, 0.55).scaled(1.5),
      halo: 0.25)
    s.light(x: sunX, y: sunY, radius: 0.8, color: Color(1, 0.85, 0.6).scaled(0.4), haze: 0.1)
    if rng.chance(0.25) {
      s.rainbow(
        x: rng.float(0.2...0.8), y: horizon + 0.1, r: rng.float(0.45...0.7), width: 0.09,
        opacity: 0.55)
    }
    for _ in 0..<rng.int(in: 1...4) {
      s.cloud(
        &rng, x: rng.float(-0.4...1.4), y: rng.float(0.1...(horizon - 0.15)),
        width: rng.float(0.15...0.32), color: Color(grey: 1), opacity: 0.95)
    }
    let farGreen = Palette.happyGreen(&rng).mixed(with: skyLow, 0.35)
    s.hills(
      &rng, base: horizon + 0.03, amplitude: rng.float(0.05...0.1),
      paint: .vertical(farGreen, farGreen.scaled(0.92), horizon - 0.1, horizon + 0.2), parallax: 0.4
    )
    let near = Palette.happyGreen(&rng)
    let nearBase = horizon + rng.float(0.12...0.2)
    let ridge = s.hills(
      &rng, base: nearBase, amplitude: rng.float(0.02...0.05),
      paint: .noise(
        near, near.scaled(0.88).mixed(with: Color(0.9, 0.9, 0.3), 0.15), scale: 28,
        seed: UInt32(truncatingIfNeeded: rng.next())), parallax: 0.8)
    if rng.chance(0.4) {
      let hx = rng.float(0.1...0.9)
      s.house(
        x: hx, baseY: ridge.height(at: hx) + 0.03, width: rng.float(0.16...0.24),
        wall: Palette.happyPastel(&rng),
        roof: rng.color(hue: 0...25, saturation: 0.7...0.9, value: 0.75...0.95),
        door: Color(0.55, 0.32, 0.18), windowColor: Palette.happySkyTop(&rng), windowEmission: 0.3)
    }
    for _ in 0..<rng.int(in: 0...4) {
      let tx = rng.float(-0.4...1.4)
      let th = rng.float(0.18...0.32)
      let by = ridge.height(at: tx) + 0.02
      s.contactShadow(x: tx + 0.03, y: by, width: th * 0.6, darkness: 0.2, softness: 0.02)
      s.roundTree(
        &rng, x: tx, baseY: by, height: th, crown: Palette.happyGreen(&rng),
        trunk: Color(0.5, 0.32, 0.18), softness: 0.004)
    }
    s.flowers(&rng, count: rng.int(in: 8...28), x: -0.4...1.4, y: (nearBase + 0.06)...1.0)
    if rng.chance(0.3) {
      for _ in 0..<rng.int(in: 1...3) {
        s.balloon(
          &rng, x: rng.float(0...1), y: rng.float(0.12...0.4), r: rng.float(0.03...0.05),
          color: Palette.happyAccent(&rng))
      }
    }
    return s.plan(grade: grade(&rng, key: 0.55...0.7), variant: "sunny-meadow", rng: &rng)
  }

  static func sunsetBeach(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let horizon = rng.float(0.48...0.6)
    let topHue: ClosedRange<Float> = rng.chance(0.5) ? 15...32 : 322...342
    s.sky(
      top: rng.color(hue: topHue, saturation: 0.45...0.65, value: 0.9...1),
      horizon: rng.color(hue: 40...52, saturation: 0.55...0.75, value: 1...1), horizonY: horizon)
    let sunX = rng.float(0.2...0.8)
    let sunR = rng.float(0.08...0.12)
    s.celestial(
      x: sunX, y: horizon - sunR * rng.float(0.2...0.8), r: sunR,
      color: Color(1, 0.85, 0.45).scaled(1.6), halo: 0.5)
    s.light(
      x: sunX, y: horizon - 0.05, radius: 1.0, color: Color(1, 0.7, 0.45).scaled(0.45), haze: 0.25)
    for _ in 0..<rng.int(in: 0...3) {
      s.cloud(
        &rng, x: rng.float(-0.4...1.4), y: rng.float(0.08...(horizon - 0.2)),
        width: rng.float(0.18...0.35), color: Color(1, 0.82, 0.8), opacity: 0.8, softness: 0.02)
    }
    let shore = horizon + rng.float(0.13...0.22)
    let sea = rng.color(hue: 182...198, saturation: 0.5...0.7, value: 0.8...0.92)
    s.add(
      .rect(x0: -2, y0: horizon, x1: 3, y1: shore + 0.05, corner: 0),
      .vertical(sea.mixed(with: Color(0.7, 0.6, 0.9), 0.3), sea, horizon, shore))
    s.add(
      .rect(x0: sunX - sunR * 0.9, y0: horizon, x1: sunX + sunR * 0.9, y1: shore, corner: 0),
      .stripes(Color(1, 0.85, 0.5), sea, degrees: 90, period: 0.02, duty: 0.5), opacity: 0.7,
      softness: 0.02, emission: 0.6)
    let sand = rng.color(hue: 36...46, saturation: 0.3...0.5, value: 0.9...1)
    let sandPaint = Paint.noise(
      sand, sand.scaled(0.92), scale: 40, seed: UInt32(truncatingIfNeeded: rng.next()))
    let foam = Ridge(base: shore - 0.012, waves: [(0.01, 9, rng.float(0...6))])
    s.add(.ridge(foam), .solid(Color(1, 1, 1)), opacity: 0.6, softness: 0.006, parallax: 0.9)
    s.hills(&rng, base: shore, amplitude: 0.015, paint: sandPaint, parallax: 0.9)
    if rng.chance(0.6) {
      let ux = rng.float(0.1...0.9)
      let top = shore + rng.float(0.02...0.08)
      s.fill(.capsule(ax: ux, ay: top, bx: ux, by: top + 0.3, r: 0.006), Color(0.95, 0.95, 0.95))
      s.add(
        .polygon(
          ConvexPolygon([(ux - 0.15, top + 0.06), (ux + 0.15, top + 0.06), (ux, top - 0.02)])),
        .stripes(Palette.happyAccent(&rng), Color(1, 1, 1), degrees: 0, period: 0.05))
      s.contactShadow(x: ux + 0.04, y: top + 0.3, width: 0.25, darkness: 0.2, softness: 0.03)
    }
    if rng.chance(0.5) {
      let bx = rng.float(0...1)
      let by = min(shore + rng.float(0.2...0.35), 0.95)
      s.add(
        .circle(x: bx, y: by, r: 0.045),
        .stripes(
          Palette.happyAccent(&rng), Palette.happyAccent(&rng), degrees: rng.float(0...180),
          period: 0.03))
      s.fill(
        .circle(x: bx - 0.015, y: by - 0.018, r: 0.012), Color(1, 1, 1), opacity: 0.6,
        softness: 0.01)
    }
    for _ in 0..<rng.int(in: 0...3) {
      let gx = rng.float(0...1)
      let gy = rng.float(0.1...(horizon - 0.1))
      let w = rng.float(0.015...0.03)
      let motion = Motion(
        vx: rng.float(0.02...0.05), vy: 0, bobX: 0, bobY: 0.01, frequency: 0.5,
        phase: rng.float(0...6))
      s.fill(
        .capsule(ax: gx - w, ay: gy - w * 0.4, bx: gx, by: gy, r: 0.003), Color(grey: 0.3),
        motion: motion)
      s.fill(
        .capsule(ax: gx, ay: gy, bx: gx + w, by: gy - w * 0.4, r: 0.003), Color(grey: 0.3),
        motion: motion)
    }
    var g = grade(&rng, key: 0.5...0.65)
    g.tint = Color(rng.float(1.06...1.12), 0.98, rng.float(0.82...0.9))
    return s.plan(grade: g, variant: "sunset-beach", rng: &rng)
  }

  static func partyRoom(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let floorY = rng.float(0.68...0.8)
    let wallA = Palette.happyPastel(&rng)
    let wall: Paint
    switch rng.int(in: 0...2) {
    case 0:
      wall = .stripes(wallA, Palette.happyPastel(&rng), degrees: 0, period: rng.float(0.06...0.11))
    case 1: wall = .checks(wallA, wallA.mixed(with: .white, 0.4), period: rng.float(0.06...0.1))
    default: wall = .solid(wallA)
    }
    let wood = rng.color(hue: 26...38, saturation: 0.4...0.55, value: 0.7...0.85)
    s.room(
      wall: wall, floor: .stripes(wood, wood.scaled(0.8), degrees: 8, period: 0.09, duty: 0.12),
      floorY: floorY)
    if rng.chance(0.4) {
      let wx = rng.float(-0.1...0.8)
      s.window(
        x0: wx, y0: 0.15, x1: wx + rng.float(0.18...0.26), y1: rng.float(0.4...0.5),
        glass: .vertical(Palette.happySkyTop(&rng), Palette.happySkyHorizon(&rng), 0.15, 0.5),
        glassEmission: 1, frame: Color(grey: 0.97))
    }
    if rng.chance(0.6) {
      let tx = rng.float(0.25...0.75)
      s.contactShadow(x: tx, y: floorY + 0.1, width: 0.4, darkness: 0.15, softness: 0.03)
      s.table(
        x: tx, y: floorY + 0.1, width: 0.36, height: 0.16,
        color: Palette.happyPastel(&rng).scaled(0.95))
      let cakeTop = floorY + 0.1 - 0.16 - 0.09
      s.fill(
        .rect(x0: tx - 0.08, y0: cakeTop, x1: tx + 0.08, y1: cakeTop + 0.09, corner: 0.01),
        Palette.happyPastel(&rng))
      s.fill(
        .rect(x0: tx - 0.08, y0: cakeTop, x1: tx + 0.08, y1: cakeTop + 0.025, corner: 0.01),
        Color(1, 0.98, 0.95))
      for k in 0..<3 {
        let cx = tx - 0.04 + Float(k) * 0.04
        s.fill(
          .rect(x0: cx - 0.004, y0: cakeTop - 0.035, x1: cx + 0.004, y1: cakeTop, corner: 0),
          Palette.happyAccent(&rng))
        s.fill(
          .ellipse(x: cx, y: cakeTop - 0.045, rx: 0.006, ry: 0.011),
          Color(1, 0.85, 0.4).scaled(1.5), emission: 1)
        s.glow(x: cx, y: cakeTop - 0.045, r: 0.05, color: Color(1, 0.7, 0.3), strength: 0.5)
      }
    }
    for row in 0..<rng.int(in: 1...2) {
      s.bunting(&rng, x0: -0.45, x1: 1.45, y: 0.02 + Float(row) * 0.1, sag: rng.float(0.04...0.1))
    }
    for _ in 0..<rng.int(in: 3...8) {
      s.balloon(
        &rng, x: rng.float(-0.35...1.35), y: rng.float(0.15...0.5), r: rng.float(0.045...0.07),
        color: Palette.happyAccent(&rng))
    }
    for _ in 0..<rng.int(in: 15...40) {
      let x = rng.float(-0.45...1.45)
      let y = rng.float(0...1)
      let motion = Motion(
        vx: 0, vy: rng.float(0.02...0.05), bobX: 0.01, bobY: 0, frequency: rng.float(0.3...0.8),
        phase: rng.float(0...6))
      let size = rng.float(0.004...0.009)
      s.fill(
        rng.chance(0.5)
          ? .circle(x: x, y: y, r: size)
          : .rect(x0: x - size, y0: y - size * 0.5, x1: x + size, y1: y + size * 0.5, corner: 0),
        Palette.happyAccent(&rng), motion: motion)
    }
    s.light(
      x: rng.float(0.2...0.8), y: -0.1, radius: 0.9, color: Palette.warmLight(&rng).scaled(0.3))
    return s.plan(grade: grade(&rng, key: 0.6...0.75), variant: "party-room", rng: &rng)
  }

  static func toyShapes(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let a =
      rng.chance(0.5)
      ? rng.color(hue: 45...58, saturation: 0.4...0.65, value: 1...1)
      : rng.color(hue: 185...205, saturation: 0.3...0.5, value: 1...1)
    let b = rng.color(
      hue: rng.chance(0.5) ? 20...40 : 140...170, saturation: 0.3...0.55, value: 0.95...1)
    s.add(.plane, .gradient(a, b, from: (0, 0), to: (rng.float(-0.3...0.3), 1)), emission: 0.5)
    if rng.chance(0.4) {
      s.rainbow(
        x: rng.float(0.2...0.8), y: rng.float(0.6...0.8), r: rng.float(0.4...0.6), width: 0.12,
        opacity: 0.8)
    }
    let floorY = rng.float(0.7...0.85)
    if rng.chance(0.6) {
      s.add(
        .rect(x0: -2, y0: floorY, x1: 3, y1: 2, corner: 0),
        .checks(Palette.happyPastel(&rng), Color(grey: 1), period: rng.float(0.07...0.12)))
    }
    for k in 0..<rng.int(in: 6...11) {
      let x = k < 4 ? rng.float(0.1...0.9) : rng.float(-0.4...1.4)
      let y = rng.float(0.15...0.9)
      let r = rng.float(0.05...0.13)
      let shape: Shape
      switch rng.int(in: 0...3) {
      case 0: shape = .circle(x: x, y: y, r: r)
      case 1: shape = .rect(x0: x - r, y0: y - r * 0.8, x1: x + r, y1: y + r * 0.8, corner: r * 0.3)
      case 2:
        shape = .polygon(
          ConvexPolygon([
            (x - r, y + r * 0.8), (x + r, y + r * 0.8), (x + rng.float(-0.5...0.5) * r, y - r),
          ]))
      default: shape = .ring(x: x, y: y, r: r * 0.75, thickness: r * 0.45)
      }
      let c = Palette.happyAccent(&rng)
      let paint: Paint =
        rng.chance(0.25)
        ? .stripes(c, Palette.happyAccent(&rng), degrees: rng.float(0...180), period: r * 0.5)
        : .solid(c)
      s.contactShadow(x: x + r * 0.2, y: y + r * 1.05, width: r * 2, darkness: 0.18, softness: 0.03)
      s.add(shape, paint, softness: 0.002, motion: rng.drift(speed: 0.004, bob: 0.01))
    }
    s.light(x: rng.float(0...1), y: -0.2, radius: 1.0, color: Palette.warmLight(&rng).scaled(0.3))
    return s.plan(grade: grade(&rng, key: 0.6...0.78), variant: "toy-shapes", rng: &rng)
  }

  static func festiveNight(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let horizon = rng.float(0.58...0.75)
    s.sky(
      top: rng.color(hue: 232...262, saturation: 0.55...0.8, value: 0.22...0.34),
      horizon: rng.color(hue: 275...325, saturation: 0.35...0.6, value: 0.45...0.6),
      horizonY: horizon)
    s.stars(&rng, count: rng.int(in: 15...40), color: Color(1, 0.95, 0.8), maxY: horizon - 0.15)
    if rng.chance(0.4) {
      s.celestial(
        x: rng.float(0...1), y: rng.float(0.08...0.25), r: 0.04,
        color: Color(1, 0.95, 0.7).scaled(1.3), halo: 0.25)
    }
    for _ in 0..<(rng.chance(0.6) ? rng.int(in: 1...3) : 0) {
      let fx = rng.float(-0.2...1.2)
      let fy = rng.float(0.1...(horizon - 0.2))
      let radius = rng.float(0.08...0.15)
      let c = Palette.happyAccent(&rng)
      s.glow(x: fx, y: fy, r: radius * 1.6, color: c, strength: 0.45)
      let rays = rng.int(in: 12...20)
      for k in 0..<rays {
        let angle = Double(k) / Double(rays) * PortableMath.twoPi
        let ex = fx + Float(PortableMath.sceneCos(angle)) * radius
        let ey = fy + Float(PortableMath.sceneSin(angle)) * radius
        s.fill(
          .capsule(ax: fx + (ex - fx) * 0.3, ay: fy + (ey - fy) * 0.3, bx: ex, by: ey, r: 0.003),
          c.scaled(1.4), emission: 1)
      }
    }
    let ground = rng.color(hue: 255...290, saturation: 0.35...0.5, value: 0.18...0.28)
    let ridge = s.hills(
      &rng, base: horizon + 0.02, amplitude: 0.03, paint: .solid(ground), parallax: 0.7)
    let windowColor = Color(1, 0.78, 0.38).scaled(1.4)
    for _ in 0..<rng.int(in: 1...3) {
      let hx = rng.float(-0.3...1.3)
      s.house(
        x: hx, baseY: ridge.height(at: hx) + 0.04, width: rng.float(0.16...0.24),
        wall: rng.color(hue: 230...280, saturation: 0.3...0.5, value: 0.3...0.45),
        roof: rng.color(hue: 330...360, saturation: 0.4...0.6, value: 0.3...0.45),
        door: Color(0.5, 0.3, 0.2), windowColor: windowColor, windowEmission: 1)
      s.glow(
        x: hx, y: ridge.height(at: hx) - 0.08, r: 0.18, color: Color(1, 0.7, 0.35), strength: 0.25)
    }
    for line in 0..<rng.int(in: 1...2) {
      let y0 = rng.float(0.05...0.3) + Float(line) * 0.1
      let sag = rng.float(0.05...0.15)
      let bulbs = rng.int(in: 8...16)
      for k in 0...bulbs {
        let t = Float(k) / Float(bulbs)
        let x = -0.45 + 1.9 * t
        let y = y0 + sag * 4 * t * (1 - t)
        let c = rng.chance(0.5) ? Palette.warmLight(&rng) : Palette.happyAccent(&rng)
        s.glow(x: x, y: y, r: 0.04, color: c, strength: 0.6, flicker: 0.3)
        s.fill(.circle(x: x, y: y, r: 0.007), c.scaled(1.5), emission: 1)
      }
      s.light(x: 0.5, y: y0 + sag, radius: 0.5, color: Palette.warmLight(&rng).scaled(0.4))
    }
    if rng.chance(0.35) {
      let cx = rng.float(0.2...0.8)
      let cy = min(horizon + 0.2, 0.92)
      s.light(
        x: cx, y: cy - 0.05, radius: 0.35, color: Color(1, 0.6, 0.25).scaled(0.9), haze: 0.5,
        flicker: 0.3)
      s.fill(
        .capsule(ax: cx - 0.07, ay: cy, bx: cx + 0.07, by: cy - 0.01, r: 0.012),
        Color(0.4, 0.22, 0.12))
      s.fill(
        .polygon(ConvexPolygon([(cx - 0.05, cy), (cx + 0.05, cy), (cx, cy - 0.12)])),
        Color(1, 0.55, 0.15).scaled(1.5), emission: 1, flicker: 0.3)
      s.fill(
        .polygon(ConvexPolygon([(cx - 0.025, cy), (cx + 0.025, cy), (cx, cy - 0.07)])),
        Color(1, 0.9, 0.4).scaled(1.5), emission: 1)
    }
    let g = grade(
      &rng, key: 0.26...0.4, ambient: Color(0.55, 0.5, 0.6).scaled(rng.float(0.8...1.1)))
    var night = g
    night.saturation = rng.float(1.2...1.45)
    night.lift = rng.float(0.1...0.16)
    night.vignette = rng.float(0.05...0.2)
    return s.plan(grade: night, variant: "festive-night", rng: &rng)
  }
}
