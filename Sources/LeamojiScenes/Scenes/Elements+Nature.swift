import LeamojiCore
/// Outdoor scene elements: skies, sun and moon, clouds, hills, trees, flowers, rainbows, fog,
/// lightning. All positions and sizes are in world units (frame height = 1).
extension SceneSketch {
  /// A self-lit sky filling the frame, graded from `top` (above the frame) to `horizon` at
  /// `horizonY`. Far away, so camera pans barely move it.
  mutating func sky(top: Color, horizon: Color, horizonY: Float) {
    add(.plane, .vertical(top, horizon, -0.1, horizonY), emission: 1, parallax: 0.1)
  }

  /// Small self-lit dots in the upper part of a night sky.
  mutating func stars(_ rng: inout SceneRandom, count: Int, color: Color, maxY: Float) {
    for _ in 0..<count {
      let r = rng.float(0.002...0.005)
      fill(
        .circle(x: rng.float(-0.5...1.5), y: rng.float(-0.05...maxY), r: r),
        color.scaled(rng.float(0.5...1.3)), emission: 1, parallax: 0.05)
    }
  }

  /// A bright disc (sun or moon) with a halo; a crescent when `bite` is given (the colour of
  /// the sky that covers part of it).
  mutating func celestial(
    x: Float, y: Float, r: Float, color: Color, halo: Float, bite: Color? = nil,
    biteOffset: Float = 0.35
  ) {
    glow(x: x, y: y, r: r * 4.5, color: color, strength: halo, parallax: 0.1)
    fill(.circle(x: x, y: y, r: r), color, emission: 1, parallax: 0.1)
    if let bite {
      fill(
        .circle(x: x + r * biteOffset, y: y - r * 0.2, r: r * 0.92), bite, softness: r * 0.15,
        emission: 1, parallax: 0.1)
    }
  }

  /// A puffy cloud of overlapping discs on a flat base, drifting sideways in clips.
  mutating func cloud(
    _ rng: inout SceneRandom, x: Float, y: Float, width: Float, color: Color, opacity: Float = 1,
    softness: Float = 0.01, emission: Float = 1, speed: Float = 0.012
  ) {
    let motion = Motion(vx: speed * rng.float(0.6...1.2), vy: 0)
    let puffs = rng.int(in: 3...6)
    for k in 0..<puffs {
      let t = (Float(k) + 0.5) / Float(puffs)
      let px = x - width / 2 + t * width
      let bulge = 1 - abs(t - 0.5) * 1.2
      let r = width * rng.float(0.14...0.22) * (0.6 + bulge * 0.6)
      fill(
        .circle(x: px, y: y - r * 0.35, r: r), color.scaled(rng.float(0.94...1.02)),
        opacity: opacity,
        softness: softness, emission: emission, motion: motion, parallax: 0.3)
    }
    fill(
      .rect(
        x0: x - width / 2, y0: y - width * 0.1, x1: x + width / 2, y1: y + width * 0.06,
        corner: width * 0.06),
      color, opacity: opacity, softness: softness, emission: emission, motion: motion, parallax: 0.3
    )
  }

  /// Rolling hills: everything below a wavy line around `base`. Returns the ridge so that
  /// trees and houses can be stood on it.
  @discardableResult
  mutating func hills(
    _ rng: inout SceneRandom, base: Float, amplitude: Float, paint: Paint, parallax: Float,
    softness: Float = 0, emission: Float = 0
  ) -> Ridge {
    var waves: [(amplitude: Float, frequency: Float, phase: Float)] = []
    let count = rng.int(in: 2...3)
    for k in 0..<count {
      let share: Float = k == 0 ? 0.6 : 0.4 / Float(count - 1)
      waves.append((amplitude * share, rng.float(2.5...5) * Float(k + 1), rng.float(0...6.28)))
    }
    let ridge = Ridge(base: base, waves: waves)
    add(.ridge(ridge), paint, softness: softness, emission: emission, parallax: parallax)
    return ridge
  }

  /// A conifer: stacked triangles on a short trunk, standing on `baseY`.
  mutating func pineTree(
    x: Float, baseY: Float, height h: Float, color: Color, trunk: Color, parallax: Float = 1
  ) {
    let trunkW = h * 0.07
    fill(
      .rect(
        x0: x - trunkW / 2, y0: baseY - h * 0.2, x1: x + trunkW / 2, y1: baseY + 0.01, corner: 0),
      trunk, parallax: parallax)
    let tiers = 3
    for k in 0..<tiers {
      let t = Float(k) / Float(tiers)
      let bottom = baseY - h * 0.12 - t * h * 0.28
      let top = bottom - h * 0.48
      let halfW = h * (0.3 - t * 0.07)
      fill(
        .polygon(ConvexPolygon([(x - halfW, bottom), (x + halfW, bottom), (x, top)])), color,
        parallax: parallax)
    }
  }

