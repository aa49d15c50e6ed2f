/// Neutral compositions: mid-key, low saturation (greys, beiges, muted blues and greens), even
/// light and moderate contrast — ordinary rooms, overcast country, streets. Two families overlap
/// the other moods on purpose: an evening room lit by one lamp (as dark as many scary scenes,
/// but flat, even and unthreatening) and a bright white kitchen or foggy snowfield (as bright
/// as happy scenes, but colourless).
enum NeutralScenes {
  /// A random neutral scene.
  static func compose(_ rng: inout SceneRandom) -> ScenePlan {
    switch rng.weightedIndex([0.26, 0.2, 0.2, 0.17, 0.17]) {
    case 0: return room(&rng, lighting: .day)
    case 1: return overcastCountry(&rng, snowy: false)
    case 2: return street(&rng)
    case 3: return room(&rng, lighting: .evening)
    default:
      return rng.chance(0.5) ? room(&rng, lighting: .white) : overcastCountry(&rng, snowy: true)
    }
  }

  /// The neutral "lab": little saturation, near-neutral cast, moderate contrast, light grain.
  static func grade(_ rng: inout SceneRandom, key: ClosedRange<Float>) -> Grade {
    Grade(
      key: rng.float(key), ambient: Color(grey: rng.float(0.85...0.95)),
      saturation: rng.float(0.75...1),
      tint: Color(rng.float(0.97...1.03), rng.float(0.98...1.02), rng.float(0.97...1.03)),
      lift: rng.float(0.03...0.07), contrast: rng.float(1...1.15), pivot: 0.45,
      vignette: rng.float(0.05...0.2), vignetteStart: 0.2, grain: rng.float(1.5...4.5))
  }

  enum RoomLighting { case day, evening, white }

  static func room(_ rng: inout SceneRandom, lighting: RoomLighting) -> ScenePlan {
    var s = SceneSketch()
    let floorY = rng.float(0.62...0.78)
    let wallColor =
      lighting == .white ? Palette.neutralGrey(&rng, value: 0.85...0.93) : Palette.neutralWall(&rng)
    let wall: Paint
    switch rng.int(in: 0...2) {
    case 0:
      wall = .stripes(wallColor, wallColor.scaled(0.95), degrees: 0, period: rng.float(0.05...0.1))
    case 1:
      wall = .noise(
        wallColor, wallColor.scaled(0.94), scale: 14, seed: UInt32(truncatingIfNeeded: rng.next()))
    default: wall = .solid(wallColor)
    }
    let floorColor =
      rng.chance(0.5)
      ? Palette.neutralGrey(&rng, value: 0.35...0.55)
      : rng.color(hue: 25...40, saturation: 0.15...0.3, value: 0.4...0.55)
    let floor: Paint =
      rng.chance(0.5)
      ? .stripes(floorColor, floorColor.scaled(0.85), degrees: 6, period: 0.1, duty: 0.1)
      : .noise(
        floorColor, floorColor.scaled(0.9), scale: 30, seed: UInt32(truncatingIfNeeded: rng.next()))
    s.room(wall: wall, floor: floor, floorY: floorY)
    if lighting == .white && rng.chance(0.7) {
      let tileTop = floorY - rng.float(0.2...0.35)
      s.add(
        .rect(x0: -2, y0: tileTop, x1: 3, y1: floorY, corner: 0),
        .checks(Color(grey: 0.92), Color(grey: 0.8), period: 0.06))
    }
    if rng.chance(0.7) {
      let wx = rng.float(-0.2...0.75)
      let outside: Paint
      if lighting == .evening {
        let dusk = rng.color(hue: 200...230, saturation: 0.15...0.3, value: 0.2...0.3)
        outside = .vertical(dusk.scaled(0.7), dusk, 0.1, 0.5)
      } else {
        let grey = Palette.neutralGrey(&rng, value: 0.78...0.9)
        outside = .vertical(grey.mixed(with: Color(0.7, 0.78, 0.88), 0.3), grey, 0.1, 0.5)
      }
      let y0 = rng.float(0.1...0.2)
      let frame = Palette.neutralGrey(&rng, value: 0.75...0.9)
      s.window(
        x0: wx, y0: y0, x1: wx + rng.float(0.2...0.3), y1: y0 + rng.float(0.25...0.35),
        glass: outside, glassEmission: 1, frame: frame)
      if rng.chance(0.4) {
        s.add(
          .rect(x0: wx, y0: y0, x1: wx + 0.3, y1: y0 + rng.float(0.08...0.2), corner: 0),
          .stripes(frame, frame.scaled(0.85), degrees: 90, period: 0.02, duty: 0.2))
      }
    }
    furnish(&s, &rng, floorY: floorY)
    let base = grade(&rng, key: 0.42...0.58)
    var g = base
    switch lighting {
    case .day:
      s.light(x: rng.float(0...1), y: -0.15, radius: 0.9, color: Color(grey: 0.15))
    case .evening:
      let lx = rng.float(0.05...0.95)
      let ly = floorY - rng.float(0.2...0.3)
      let shade = Palette.neutralMuted(&rng, value: 0.55...0.7)
      s.fill(
        .rect(x0: lx - 0.006, y0: ly, x1: lx + 0.006, y1: floorY + 0.04, corner: 0),
        Color(grey: 0.2))
      s.fill(
        .polygon(
          ConvexPolygon([
            (lx - 0.05, ly), (lx + 0.05, ly), (lx + 0.035, ly - 0.07), (lx - 0.035, ly - 0.07),
          ])), shade, emission: 0.7)
      s.light(
        x: lx, y: ly - 0.03, radius: 0.45, color: Color(1, 0.92, 0.8).scaled(0.45), haze: 0.08)
      g.key = rng.float(0.17...0.27)
      g.ambient = Color(grey: rng.float(0.45...0.6))
      g.contrast = rng.float(1...1.1)
      g.vignette = rng.float(0.08...0.22)
    case .white:
      s.light(x: rng.float(0...1), y: -0.2, radius: 1.0, color: Color(grey: 0.2))
      g.key = rng.float(0.6...0.72)
      g.saturation = rng.float(0.6...0.8)
      g.contrast = rng.float(0.95...1.05)
    }
    let name =
      lighting == .day ? "plain-room" : lighting == .evening ? "evening-room" : "white-room"
    return s.plan(grade: g, variant: name, rng: &rng)
  }

