import LeamojiCore
/// Content cues of the `varied` scene set: what tells the moods apart when the lighting does
/// not — faces with expressions, creatures with teeth and claws, fire versus fireworks, shark
/// fins, storm fronts, screens, cars, cinema seats and credits text. Sizes are in world units
/// (frame height = 1) and large enough to read at 64 x 64.
extension SceneSketch {
  /// The expressions a face can wear.
  enum Expression { case laughing, neutral, afraid }

  /// A face (head, eyes, brows, mouth) on shoulders, centred at (`x`, `y`) with head radius
  /// `r`. Laughing: closed crescent eyes, a wide open smile, rosy cheeks. Neutral: dot eyes,
  /// level brows, a straight mouth. Afraid: wide white eyes, raised brows, a screaming O and
  /// hands at the cheeks.
  mutating func face(
    _ rng: inout SceneRandom, x: Float, y: Float, r: Float, skin: Color, clothes: Color,
    expression: Expression
  ) {
    let dark = Color(grey: 0.08)
    let motion = rng.drift(speed: 0.003, bob: r * 0.05)
    fill(
      .ellipse(x: x, y: y + r * 1.9, rx: r * 1.5, ry: r * 0.95), clothes, softness: 0.003,
      motion: motion)
    fill(.circle(x: x, y: y, r: r), skin, softness: 0.002, motion: motion)
    if rng.chance(0.6) {
      fill(
        .ellipse(x: x, y: y - r * 0.75, rx: r * 0.95, ry: r * 0.4),
        rng.color(hue: 15...40, saturation: 0.3...0.8, value: 0.1...0.6), motion: motion)
    }
    let eyeY = y - r * 0.12
    let mouthY = y + r * 0.42
    switch expression {
    case .laughing:
      for side: Float in [-1, 1] {
        let ex = x + side * r * 0.36
        fill(
          .capsule(
            ax: ex - r * 0.16, ay: eyeY + r * 0.04, bx: ex, by: eyeY - r * 0.1, r: r * 0.045),
          dark, motion: motion)
        fill(
          .capsule(
            ax: ex, ay: eyeY - r * 0.1, bx: ex + r * 0.16, by: eyeY + r * 0.04, r: r * 0.045),
          dark, motion: motion)
        fill(
          .circle(x: x + side * r * 0.6, y: y + r * 0.25, r: r * 0.15),
          Color(1, 0.45, 0.5), opacity: 0.6, softness: r * 0.08, motion: motion)
      }
      fill(
        .ellipse(x: x, y: mouthY - r * 0.08, rx: r * 0.5, ry: r * 0.36), Color(0.35, 0.05, 0.08),
        motion: motion)
      fill(
        .rect(
          x0: x - r * 0.55, y0: mouthY - r * 0.5, x1: x + r * 0.55, y1: mouthY - r * 0.08, corner: 0
        ), skin, motion: motion)
      fill(
        .rect(
          x0: x - r * 0.42, y0: mouthY - r * 0.08, x1: x + r * 0.42, y1: mouthY + r * 0.02,
          corner: 0), Color(grey: 0.97), motion: motion)
      fill(
        .ellipse(x: x, y: mouthY + r * 0.17, rx: r * 0.22, ry: r * 0.09), Color(0.95, 0.45, 0.5),
        motion: motion)
    case .neutral:
      for side: Float in [-1, 1] {
        let ex = x + side * r * 0.36
        fill(.circle(x: ex, y: eyeY, r: r * 0.08), dark, motion: motion)
        fill(
          .capsule(
            ax: ex - r * 0.14, ay: eyeY - r * 0.26, bx: ex + r * 0.14, by: eyeY - r * 0.26,
            r: r * 0.035), dark, motion: motion)
      }
      fill(
        .capsule(ax: x - r * 0.26, ay: mouthY, bx: x + r * 0.26, by: mouthY, r: r * 0.045), dark,
        motion: motion)
    case .afraid:
      for side: Float in [-1, 1] {
        let ex = x + side * r * 0.36
        fill(
          .ellipse(x: ex, y: eyeY, rx: r * 0.17, ry: r * 0.22), Color(grey: 0.98), motion: motion)
        fill(.circle(x: ex, y: eyeY, r: r * 0.06), dark, motion: motion)
        fill(
          .capsule(
            ax: ex - side * r * 0.16, ay: eyeY - r * 0.46, bx: ex + side * r * 0.16,
            by: eyeY - r * 0.3, r: r * 0.04), dark, motion: motion)
        fill(
          .ellipse(x: x + side * r * 1.02, y: y + r * 0.3, rx: r * 0.22, ry: r * 0.45), skin,
          softness: 0.002, motion: motion)
      }
      fill(
        .ellipse(x: x, y: mouthY + r * 0.08, rx: r * 0.2, ry: r * 0.34), Color(0.12, 0.02, 0.03),
        motion: motion)
    }
  }

