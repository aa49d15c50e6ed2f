/// Built and indoor scene elements: rooms, windows, houses, city blocks, furniture, figures,
/// party decorations and corridors. World units as everywhere (frame height = 1).
extension SceneSketch {
  /// Back wall above `floorY` and floor below it.
  mutating func room(wall: Paint, floor: Paint, floorY: Float) {
    add(.plane, wall)
    add(.rect(x0: -2, y0: floorY, x1: 3, y1: 2, corner: 0), floor)
    fill(
      .rect(x0: -2, y0: floorY - 0.012, x1: 3, y1: floorY, corner: 0), Color(grey: 0.5),
      opacity: 0.35)
  }

  /// A window: frame, glass (often self-lit: the bright outside), and glazing bars.
  mutating func window(
    x0: Float, y0: Float, x1: Float, y1: Float, glass: Paint, glassEmission: Float, frame: Color,
    bars: Int = 1, frameWidth: Float = 0.012, flicker: Float = 0
  ) {
    fill(
      .rect(
        x0: x0 - frameWidth, y0: y0 - frameWidth, x1: x1 + frameWidth, y1: y1 + frameWidth,
        corner: 0), frame)
    add(
      .rect(x0: x0, y0: y0, x1: x1, y1: y1, corner: 0), glass, emission: glassEmission,
      flicker: flicker)
    let barW = frameWidth * 0.6
    if bars >= 1 {
      let mx = (x0 + x1) / 2
      let my = (y0 + y1) / 2
      fill(.rect(x0: mx - barW / 2, y0: y0, x1: mx + barW / 2, y1: y1, corner: 0), frame)
      fill(.rect(x0: x0, y0: my - barW / 2, x1: x1, y1: my + barW / 2, corner: 0), frame)
    }
  }

  /// A small house: walls, pitched roof, door and two windows.
  mutating func house(
    x: Float, baseY: Float, width w: Float, wall: Color, roof: Color, door: Color,
    windowColor: Color,
    windowEmission: Float, parallax: Float = 1
  ) {
    let h = w * 0.7
    fill(
      .rect(x0: x - w / 2, y0: baseY - h, x1: x + w / 2, y1: baseY, corner: 0), wall,
      parallax: parallax)
    fill(
      .polygon(
        ConvexPolygon([
          (x - w * 0.6, baseY - h), (x + w * 0.6, baseY - h), (x, baseY - h - w * 0.45),
        ])), roof, parallax: parallax)
    fill(
      .rect(x0: x - w * 0.09, y0: baseY - h * 0.55, x1: x + w * 0.09, y1: baseY, corner: 0), door,
      parallax: parallax)
    for side: Float in [-1, 1] {
      let cx = x + side * w * 0.3
      fill(
        .rect(
          x0: cx - w * 0.1, y0: baseY - h * 0.75, x1: cx + w * 0.1, y1: baseY - h * 0.45, corner: 0),
        windowColor, emission: windowEmission, parallax: parallax)
    }
  }

  /// A block of flats: a slab with a grid of windows, some of them lit.
  mutating func building(
    _ rng: inout SceneRandom, x0: Float, x1: Float, top: Float, baseY: Float, color: Color,
    windowDark: Color, windowLit: Color, litFraction: Double, windowEmission: Float = 1,
    parallax: Float = 1
  ) {
    fill(.rect(x0: x0, y0: top, x1: x1, y1: baseY, corner: 0), color, parallax: parallax)
    let cell = rng.float(0.035...0.055)
    let cols = max(Int((x1 - x0) / cell), 1)
    let rows = max(Int((baseY - top - 0.03) / cell), 1)
    let cw = (x1 - x0) / Float(cols)
    for r in 0..<min(rows, 14) {
      for c in 0..<min(cols, 10) {
        let wx = x0 + (Float(c) + 0.25) * cw
        let wy = top + 0.02 + Float(r) * cell
        let lit = rng.chance(litFraction)
        fill(
          .rect(x0: wx, y0: wy, x1: wx + cw * 0.5, y1: wy + cell * 0.55, corner: 0),
          lit ? windowLit : windowDark, emission: lit ? windowEmission : 0, parallax: parallax)
      }
    }
  }

  /// A table or desk: a top on two legs.
  mutating func table(x: Float, y: Float, width w: Float, height h: Float, color: Color) {
    fill(.rect(x0: x - w / 2, y0: y - h, x1: x + w / 2, y1: y - h + 0.02, corner: 0.004), color)
    for side: Float in [-1, 1] {
      let lx = x + side * (w / 2 - 0.02)
      fill(.rect(x0: lx - 0.008, y0: y - h, x1: lx + 0.008, y1: y, corner: 0), color.scaled(0.8))
    }
  }

  /// A bookshelf with rows of books in the given colour family.
  mutating func shelf(
    _ rng: inout SceneRandom, x0: Float, y0: Float, x1: Float, y1: Float, wood: Color,
    book: (inout SceneRandom) -> Color
  ) {
    fill(.rect(x0: x0, y0: y0, x1: x1, y1: y1, corner: 0), wood)
    let rows = 3
    let rh = (y1 - y0) / Float(rows)
    for r in 0..<rows {
      var bx = x0 + 0.012
      let bottom = y0 + Float(r + 1) * rh - 0.008
      while bx < x1 - 0.025 {
        let bw = rng.float(0.01...0.022)
        let bh = rh * rng.float(0.6...0.85)
        fill(.rect(x0: bx, y0: bottom - bh, x1: bx + bw, y1: bottom, corner: 0), book(&rng))
        bx += bw + 0.002
      }
    }
  }