  /// Furniture against the back wall: desks, shelves, pictures, cabinets, sofas, a plant.
  static func furnish(_ s: inout SceneSketch, _ rng: inout SceneRandom, floorY: Float) {
    var x = rng.float(-0.45 ... -0.2)
    while x < 1.4 {
      let w = rng.float(0.18...0.34)
      let cx = x + w / 2
      let wood =
        rng.chance(0.5)
        ? rng.color(hue: 22...38, saturation: 0.2...0.35, value: 0.35...0.55)
        : Palette.neutralGrey(&rng, value: 0.3...0.7)
      switch rng.int(in: 0...5) {
      case 0:
        s.table(x: cx, y: floorY + 0.08, width: w, height: rng.float(0.15...0.22), color: wood)
      case 1:
        s.shelf(
          &rng, x0: x, y0: floorY + 0.06 - rng.float(0.3...0.45), x1: x + w, y1: floorY + 0.06,
          wood: wood
        ) { r in
          Palette.neutralMuted(&r, value: 0.3...0.65)
        }
      case 2:
        s.picture(
          x: cx, y: floorY - rng.float(0.3...0.45), width: w * 0.6, height: w * 0.45, frame: wood,
          art: .vertical(
            Palette.neutralMuted(&rng), Palette.neutralMuted(&rng), floorY - 0.5, floorY - 0.3))
      case 3:
        let h = rng.float(0.15...0.3)
        s.fill(
          .rect(x0: x, y0: floorY + 0.06 - h, x1: x + w, y1: floorY + 0.06, corner: 0.005), wood)
        s.fill(
          .rect(
            x0: cx - 0.002, y0: floorY + 0.07 - h, x1: cx + 0.002, y1: floorY + 0.05, corner: 0),
          wood.scaled(0.7))
      case 4:
        let c = Palette.neutralMuted(&rng, value: 0.35...0.6)
        s.fill(.rect(x0: x, y0: floorY - 0.06, x1: x + w * 1.2, y1: floorY + 0.08, corner: 0.02), c)
        s.fill(
          .rect(
            x0: x + 0.02, y0: floorY - 0.14, x1: x + w * 1.2 - 0.02, y1: floorY - 0.04, corner: 0.02
          ), c.scaled(0.92))
      default:
        s.fill(
          .rect(x0: cx - 0.03, y0: floorY, x1: cx + 0.03, y1: floorY + 0.06, corner: 0.005),
          Palette.neutralGrey(&rng, value: 0.4...0.6))
        for _ in 0..<4 {
          s.fill(
            .circle(
              x: cx + rng.float(-0.04...0.04), y: floorY - rng.float(0.02...0.1),
              r: rng.float(0.025...0.04)),
            rng.color(hue: 90...140, saturation: 0.2...0.35, value: 0.3...0.45))
        }
      }
      s.contactShadow(x: cx, y: floorY + 0.08, width: w, darkness: 0.2, softness: 0.02)
      x += w + rng.float(0.05...0.25)
    }
  }