  /// A creature: a hulking body with spikes, glowing slit eyes, a gaping jaw full of teeth and
  /// clawed arms. `size` is its body height.
  mutating func creature(
    _ rng: inout SceneRandom, x: Float, y: Float, size h: Float, body: Color, eyes: Color
  ) {
    let motion = rng.drift(speed: 0.01, bob: h * 0.03, frequency: 0.3...0.6)
    for k in 0..<rng.int(in: 3...6) {
      let sx = x + (Float(k) - 2) * h * 0.17
      fill(
        .polygon(
          ConvexPolygon([
            (sx - h * 0.07, y - h * 0.3), (sx + h * 0.07, y - h * 0.3), (sx, y - h * 0.58),
          ])), body.scaled(0.7), motion: motion)
    }
    fill(.ellipse(x: x, y: y, rx: h * 0.5, ry: h * 0.45), body, softness: 0.004, motion: motion)
    for side: Float in [-1, 1] {
      let ax = x + side * h * 0.45
      let hx = x + side * h * 0.75
      let hy = y + h * 0.05
      fill(.capsule(ax: ax, ay: y, bx: hx, by: hy, r: h * 0.08), body, motion: motion)
      for c in 0..<3 {
        let cy = hy - h * 0.08 + Float(c) * h * 0.08
        fill(
          .polygon(
            ConvexPolygon([
              (hx, cy - h * 0.025), (hx, cy + h * 0.025), (hx + side * h * 0.2, cy + h * 0.05),
            ])), Color(0.95, 0.92, 0.8), motion: motion)
      }
      let ex = x + side * h * 0.18
      let ey = y - h * 0.16
      glow(x: ex, y: ey, r: h * 0.18, color: eyes, strength: 0.6, motion: motion)
      fill(
        .ellipse(x: ex, y: ey, rx: h * 0.09, ry: h * 0.06), eyes.scaled(1.5), emission: 1,
        motion: motion)
      fill(.ellipse(x: ex, y: ey, rx: h * 0.015, ry: h * 0.055), Color(grey: 0.02), motion: motion)
    }
    let jawY = y + h * 0.12
    let jawW = h * 0.32
    fill(.ellipse(x: x, y: jawY, rx: jawW, ry: h * 0.15), Color(0.25, 0.02, 0.03), motion: motion)
    let teeth = 6
    for t in 0..<teeth {
      let tx = x - jawW * 0.8 + (Float(t) + 0.5) * (jawW * 1.6 / Float(teeth))
      let tw = jawW * 0.12
      let tooth = Color(0.97, 0.95, 0.85)
      fill(
        .polygon(
          ConvexPolygon([
            (tx - tw, jawY - h * 0.1), (tx + tw, jawY - h * 0.1), (tx, jawY + h * 0.01),
          ])),
        tooth, motion: motion)
      fill(
        .polygon(
          ConvexPolygon([
            (tx - tw, jawY + h * 0.11), (tx + tw, jawY + h * 0.11), (tx, jawY - h * 0.0),
          ])),
        tooth, motion: motion)
    }
  }

