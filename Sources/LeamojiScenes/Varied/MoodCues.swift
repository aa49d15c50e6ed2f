/// The content families of the `varied` set, per mood. Each family lists the looks it suits;
/// together a mood's families cover every look, so the look says nothing about the mood.
private typealias V = VariedScenes

/// Happy content: laughing faces, fireworks, fairy lights, birthday candles, a campfire with
/// friends, children jumping under a grey sky.
enum HappyCues {
  static let families: [VariedScenes.Family] = [
    .init(name: "laughing-faces", looks: V.all) { s, look, rng in
      _ = V.anyBackdrop(&s, look, &rng)
      V.faces(&s, look, &rng, expression: .laughing, most: 3)
    },
    .init(name: "fireworks", looks: [.dark, .dim, .colourful]) { s, look, rng in
      let ridge = V.outdoor(&s, look, &rng)
      for _ in 0..<rng.int(in: 2...4) {
        s.firework(
          &rng, x: rng.float(0...1), y: rng.float(0.12...0.4), radius: rng.float(0.08...0.16),
          color: Palette.happyAccent(&rng))
      }
      if rng.chance(0.6) {
        V.faces(&s, look, &rng, expression: .laughing, most: 2, baseY: ridge.base + 0.1)
      }
    },
    .init(name: "fairy-light-party", looks: [.dark, .dim, .bright, .colourful]) { s, look, rng in
      V.indoor(&s, look, &rng)
      s.fairyLights(&rng, y: rng.float(0.05...0.2), sag: rng.float(0.05...0.15))
      for _ in 0..<rng.int(in: 1...4) {
        s.balloon(
          &rng, x: rng.float(-0.2...1.2), y: rng.float(0.2...0.45), r: rng.float(0.04...0.06),
          color: Palette.happyAccent(&rng))
      }
      V.faces(&s, look, &rng, expression: .laughing, most: 3, baseY: 0.66)
    },
    .init(name: "candle-birthday", looks: [.dark, .dim, .bright, .grey]) { s, look, rng in
      let floorY = V.indoor(&s, look, &rng)
      V.faces(&s, look, &rng, expression: .laughing, most: 2, baseY: 0.45)
      let tx = rng.float(0.3...0.7)
      s.table(x: tx, y: floorY + 0.05, width: 0.6, height: 0.3, color: V.tone(look, &rng))
      s.birthdayCake(&rng, x: tx, y: floorY - 0.25, width: rng.float(0.2...0.3))
    },
    .init(name: "campfire", looks: [.dark, .dim]) { s, look, rng in
      let ridge = V.outdoor(&s, look, &rng)
      V.faces(&s, look, &rng, expression: .laughing, most: 3, baseY: ridge.base + 0.02)
      let cx = rng.float(0.35...0.65)
      let baseY = min(ridge.base + 0.3, 0.95)
      for side: Float in [-1, 1] {
        s.fill(
          .capsule(
            ax: cx - 0.08, ay: baseY + side * 0.01, bx: cx + 0.08, by: baseY - side * 0.01, r: 0.012
          ),
          Color(0.35, 0.2, 0.1))
      }
      s.fire(&rng, x: cx, baseY: baseY, width: 0.1, height: rng.float(0.1...0.16))
    },
    .init(name: "grey-playground", looks: [.grey, .bright, .colourful]) { s, look, rng in
      let ridge = V.outdoor(&s, look, &rng)
      for _ in 0..<rng.int(in: 1...3) {
        let x = rng.float(0.05...0.95)
        let h = rng.float(0.25...0.4)
        let by = ridge.base + rng.float(0.05...0.2) - rng.float(0...0.1)
        s.figure(x: x, baseY: by, height: h, color: V.tone(look, &rng))
        for side: Float in [-1, 1] {
          s.fill(
            .capsule(
              ax: x + side * h * 0.1, ay: by - h * 0.75, bx: x + side * h * 0.3, by: by - h * 1.05,
              r: h * 0.03),
            V.tone(look, &rng))
        }
      }
      V.faces(&s, look, &rng, expression: .laughing, most: 2, baseY: 0.6)
    },
  ]
}