  /// A framed picture on a wall.
  mutating func picture(
    x: Float, y: Float, width w: Float, height h: Float, frame: Color, art: Paint
  ) {
    fill(
      .rect(
        x0: x - w / 2 - 0.01, y0: y - h / 2 - 0.01, x1: x + w / 2 + 0.01, y1: y + h / 2 + 0.01,
        corner: 0), frame)
    add(.rect(x0: x - w / 2, y0: y - h / 2, x1: x + w / 2, y1: y + h / 2, corner: 0), art)
  }

  /// A hanging lamp or bare bulb: a cord, a self-lit bulb, a glow and a real light.
  mutating func bulb(
    x: Float, y: Float, r: Float, color: Color, cord: Color, lightRadius: Float, intensity: Float,
    haze: Float, flicker: Float = 0
  ) {
    fill(.capsule(ax: x, ay: -0.2, bx: x, by: y - r, r: 0.003), cord)
    glow(x: x, y: y, r: r * 6, color: color, strength: haze, flicker: flicker)
    fill(.circle(x: x, y: y, r: r), color.scaled(1.6), emission: 1, flicker: flicker)
    light(
      x: x, y: y, radius: lightRadius, color: color.scaled(intensity), haze: 0, flicker: flicker)
  }

  /// A human silhouette (head, body, legs) standing on `baseY`.
  mutating func figure(
    x: Float, baseY: Float, height h: Float, color: Color, motion: Motion = .still
  ) {
    let headR = h * 0.075
    fill(.circle(x: x, y: baseY - h + headR, r: headR), color, motion: motion)
    let shoulderY = baseY - h + headR * 2.3
    let hipY = baseY - h * 0.45
    fill(
      .polygon(
        ConvexPolygon([
          (x - h * 0.12, shoulderY), (x + h * 0.12, shoulderY), (x + h * 0.1, hipY),
          (x - h * 0.1, hipY),
        ])),
      color, motion: motion)
    fill(
      .rect(x0: x - h * 0.1, y0: shoulderY, x1: x + h * 0.1, y1: hipY, corner: h * 0.03), color,
      motion: motion)
    for side: Float in [-1, 1] {
      fill(
        .capsule(
          ax: x + side * h * 0.05, ay: hipY, bx: x + side * h * 0.06, by: baseY - h * 0.02,
          r: h * 0.035), color, motion: motion)
      fill(
        .capsule(
          ax: x + side * h * 0.12, ay: shoulderY + h * 0.02, bx: x + side * h * 0.15,
          by: hipY + h * 0.05, r: h * 0.028), color, motion: motion)
    }
  }

  /// A balloon on a string with a soft highlight, bobbing in clips.
  mutating func balloon(_ rng: inout SceneRandom, x: Float, y: Float, r: Float, color: Color) {
    let motion = Motion(
      vx: 0, vy: -0.004, bobX: r * 0.25, bobY: r * 0.2, frequency: rng.float(0.2...0.45),
      phase: rng.float(0...6.28))
    fill(
      .capsule(
        ax: x, ay: y + r, bx: x + rng.float(-0.03...0.03), by: y + r + rng.float(0.15...0.3),
        r: 0.0025), Color(grey: 0.85), motion: motion)
    fill(.ellipse(x: x, y: y, rx: r, ry: r * 1.18), color, motion: motion)
    fill(
      .circle(x: x - r * 0.35, y: y - r * 0.45, r: r * 0.22), Color(1, 1, 1), opacity: 0.55,
      softness: r * 0.25, motion: motion)
  }

  /// Triangular party flags hanging from a sagging line between x0 and x1.
  mutating func bunting(_ rng: inout SceneRandom, x0: Float, x1: Float, y: Float, sag: Float) {
    let flags = rng.int(in: 7...12)
    for k in 0..<flags {
      let t0 = Float(k) / Float(flags)
      let t1 = (Float(k) + 0.8) / Float(flags)
      let ya = y + sag * 4 * t0 * (1 - t0)
      let yb = y + sag * 4 * t1 * (1 - t1)
      let xa = x0 + (x1 - x0) * t0
      let xb = x0 + (x1 - x0) * t1
      let tip = ((xa + xb) / 2, max(ya, yb) + (xb - xa) * 0.9)
      fill(.polygon(ConvexPolygon([(xa, ya), (xb, yb), tip])), Palette.happyAccent(&rng))
    }
  }

  /// A corridor seen from its middle: floor, ceiling and side walls in perspective around an
  /// end wall from (`ex0`, `ey0`) to (`ex1`, `ey1`).
  mutating func corridor(
    ex0: Float, ey0: Float, ex1: Float, ey1: Float, wall: Paint, floor: Paint, ceiling: Color,
    endWall: Color
  ) {
    add(.plane, .solid(ceiling))
    add(.polygon(ConvexPolygon([(-1.5, -0.6), (ex0, ey0), (ex0, ey1), (-1.5, 1.6)])), wall)
    add(.polygon(ConvexPolygon([(2.5, -0.6), (ex1, ey0), (ex1, ey1), (2.5, 1.6)])), wall)
    add(.polygon(ConvexPolygon([(-1.5, 1.6), (ex0, ey1), (ex1, ey1), (2.5, 1.6)])), floor)
    fill(.rect(x0: ex0, y0: ey0, x1: ex1, y1: ey1, corner: 0), endWall)
  }
}