  static func overcastCountry(_ rng: inout SceneRandom, snowy: Bool) -> ScenePlan {
    var s = SceneSketch()
    let horizon = rng.float(0.45...0.62)
    let skyLow = Palette.neutralGrey(&rng, value: snowy ? 0.88...0.95 : 0.78...0.9)
    s.sky(
      top: Palette.neutralGrey(&rng, value: snowy ? 0.8...0.9 : 0.62...0.78).mixed(
        with: Color(0.6, 0.66, 0.74), 0.2), horizon: skyLow, horizonY: horizon)
    for _ in 0..<rng.int(in: 1...4) {
      s.cloud(
        &rng, x: rng.float(-0.4...1.4), y: rng.float(0.08...(horizon - 0.12)),
        width: rng.float(0.25...0.5), color: skyLow.scaled(rng.float(0.85...0.95)), opacity: 0.6,
        softness: 0.04, speed: 0.008)
    }
    let farColor =
      snowy
      ? Palette.neutralGrey(&rng, value: 0.75...0.85)
      : rng.color(hue: 90...150, saturation: 0.08...0.18, value: 0.5...0.62)
    s.hills(
      &rng, base: horizon + 0.02, amplitude: rng.float(0.03...0.08), paint: .solid(farColor),
      parallax: 0.4)
    let field =
      snowy
      ? Palette.neutralGrey(&rng, value: 0.82...0.92)
      : rng.color(hue: 60...110, saturation: 0.18...0.32, value: 0.4...0.55)
    let ridge = s.hills(
      &rng, base: horizon + rng.float(0.08...0.14), amplitude: 0.02,
      paint: .noise(
        field, field.scaled(0.9), scale: 20, seed: UInt32(truncatingIfNeeded: rng.next())),
      parallax: 0.8)
    if rng.chance(0.5) {
      let vx = rng.float(0.3...0.7)
      let road = Palette.neutralGrey(&rng, value: 0.35...0.45)
      let top = ridge.height(at: vx) + 0.01
      s.fill(
        .polygon(
          ConvexPolygon([(vx - 0.01, top), (vx + 0.01, top), (vx + 0.6, 1.05), (vx - 0.6, 1.05)])),
        road)
      for k in 0..<6 {
        let t0 = Float(k) / 6 + 0.04
        let t1 = t0 + 0.06
        let y0 = top + (1.05 - top) * t0 * t0
        let y1 = top + (1.05 - top) * t1 * t1
        s.fill(
          .polygon(
            ConvexPolygon([
              (vx - 0.002 - 0.01 * t0, y0), (vx + 0.002 + 0.01 * t0, y0),
              (vx + 0.002 + 0.01 * t1, y1), (vx - 0.002 - 0.01 * t1, y1),
            ])), Color(grey: 0.8))
      }
    }
    let treeColor = rng.color(hue: 100...150, saturation: 0.12...0.25, value: 0.25...0.38)
    for _ in 0..<rng.int(in: 0...5) {
      let tx = rng.float(-0.4...1.4)
      let th = rng.float(0.12...0.3)
      if rng.chance(0.5) {
        s.pineTree(
          x: tx, baseY: ridge.height(at: tx) + 0.01, height: th, color: treeColor,
          trunk: Color(grey: 0.25))
      } else {
        s.roundTree(
          &rng, x: tx, baseY: ridge.height(at: tx) + 0.01, height: th, crown: treeColor,
          trunk: Color(grey: 0.3))
      }
    }
    if rng.chance(0.5) {
      var px = rng.float(-0.4...0)
      let poleColor = Palette.neutralGrey(&rng, value: 0.25...0.35)
      var prevTop: (Float, Float)? = nil
      while px < 1.45 {
        let base = ridge.height(at: px) + 0.02
        let top = base - 0.22
        s.fill(.capsule(ax: px, ay: base, bx: px, by: top, r: 0.004), poleColor)
        if let p = prevTop {
          s.fill(.capsule(ax: p.0, ay: p.1, bx: px, by: top, r: 0.0015), poleColor)
        }
        prevTop = (px, top)
        px += rng.float(0.3...0.45)
      }
    }
    if rng.chance(0.3) {
      let hx = rng.float(0...1)
      s.house(
        x: hx, baseY: ridge.height(at: hx) + 0.02, width: rng.float(0.12...0.2),
        wall: Palette.neutralWall(&rng), roof: Palette.neutralGrey(&rng, value: 0.3...0.45),
        door: Palette.neutralMuted(&rng), windowColor: Color(grey: 0.35), windowEmission: 0)
    }
    var g = grade(&rng, key: snowy ? 0.6...0.72 : 0.42...0.58)
    g.ambient = Color(grey: rng.float(0.88...0.98))
    if snowy {
      g.saturation = rng.float(0.6...0.8)
    }
    return s.plan(grade: g, variant: snowy ? "fog-snow" : "overcast-country", rng: &rng)
  }