/// Neutral content: plain faces, night traffic, a screen in an office, a cinema audience, a
/// restaurant, a colourful street, a living room.
enum NeutralCues {
  static let families: [VariedScenes.Family] = [
    .init(name: "neutral-faces", looks: V.all) { s, look, rng in
      _ = V.anyBackdrop(&s, look, &rng)
      V.faces(&s, look, &rng, expression: .neutral, most: 3)
    },
    .init(name: "night-traffic", looks: [.dark, .dim, .grey]) { s, look, rng in
      let roadY = V.street(&s, look, &rng)
      for _ in 0..<rng.int(in: 1...3) {
        s.car(
          &rng, x: rng.float(0...1), baseY: roadY + rng.float(0.05...0.15),
          width: rng.float(0.25...0.4), color: V.tone(look, &rng), lamps: look != .grey)
      }
    },
    .init(name: "screen-office", looks: [.dark, .dim, .bright, .grey]) { s, look, rng in
      let floorY = V.indoor(&s, look, &rng)
      let x0 = rng.float(0.15...0.4)
      let y0 = rng.float(0.2...0.35)
      s.table(x: 0.5, y: floorY + 0.05, width: 0.9, height: 0.25, color: V.tone(look, &rng))
      s.screen(
        &rng, x0: x0, y0: y0, x1: x0 + rng.float(0.3...0.45), y1: y0 + rng.float(0.2...0.3),
        glow: rng.color(hue: 190...230, saturation: 0.1...0.4, value: 0.8...1))
      if rng.chance(0.5) {
        V.faces(&s, look, &rng, expression: .neutral, most: 1, baseY: 0.75)
      }
    },
    .init(name: "cinema", looks: [.dark, .dim]) { s, look, rng in
      s.fill(.plane, V.tone(look, &rng).scaled(0.4))
      s.screen(
        &rng, x0: -0.1, y0: rng.float(0.05...0.15), x1: 1.1, y1: rng.float(0.45...0.55),
        glow: V.tone(.bright, &rng))
      s.audience(
        &rng, y: rng.float(0.7...0.8), rows: rng.int(in: 1...3),
        color: Color(grey: rng.float(0.05...0.2)))
    },
    .init(name: "restaurant", looks: [.dark, .dim, .bright, .colourful]) { s, look, rng in
      let floorY = V.indoor(&s, look, &rng)
      V.faces(&s, look, &rng, expression: .neutral, most: 2, baseY: 0.5)
      let tx = rng.float(0.3...0.7)
      s.table(x: tx, y: floorY + 0.05, width: 0.8, height: 0.28, color: Color(grey: 0.95))
      for k in 0..<3 {
        s.fill(
          .ellipse(x: tx - 0.25 + Float(k) * 0.25, y: floorY - 0.24, rx: 0.07, ry: 0.02),
          Color(grey: 0.98))
      }
      if look == .dark || look == .dim {
        s.fill(
          .ellipse(x: tx, y: floorY - 0.3, rx: 0.008, ry: 0.016), Color(1, 0.85, 0.4).scaled(1.5),
          emission: 1)
        s.glow(x: tx, y: floorY - 0.3, r: 0.08, color: Color(1, 0.7, 0.3), strength: 0.4)
      }
    },
    .init(name: "colourful-street", looks: [.colourful, .bright, .grey]) { s, look, rng in
      let roadY = V.street(&s, look, &rng)
      if rng.chance(0.5) {
        s.car(
          &rng, x: rng.float(0...1), baseY: roadY + 0.1, width: 0.3, color: V.tone(look, &rng),
          lamps: false)
      }
      if rng.chance(0.6) {
        V.faces(&s, look, &rng, expression: .neutral, most: 2, baseY: 0.6)
      }
    },
    .init(name: "living-room", looks: V.all) { s, look, rng in
      let floorY = V.indoor(&s, look, &rng)
      let sx = rng.float(0.1...0.5)
      let sofa = V.tone(look, &rng)
      s.fill(.rect(x0: sx, y0: floorY - 0.25, x1: sx + 0.5, y1: floorY, corner: 0.04), sofa)
      s.fill(
        .rect(x0: sx - 0.03, y0: floorY - 0.15, x1: sx + 0.53, y1: floorY + 0.02, corner: 0.04),
        sofa.scaled(0.85))
      let tvx = rng.float(0.5...0.8)
      s.screen(&rng, x0: tvx, y0: 0.3, x1: tvx + 0.25, y1: 0.45, glow: V.tone(.bright, &rng))
    },
  ]
}

