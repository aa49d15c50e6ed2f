/// Fine, irregular detail for the backdrops of the `varied` set — foliage, gravel, brick,
/// bookshelves, a crowd — drawn with the same chances whatever the mood.
///
/// Real films are full of such detail. In scenes drawn from flat shapes it came only with
/// the busiest scary content (a creature's spikes and teeth, a storm, fire), so a network
/// trained on them took texture itself for fear and called real, benign footage scary
/// With clutter behind happy, neutral and scary content alike, texture says
/// nothing about the mood and only the content cues (faces, creatures, fire against
/// fireworks ...) separate them.
extension VariedScenes {
  /// The chance that a backdrop gets clutter.
  static let clutterChance = 0.65

  /// A paint of fine value noise between `color` and a darker shade: gravel, bark, a rough
  /// plaster wall. `scale` is in cycles per frame height; 40 and more read as texture at 64 px.
  static func roughPaint(_ color: Color, _ rng: inout SceneRandom) -> Paint {
    .noise(
      color, color.scaled(rng.float(0.45...0.75)), scale: rng.float(40...110),
      seed: UInt32(truncatingIfNeeded: rng.next()))
  }

  /// Outdoor clutter on and above the ridge: bushes of many small leaves, a hedge, a row of
  /// trees or a gravel path.
  static func outdoorClutter(
    _ s: inout SceneSketch, _ look: Look, ridge: Ridge, _ rng: inout SceneRandom
  ) {
    switch rng.int(in: 0...3) {
    case 0:
      // Bushes: clusters of small leaves in shades of one green (or any hue in colourful looks).
      for _ in 0..<rng.int(in: 2...5) {
        let bx = rng.float(-0.1...1.1)
        let by = ridge.height(at: bx) + rng.float(0...0.05)
        leaves(
          &s, look, x: bx, y: by, width: rng.float(0.12...0.3), height: rng.float(0.1...0.25), &rng)
      }
    case 1:
      // A hedge along the ridge.
      let y = ridge.base + rng.float(-0.04...0.04)
      var x: Float = -0.1
      while x < 1.1 {
        let w = rng.float(0.12...0.22)
        leaves(&s, look, x: x + w / 2, y: y, width: w, height: rng.float(0.08...0.16), &rng)
        x += w * 0.8
      }
    case 2:
      // A row of leafy trees on the horizon.
      for _ in 0..<rng.int(in: 2...4) {
        let tx = rng.float(-0.05...1.05)
        let ty = ridge.height(at: tx) + 0.01
        let h = rng.float(0.2...0.4)
        s.fill(
          .rect(x0: tx - h * 0.04, y0: ty - h * 0.5, x1: tx + h * 0.04, y1: ty, corner: 0),
          foliage(look, &rng).scaled(0.5))
        leaves(&s, look, x: tx, y: ty - h * 0.45, width: h * 0.7, height: h * 0.55, &rng)
      }
    default:
      // Gravel or a rough field in the foreground.
      let top = rng.float(0.78...0.9)
      s.add(.rect(x0: -2, y0: top, x1: 3, y1: 2, corner: 0), roughPaint(tone(look, &rng), &rng))
    }
  }

  /// Indoor clutter on the wall: brick, a rough plaster, a bookshelf or a wall of pictures.
  static func indoorClutter(
    _ s: inout SceneSketch, _ look: Look, floorY: Float, _ rng: inout SceneRandom
  ) {
    switch rng.int(in: 0...3) {
    case 0:
      bricks(&s, look, x0: -0.1, y0: -0.1, x1: 1.1, y1: floorY, &rng)
    case 1:
      s.add(.rect(x0: -2, y0: -2, x1: 3, y1: floorY, corner: 0), roughPaint(tone(look, &rng), &rng))
    case 2:
      // A bookshelf: rows of thin spines in many colours.
      let x0 = rng.float(-0.2...0.6)
      let x1 = x0 + rng.float(0.3...0.6)
      var y = rng.float(0.1...0.25)
      s.fill(
        .rect(x0: x0 - 0.02, y0: y - 0.02, x1: x1 + 0.02, y1: floorY, corner: 0),
        tone(look, &rng).scaled(0.5))
      while y < floorY - 0.1 {
        let rowH = rng.float(0.1...0.14)
        var x = x0
        while x < x1 {
          let w = rng.float(0.012...0.03)
          let h = rowH * rng.float(0.6...0.9)
          s.fill(
            .rect(x0: x, y0: y + rowH - h, x1: x + w, y1: y + rowH, corner: 0), tone(look, &rng))
          x += w + rng.float(0...0.006)
        }
        y += rowH + 0.015
      }
    default:
      // A wall of small pictures and plants.
      for _ in 0..<rng.int(in: 5...12) {
        let px = rng.float(-0.05...1.05)
        let py = rng.float(0.05...(floorY - 0.15))
        let w = rng.float(0.04...0.1)
        let h = rng.float(0.04...0.1)
        s.fill(
          .rect(x0: px - 0.008, y0: py - 0.008, x1: px + w + 0.008, y1: py + h + 0.008, corner: 0),
          tone(look, &rng).scaled(0.4))
        s.add(
          .rect(x0: px, y0: py, x1: px + w, y1: py + h, corner: 0),
          roughPaint(tone(look, &rng), &rng))
      }
      for _ in 0..<rng.int(in: 0...2) {
        let px = rng.float(0...1)
        leaves(&s, look, x: px, y: floorY - 0.05, width: 0.12, height: 0.18, &rng)
      }
    }
  }