  static func street(_ rng: inout SceneRandom) -> ScenePlan {
    var s = SceneSketch()
    let streetTop = rng.float(0.62...0.72)
    let sky = Palette.neutralGrey(&rng, value: 0.72...0.88)
    s.sky(top: sky.mixed(with: Color(0.62, 0.7, 0.8), 0.3), horizon: sky, horizonY: streetTop)
    var x = rng.float(-0.55 ... -0.4)
    while x < 1.45 {
      let w = rng.float(0.15...0.32)
      let c =
        rng.chance(0.6)
        ? Palette.neutralGrey(&rng, value: 0.45...0.7)
        : rng.color(hue: 12...40, saturation: 0.12...0.28, value: 0.45...0.65)
      s.building(
        &rng, x0: x, x1: x + w, top: rng.float(0.08...0.4), baseY: streetTop, color: c,
        windowDark: rng.color(hue: 200...220, saturation: 0.05...0.15, value: 0.3...0.45),
        windowLit: Color(0.85, 0.83, 0.78), litFraction: 0.06, windowEmission: 0.5, parallax: 0.6)
      x += w + rng.float(0...0.03)
    }
    s.fill(
      .rect(x0: -2, y0: streetTop, x1: 3, y1: streetTop + 0.06, corner: 0),
      Palette.neutralGrey(&rng, value: 0.58...0.7))
    let roadTop = streetTop + 0.06
    s.add(
      .rect(x0: -2, y0: roadTop, x1: 3, y1: 2, corner: 0),
      .noise(
        Palette.neutralGrey(&rng, value: 0.3...0.4), Palette.neutralGrey(&rng, value: 0.26...0.34),
        scale: 40, seed: UInt32(truncatingIfNeeded: rng.next())))
    let laneY = roadTop + (1 - roadTop) * 0.5
    var dash = rng.float(-0.5 ... -0.4)
    while dash < 1.5 {
      s.fill(
        .rect(x0: dash, y0: laneY - 0.006, x1: dash + 0.1, y1: laneY + 0.006, corner: 0),
        Color(grey: 0.82))
      dash += 0.2
    }
    for _ in 0..<rng.int(in: 0...3) {
      let cx = rng.float(-0.3...1.3)
      let cy = roadTop + rng.float(0.05...0.25)
      let c =
        rng.chance(0.5) ? Palette.neutralGrey(&rng, value: 0.3...0.8) : Palette.neutralMuted(&rng)
      let motion = Motion(vx: rng.chance(0.5) ? 0.06 : -0.06, vy: 0)
      s.fill(
        .rect(x0: cx - 0.12, y0: cy - 0.06, x1: cx + 0.12, y1: cy, corner: 0.015), c, motion: motion
      )
      s.fill(
        .rect(x0: cx - 0.07, y0: cy - 0.1, x1: cx + 0.06, y1: cy - 0.05, corner: 0.02),
        c.scaled(0.9), motion: motion)
      s.fill(
        .rect(x0: cx - 0.06, y0: cy - 0.092, x1: cx + 0.05, y1: cy - 0.062, corner: 0.01),
        Color(0.55, 0.6, 0.65), motion: motion)
      for side: Float in [-1, 1] {
        s.fill(.circle(x: cx + side * 0.075, y: cy, r: 0.025), Color(grey: 0.12), motion: motion)
      }
    }
    for _ in 0..<rng.int(in: 0...3) {
      let fx = rng.float(-0.3...1.3)
      s.figure(
        x: fx, baseY: streetTop + 0.05, height: rng.float(0.16...0.22),
        color: Palette.neutralMuted(&rng, value: 0.3...0.5),
        motion: Motion(vx: rng.chance(0.5) ? 0.02 : -0.02, vy: 0))
    }
    var g = grade(&rng, key: 0.4...0.56)
    g.ambient = Color(grey: rng.float(0.9...1))
    return s.plan(grade: g, variant: "city-street", rng: &rng)
  }
}