/// Scary content: screaming faces, creatures with teeth and claws, fire, a shark fin at the
/// beach, a storm front, a chase, claws reaching in.
enum ScaryCues {
  static let families: [VariedScenes.Family] = [
    .init(name: "screaming-faces", looks: V.all) { s, look, rng in
      _ = V.anyBackdrop(&s, look, &rng)
      V.faces(&s, look, &rng, expression: .afraid, most: 2)
    },
    .init(name: "creature", looks: V.all) { s, look, rng in
      let baseY = V.anyBackdrop(&s, look, &rng)
      let body =
        look == .colourful || look == .bright
        ? rng.color(hue: 0...360, saturation: 0.3...0.7, value: 0.3...0.7)
        : rng.color(hue: 0...360, saturation: 0...0.4, value: 0.1...0.35)
      let eyes = rng.chance(0.5) ? Color(1, 0.85, 0.1) : Color(1, 0.15, 0.05)
      s.creature(
        &rng, x: rng.float(0.3...0.7), y: min(baseY, 0.75) - 0.15, size: rng.float(0.35...0.6),
        body: body, eyes: eyes)
    },
    .init(name: "fire", looks: V.all) { s, look, rng in
      let baseY = V.anyBackdrop(&s, look, &rng)
      if rng.chance(0.5) {
        s.house(
          x: rng.float(0.3...0.7), baseY: baseY, width: rng.float(0.3...0.45),
          wall: V.tone(look, &rng),
          roof: V.tone(look, &rng), door: Color(grey: 0.2), windowColor: Color(1, 0.5, 0.1),
          windowEmission: 1)
      }
      s.fire(
        &rng, x: rng.float(0.3...0.7), baseY: baseY + 0.05, width: rng.float(0.5...0.9),
        height: rng.float(0.3...0.5))
      if rng.chance(0.4) {
        V.faces(&s, look, &rng, expression: .afraid, most: 1, baseY: 0.7)
      }
    },
    .init(name: "shark-beach", looks: [.bright, .colourful, .grey, .dim]) { s, look, rng in
      let horizon = rng.float(0.35...0.5)
      V.sky(&s, look, horizonY: horizon, &rng)
      let sea =
        look == .grey
        ? Color(grey: 0.5) : rng.color(hue: 180...210, saturation: 0.4...0.8, value: 0.6...0.9)
      s.fill(.rect(x0: -2, y0: horizon, x1: 3, y1: 2, corner: 0), sea)
      let shore = rng.float(0.8...0.9)
      s.fill(
        .rect(x0: -2, y0: shore, x1: 3, y1: 2, corner: 0),
        rng.color(hue: 36...46, saturation: 0.2...0.5, value: 0.8...1))
      s.sharkFin(
        &rng, x: rng.float(0.2...0.8), waterY: rng.float(0.55...0.7), size: rng.float(0.15...0.25))
      if rng.chance(0.5) {
        V.faces(&s, look, &rng, expression: .afraid, most: 1, baseY: 0.78)
      }
    },
    .init(name: "storm-front", looks: [.grey, .dim, .dark, .bright]) { s, look, rng in
      let ridge = V.outdoor(&s, look, &rng)
      s.stormFront(&rng, bottom: ridge.base - rng.float(0.05...0.2))
      for _ in 0..<rng.int(in: 1...3) {
        let x = rng.float(0...1)
        s.deadTree(
          &rng, x: x, baseY: ridge.height(at: x) + 0.02, height: rng.float(0.2...0.35),
          color: Color(grey: 0.1))
      }
    },
    .init(name: "chase", looks: V.all) { s, look, rng in
      let baseY = min(V.anyBackdrop(&s, look, &rng) + 0.1, 0.95)
      let runner = rng.float(0.55...0.8)
      s.figure(
        x: runner, baseY: baseY, height: 0.35, color: V.tone(look, &rng),
        motion: Motion(vx: 0.2, vy: 0))
      s.face(
        &rng, x: runner, y: baseY - 0.32, r: 0.06, skin: V.skin(&rng), clothes: V.tone(look, &rng),
        expression: .afraid)
      s.creature(
        &rng, x: runner - 0.4, y: baseY - 0.3, size: 0.5, body: Color(grey: rng.float(0.05...0.3)),
        eyes: Color(1, 0.2, 0.05))
    },
    .init(name: "claws", looks: V.all) { s, look, rng in
      _ = V.anyBackdrop(&s, look, &rng)
      V.faces(&s, look, &rng, expression: .afraid, most: 1, baseY: 0.6)
      let side: Float = rng.chance(0.5) ? -1 : 1
      let edge: Float = side < 0 ? -0.1 : 1.1
      let y = rng.float(0.3...0.6)
      let hand = Color(grey: rng.float(0.05...0.3))
      s.fill(.ellipse(x: edge, y: y, rx: 0.2, ry: 0.16), hand)
      for c in 0..<4 {
        let cy = y - 0.12 + Float(c) * 0.08
        s.fill(
          .polygon(
            ConvexPolygon([(edge, cy - 0.02), (edge, cy + 0.02), (edge - side * 0.35, cy + 0.05)])),
          Color(0.95, 0.92, 0.82))
      }
    },
  ]
}