  /// A spreading fire: tongues of flame from dark red to white-yellow, self-lit, with smoke
  /// above and a flickering light around it.
  mutating func fire(_ rng: inout SceneRandom, x: Float, baseY: Float, width: Float, height: Float)
  {
    for _ in 0..<rng.int(in: 2...4) {
      fill(
        .ellipse(
          x: x + rng.float(-0.5...0.5) * width, y: baseY - height * rng.float(1.1...1.6),
          rx: width * rng.float(0.3...0.6), ry: height * rng.float(0.2...0.35)),
        Color(grey: rng.float(0.08...0.25)), opacity: 0.75, softness: 0.04,
        motion: Motion(vx: 0.01, vy: -0.02))
    }
    light(
      x: x, y: baseY - height * 0.4, radius: width, color: Color(1, 0.5, 0.15), haze: 0.5,
      flicker: 0.4)
    let layers: [(Color, Float)] = [
      (Color(0.9, 0.15, 0.02), 1), (Color(1, 0.45, 0.05), 0.75), (Color(1, 0.85, 0.35), 0.45),
    ]
    for (color, scale) in layers {
      let tongues = rng.int(in: 5...9)
      for k in 0..<tongues {
        let tx = x - width / 2 + (Float(k) + rng.float(0.2...0.8)) * width / Float(tongues)
        let tw = width / Float(tongues) * rng.float(0.7...1.2)
        let th = height * scale * rng.float(0.6...1)
        fill(
          .polygon(
            ConvexPolygon([
              (tx - tw, baseY), (tx + tw, baseY), (tx + rng.float(-0.3...0.3) * tw, baseY - th),
            ])),
          color.scaled(1.5), softness: 0.006, emission: 1, flicker: 0.3)
      }
    }
    glow(
      x: x, y: baseY - height * 0.3, r: width * 0.8, color: Color(1, 0.45, 0.1), strength: 0.5,
      flicker: 0.3)
  }

  /// A firework burst: rays of one colour from a centre, with a glow and sparkles.
  mutating func firework(_ rng: inout SceneRandom, x: Float, y: Float, radius: Float, color: Color)
  {
    glow(x: x, y: y, r: radius * 1.5, color: color, strength: 0.5)
    let rays = rng.int(in: 12...22)
    for k in 0..<rays {
      let angle = Double(k) / Double(rays) * PortableMath.twoPi
      let c = Float(PortableMath.sceneCos(angle))
      let s = Float(PortableMath.sceneSin(angle))
      fill(
        .capsule(
          ax: x + c * radius * 0.25, ay: y + s * radius * 0.25, bx: x + c * radius,
          by: y + s * radius, r: 0.004),
        color.scaled(1.5), emission: 1)
      fill(
        .circle(x: x + c * radius * 1.08, y: y + s * radius * 1.08, r: 0.006),
        Color(1, 1, 0.9).scaled(1.4), emission: 1)
    }
  }

  /// A string of coloured fairy lights sagging across the frame.
  mutating func fairyLights(_ rng: inout SceneRandom, y: Float, sag: Float) {
    let bulbs = rng.int(in: 9...16)
    for k in 0...bulbs {
      let t = Float(k) / Float(bulbs)
      let c = Palette.happyAccent(&rng)
      let bx = -0.45 + 1.9 * t
      let by = y + sag * 4 * t * (1 - t)
      glow(x: bx, y: by, r: 0.045, color: c, strength: 0.6, flicker: 0.2)
      fill(.circle(x: bx, y: by, r: 0.009), c.scaled(1.5), emission: 1)
    }
  }