  /// Street clutter: brick fronts, a crowd of small passers-by, or street trees.
  static func streetClutter(
    _ s: inout SceneSketch, _ look: Look, roadY: Float, _ rng: inout SceneRandom
  ) {
    switch rng.int(in: 0...2) {
    case 0:
      let x0 = rng.float(-0.2...0.5)
      bricks(
        &s, look, x0: x0, y0: rng.float(0.2...0.45), x1: x0 + rng.float(0.4...0.8), y1: roadY, &rng)
    case 1:
      // A crowd: many small figures along the pavement.
      for _ in 0..<rng.int(in: 8...20) {
        let x = rng.float(-0.05...1.05)
        s.figure(
          x: x, baseY: roadY + rng.float(0...0.06), height: rng.float(0.1...0.18),
          color: tone(look, &rng).scaled(rng.float(0.4...1)))
      }
    default:
      for _ in 0..<rng.int(in: 2...4) {
        let tx = rng.float(-0.05...1.05)
        let h = rng.float(0.25...0.4)
        s.fill(
          .rect(x0: tx - 0.01, y0: roadY - h * 0.5, x1: tx + 0.01, y1: roadY + 0.02, corner: 0),
          Color(grey: 0.2))
        leaves(&s, look, x: tx, y: roadY - h * 0.5, width: h * 0.6, height: h * 0.5, &rng)
      }
    }
  }

  /// A leaf colour for the look: greens and autumn hues (any hue when colourful, none when grey).
  static func foliage(_ look: Look, _ rng: inout SceneRandom) -> Color {
    switch look {
    case .colourful: return rng.color(hue: 0...360, saturation: 0.5...0.9, value: 0.5...0.9)
    case .grey: return rng.color(hue: 0...360, saturation: 0...0.1, value: 0.3...0.7)
    case .dark: return rng.color(hue: 60...160, saturation: 0.3...0.7, value: 0.15...0.4)
    default: return rng.color(hue: 30...150, saturation: 0.35...0.75, value: 0.3...0.75)
    }
  }

  /// Many small leaves (discs of a few shades) filling an ellipse centred at (`x`, `y`).
  static func leaves(
    _ s: inout SceneSketch, _ look: Look, x: Float, y: Float, width: Float, height: Float,
    _ rng: inout SceneRandom
  ) {
    let base = foliage(look, &rng)
    let count = rng.int(in: 25...60)
    for _ in 0..<count {
      // Uniform over the ellipse, densest where the crown is.
      let u = rng.float(-1...1)
      let v = rng.float(-1...1)
      guard u * u + v * v <= 1 else { continue }
      s.fill(
        .circle(x: x + u * width / 2, y: y + v * height / 2, r: rng.float(0.008...0.02)),
        base.scaled(rng.float(0.55...1.25)))
    }
  }

  /// A brick wall: rows of small bricks in shades of one colour over darker mortar.
  static func bricks(
    _ s: inout SceneSketch, _ look: Look, x0: Float, y0: Float, x1: Float, y1: Float,
    _ rng: inout SceneRandom
  ) {
    let brick =
      look == .colourful || look == .grey
      ? tone(look, &rng) : rng.color(hue: 5...30, saturation: 0.3...0.65, value: 0.35...0.8)
    s.fill(.rect(x0: x0, y0: y0, x1: x1, y1: y1, corner: 0), brick.scaled(0.45))
    let rowH = rng.float(0.03...0.05)
    let brickW = rowH * rng.float(2...2.6)
    var y = y0
    var row = 0
    while y < y1 {
      var x = x0 - (row % 2 == 0 ? 0 : brickW / 2)
      while x < x1 {
        s.fill(
          .rect(
            x0: max(x, x0), y0: y, x1: min(x + brickW - 0.006, x1), y1: min(y + rowH - 0.006, y1),
            corner: 0),
          brick.scaled(rng.float(0.75...1.15)))
        x += brickW
      }
      y += rowH
      row += 1
    }
  }
}