  /// A broad-leaved tree: a trunk under a cluster of discs.
  mutating func roundTree(
    _ rng: inout SceneRandom, x: Float, baseY: Float, height h: Float, crown: Color, trunk: Color,
    softness: Float = 0, parallax: Float = 1
  ) {
    let trunkW = h * rng.float(0.08...0.12)
    fill(
      .rect(
        x0: x - trunkW / 2, y0: baseY - h * 0.55, x1: x + trunkW / 2, y1: baseY + 0.005,
        corner: trunkW * 0.2), trunk, parallax: parallax)
    let cy = baseY - h * 0.68
    let r = h * 0.3
    let blobs = rng.int(in: 3...5)
    for k in 0..<blobs {
      let a = Double(k) / Double(blobs) * PortableMath.twoPi + rng.uniform(0, 1)
      let ox = Float(PortableMath.sceneCos(a)) * r * 0.5
      let oy = Float(PortableMath.sceneSin(a)) * r * 0.35
      fill(
        .circle(x: x + ox, y: cy + oy, r: r * rng.float(0.6...0.8)),
        crown.scaled(rng.float(0.9...1.08)), softness: softness, parallax: parallax)
    }
  }

  /// A leafless, crooked tree drawn as recursive branches (capsules).
  mutating func deadTree(
    _ rng: inout SceneRandom, x: Float, baseY: Float, height h: Float, color: Color,
    parallax: Float = 1
  ) {
    branch(
      &rng, x: x, y: baseY, angle: -PortableMath.pi / 2 + rng.uniform(-0.15, 0.15),
      length: h * 0.45, width: h * 0.045, depth: 4, color: color, parallax: parallax)
  }

  private mutating func branch(
    _ rng: inout SceneRandom, x: Float, y: Float, angle: Double, length: Float, width: Float,
    depth: Int,
    color: Color, parallax: Float
  ) {
    let ex = x + Float(PortableMath.sceneCos(angle)) * length
    let ey = y + Float(PortableMath.sceneSin(angle)) * length
    fill(.capsule(ax: x, ay: y, bx: ex, by: ey, r: width), color, parallax: parallax)
    guard depth > 0 else { return }
    let children = rng.int(in: 2...3)
    for _ in 0..<children {
      let a = angle + rng.uniform(-0.9, 0.9)
      branch(
        &rng, x: ex, y: ey, angle: a, length: length * rng.float(0.55...0.75), width: width * 0.62,
        depth: depth - 1, color: color, parallax: parallax)
    }
  }

  /// Small coloured blossoms scattered over a region of the ground.
  mutating func flowers(
    _ rng: inout SceneRandom, count: Int, x: ClosedRange<Float>, y: ClosedRange<Float>
  ) {
    for _ in 0..<count {
      let fx = rng.float(x)
      let fy = rng.float(y)
      let r = 0.006 + 0.012 * (fy - y.lowerBound) / max(y.upperBound - y.lowerBound, 0.01)
      fill(.circle(x: fx, y: fy, r: r), Palette.happyAccent(&rng))
      fill(.circle(x: fx, y: fy, r: r * 0.35), Color(1, 0.9, 0.3))
    }
  }

  /// A rainbow: six soft coloured rings centred below the horizon.
  mutating func rainbow(x: Float, y: Float, r: Float, width: Float, opacity: Float) {
    let colors = [
      Color(0.95, 0.2, 0.2), Color(1, 0.6, 0.15), Color(1, 0.95, 0.3),
      Color(0.3, 0.85, 0.35), Color(0.3, 0.5, 1), Color(0.6, 0.35, 0.9),
    ]
    let band = width / Float(colors.count)
    for (k, c) in colors.enumerated() {
      fill(
        .ring(x: x, y: y, r: r - Float(k) * band, thickness: band * 1.05), c, opacity: opacity,
        softness: band * 0.4, emission: 1, parallax: 0.15)
    }
  }

  /// A horizontal band of glowing mist.
  mutating func fogBand(y: Float, height: Float, color: Color, strength: Float, speed: Float = 0.01)
  {
    add(
      .rect(x0: -2, y0: y - height / 2, x1: 3, y1: y + height / 2, corner: 0),
      .solid(color.scaled(strength)), softness: height * 0.8, blend: .add,
      motion: Motion(vx: speed, vy: 0, bobX: 0, bobY: height * 0.1, frequency: 0.1, phase: 0))
  }

  /// A jagged lightning bolt from (`x`, `y0`) down to `y1`, self-lit, with a glow.
  mutating func lightning(_ rng: inout SceneRandom, x: Float, y0: Float, y1: Float, color: Color) {
    var px = x
    var py = y0
    let steps = rng.int(in: 6...9)
    let dy = (y1 - y0) / Float(steps)
    for _ in 0..<steps {
      let nx = px + rng.float(-0.06...0.06)
      let ny = py + dy * rng.float(0.7...1.2)
      fill(.capsule(ax: px, ay: py, bx: nx, by: ny, r: 0.004), color, emission: 1, parallax: 0.2)
      add(
        .capsule(ax: px, ay: py, bx: nx, by: ny, r: 0.02), .solid(color.scaled(0.25)),
        softness: 0.03, blend: .add, parallax: 0.2)
      px = nx
      py = ny
    }
  }

  /// Gravestones: rounded-top slabs standing on `baseY`.
  mutating func tombstones(_ rng: inout SceneRandom, count: Int, baseY: Float, color: Color) {
    for _ in 0..<count {
      let x = rng.float(-0.4...1.4)
      let w = rng.float(0.04...0.07)
      let h = w * rng.float(1.2...1.8)
      let y = baseY + rng.float(0...0.08)
      fill(
        .rect(x0: x - w / 2, y0: y - h, x1: x + w / 2, y1: y, corner: w * 0.45),
        color.scaled(rng.float(0.8...1.3)))
    }
  }
}