  /// A birthday cake with lit candles on a table top at `y`.
  mutating func birthdayCake(_ rng: inout SceneRandom, x: Float, y: Float, width w: Float) {
    fill(
      .rect(x0: x - w / 2, y0: y - w * 0.45, x1: x + w / 2, y1: y, corner: w * 0.05),
      Palette.happyPastel(&rng))
    fill(
      .rect(x0: x - w / 2, y0: y - w * 0.45, x1: x + w / 2, y1: y - w * 0.33, corner: w * 0.05),
      Color(1, 0.98, 0.95))
    let candles = rng.int(in: 3...6)
    for k in 0..<candles {
      let cx = x - w * 0.4 + (Float(k) + 0.5) * w * 0.8 / Float(candles)
      let top = y - w * 0.45
      fill(
        .rect(x0: cx - w * 0.02, y0: top - w * 0.2, x1: cx + w * 0.02, y1: top, corner: 0),
        Palette.happyAccent(&rng))
      fill(
        .ellipse(x: cx, y: top - w * 0.25, rx: w * 0.025, ry: w * 0.05),
        Color(1, 0.85, 0.4).scaled(1.6), emission: 1, flicker: 0.2)
      glow(
        x: cx, y: top - w * 0.25, r: w * 0.3, color: Color(1, 0.7, 0.3), strength: 0.5, flicker: 0.2
      )
    }
    light(x: x, y: y - w * 0.6, radius: w * 2, color: Color(1, 0.7, 0.35).scaled(0.8), haze: 0.3)
  }

  /// A car seen from the side; at night its head and tail lamps glow.
  mutating func car(
    _ rng: inout SceneRandom, x: Float, baseY: Float, width w: Float, color: Color, lamps: Bool
  ) {
    let motion = Motion(vx: rng.chance(0.5) ? 0.08 : -0.08, vy: 0)
    fill(
      .rect(
        x0: x - w / 2, y0: baseY - w * 0.3, x1: x + w / 2, y1: baseY - w * 0.08, corner: w * 0.05),
      color, motion: motion)
    fill(
      .rect(
        x0: x - w * 0.28, y0: baseY - w * 0.48, x1: x + w * 0.22, y1: baseY - w * 0.28,
        corner: w * 0.06), color.scaled(0.9), motion: motion)
    fill(
      .rect(
        x0: x - w * 0.24, y0: baseY - w * 0.45, x1: x + w * 0.18, y1: baseY - w * 0.3,
        corner: w * 0.03), Color(0.3, 0.35, 0.4), motion: motion)
    for side: Float in [-1, 1] {
      fill(
        .circle(x: x + side * w * 0.3, y: baseY - w * 0.08, r: w * 0.09), Color(grey: 0.08),
        motion: motion)
    }
    if lamps {
      glow(
        x: x + w * 0.5, y: baseY - w * 0.22, r: w * 0.35, color: Color(1, 0.95, 0.75),
        strength: 0.7, motion: motion)
      fill(
        .circle(x: x + w * 0.48, y: baseY - w * 0.22, r: w * 0.04), Color(1, 1, 0.9).scaled(1.6),
        emission: 1, motion: motion)
      glow(
        x: x - w * 0.5, y: baseY - w * 0.22, r: w * 0.2, color: Color(1, 0.1, 0.05), strength: 0.6,
        motion: motion)
      fill(
        .circle(x: x - w * 0.48, y: baseY - w * 0.22, r: w * 0.03), Color(1, 0.15, 0.1).scaled(1.4),
        emission: 1, motion: motion)
    }
  }

  /// A glowing screen (monitor, television, cinema) with lines of text or a picture on it.
  mutating func screen(
    _ rng: inout SceneRandom, x0: Float, y0: Float, x1: Float, y1: Float, glow tint: Color
  ) {
    fill(
      .rect(x0: x0 - 0.01, y0: y0 - 0.01, x1: x1 + 0.01, y1: y1 + 0.01, corner: 0.005),
      Color(grey: 0.1))
    fill(.rect(x0: x0, y0: y0, x1: x1, y1: y1, corner: 0), tint, emission: 1)
    let rows = rng.int(in: 3...7)
    for k in 0..<rows {
      let ly = y0 + (Float(k) + 0.7) * (y1 - y0) / Float(rows + 1)
      let lx1 = x0 + (x1 - x0) * rng.float(0.3...0.9)
      fill(
        .rect(x0: x0 + (x1 - x0) * 0.08, y0: ly, x1: lx1, y1: ly + (y1 - y0) * 0.06, corner: 0),
        tint.scaled(0.45), emission: 1)
    }
    light(
      x: (x0 + x1) / 2, y: (y0 + y1) / 2, radius: (x1 - x0) * 1.2, color: tint.scaled(0.4),
      haze: 0.2)
  }

  /// Rows of seat backs and heads seen from behind (a cinema or a theatre audience).
  mutating func audience(_ rng: inout SceneRandom, y: Float, rows: Int, color: Color) {
    for row in 0..<rows {
      let ry = y + Float(row) * 0.12
      let size = 0.05 + Float(row) * 0.012
      var sx = -0.45 + rng.float(0...0.08)
      while sx < 1.45 {
        fill(.circle(x: sx, y: ry - size * 1.3, r: size * 0.8), color.scaled(0.8))
        fill(
          .rect(
            x0: sx - size * 1.2, y0: ry - size * 0.6, x1: sx + size * 1.2, y1: ry + 0.2,
            corner: size * 0.4), color)
        sx += size * 2.7
      }
    }
  }

  /// A shark fin cutting through water at `waterY`, with foam at its base.
  mutating func sharkFin(_ rng: inout SceneRandom, x: Float, waterY: Float, size h: Float) {
    let motion = Motion(vx: rng.chance(0.5) ? 0.03 : -0.03, vy: 0)
    let grey = Color(grey: rng.float(0.25...0.45))
    fill(
      .polygon(
        ConvexPolygon([(x - h * 0.5, waterY), (x + h * 0.35, waterY), (x + h * 0.1, waterY - h)])),
      grey, motion: motion)
    fill(
      .polygon(
        ConvexPolygon([
          (x + h * 0.1, waterY - h), (x + h * 0.35, waterY), (x + h * 0.3, waterY - h * 0.55),
        ])), grey.scaled(0.8), motion: motion)
    fill(
      .ellipse(x: x, y: waterY, rx: h * 0.8, ry: h * 0.08), Color(grey: 0.97), opacity: 0.8,
      softness: 0.01, motion: motion)
  }

  /// The dark wall of a storm front rolling over the sky, with rain and often lightning.
  mutating func stormFront(_ rng: inout SceneRandom, bottom: Float) {
    let base = Color(grey: rng.float(0.12...0.25)).times(Color(0.9, 0.95, 1.05))
    for _ in 0..<rng.int(in: 7...11) {
      let cx = rng.float(-0.5...1.5)
      let r = rng.float(0.15...0.3)
      fill(
        .circle(x: cx, y: bottom - r * rng.float(0.4...1), r: r), base.scaled(rng.float(0.8...1.2)),
        softness: 0.03, emission: 0.6, motion: Motion(vx: 0.02, vy: 0), parallax: 0.3)
    }
    fill(
      .rect(x0: -2, y0: -0.2, x1: 3, y1: bottom - 0.15, corner: 0), base.scaled(0.8),
      softness: 0.05, emission: 0.6, parallax: 0.3)
    add(
      .rect(x0: -2, y0: bottom - 0.1, x1: 3, y1: 1.2, corner: 0),
      .stripes(Color(grey: 0.6), .black, degrees: 75, period: 0.03, duty: 0.1), opacity: 0.35,
      blend: .add)
    if rng.chance(0.6) {
      lightning(
        &rng, x: rng.float(0.1...0.9), y0: bottom - 0.2, y1: bottom + 0.35,
        color: Color(0.9, 0.92, 1).scaled(1.6))
    }
  }

  /// Lines of white credits text (tiny word blocks), as at the end of a film.
  mutating func credits(_ rng: inout SceneRandom, y0: Float, lines: Int, lineHeight: Float) {
    for k in 0..<lines {
      let y = y0 + Float(k) * lineHeight * 1.9
      var x = 0.5 - rng.float(0.15...0.35)
      let end = 1 - x
      while x < end {
        let word = rng.float(0.03...0.09)
        add(
          .rect(x0: x, y0: y, x1: min(x + word, end), y1: y + lineHeight, corner: 0),
          .stripes(Color(grey: 0.95), .black, degrees: 0, period: lineHeight * 0.7, duty: 0.35),
          emission: 1, blend: .add, motion: Motion(vx: 0, vy: -0.03))
        x += word + lineHeight
      }
    }
  }
}
