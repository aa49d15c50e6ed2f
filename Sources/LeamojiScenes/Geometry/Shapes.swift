import LeamojiCore

/// Geometry of scene elements as signed distance functions in world coordinates.
///
/// World coordinates: y runs from 0 (top of the frame) to 1 (bottom); x uses the same unit and
/// the frame is centred on x = 0.5, so a square frame shows x in 0...1 and a 16:9 frame shows
/// about -0.39...1.39. Because shapes are described in these units, a scene keeps its
/// composition at any pixel size. A signed distance (negative inside) gives anti-aliased,
/// optionally soft edges for free.
enum Shape: Sendable {
  /// The whole plane (backgrounds).
  case plane
  /// A disc.
  case circle(x: Float, y: Float, r: Float)
  /// An axis-aligned ellipse (approximate distance, exact on the outline).
  case ellipse(x: Float, y: Float, rx: Float, ry: Float)
  /// An axis-aligned rectangle with optionally rounded corners.
  case rect(x0: Float, y0: Float, x1: Float, y1: Float, corner: Float)
  /// A thick line segment with round ends (branches, strings, poles, lightning).
  case capsule(ax: Float, ay: Float, bx: Float, by: Float, r: Float)
  /// A ring between two radii (rainbows, halos).
  case ring(x: Float, y: Float, r: Float, thickness: Float)
  /// A convex polygon (triangles, roofs, trees, perspective walls).
  case polygon(ConvexPolygon)
  /// Everything below a wavy horizon line (hills, dunes, waves).
  case ridge(Ridge)

  /// Signed distance from (`x`, `y`) to the outline: negative inside, in world units.
  @inline(__always)
  func distance(_ x: Float, _ y: Float) -> Float {
    switch self {
    case .plane:
      return -1
    case .circle(let cx, let cy, let r):
      let dx = x - cx
      let dy = y - cy
      return (dx * dx + dy * dy).squareRoot() - r
    case .ellipse(let cx, let cy, let rx, let ry):
      let dx = (x - cx) / rx
      let dy = (y - cy) / ry
      return ((dx * dx + dy * dy).squareRoot() - 1) * min(rx, ry)
    case .rect(let x0, let y0, let x1, let y1, let c):
      let qx = abs(x - (x0 + x1) * 0.5) - (x1 - x0) * 0.5 + c
      let qy = abs(y - (y0 + y1) * 0.5) - (y1 - y0) * 0.5 + c
      let ox = max(qx, 0)
      let oy = max(qy, 0)
      return (ox * ox + oy * oy).squareRoot() + min(max(qx, qy), 0) - c
    case .capsule(let ax, let ay, let bx, let by, let r):
      let px = x - ax
      let py = y - ay
      let vx = bx - ax
      let vy = by - ay
      let len2 = vx * vx + vy * vy
      let h = len2 > 0 ? min(max((px * vx + py * vy) / len2, 0), 1) : 0
      let dx = px - vx * h
      let dy = py - vy * h
      return (dx * dx + dy * dy).squareRoot() - r
    case .ring(let cx, let cy, let r, let t):
      let dx = x - cx
      let dy = y - cy
      return abs((dx * dx + dy * dy).squareRoot() - r) - t * 0.5
    case .polygon(let poly):
      return poly.distance(x, y)
    case .ridge(let ridge):
      return ridge.height(at: x) - y
    }
  }

  /// An axis-aligned box containing the shape: (minX, minY, maxX, maxY).
  var bounds: (Float, Float, Float, Float) {
    let far: Float = 1e4
    switch self {
    case .plane:
      return (-far, -far, far, far)
    case .circle(let x, let y, let r):
      return (x - r, y - r, x + r, y + r)
    case .ellipse(let x, let y, let rx, let ry):
      return (x - rx, y - ry, x + rx, y + ry)
    case .rect(let x0, let y0, let x1, let y1, _):
      return (x0, y0, x1, y1)
    case .capsule(let ax, let ay, let bx, let by, let r):
      return (min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r)
    case .ring(let x, let y, let r, let t):
      let o = r + t * 0.5
      return (x - o, y - o, x + o, y + o)
    case .polygon(let poly):
      return poly.bounds
    case .ridge(let ridge):
      return (-far, ridge.top, far, far)
    }
  }
}

/// A convex polygon stored as its edge lines, so the distance is one max over edges.
struct ConvexPolygon: Sendable {
  /// Per edge: outward unit normal (nx, ny) and offset c, with `nx*x + ny*y - c` the signed
  /// distance to that edge's line.
  private var edges: [(nx: Float, ny: Float, c: Float)] = []
  let bounds: (Float, Float, Float, Float)

  /// From corner points in either winding order; they must form a convex polygon.
  init(_ points: [(Float, Float)]) {
    precondition(points.count >= 3, "a polygon needs three corners")
    var area: Float = 0
    for i in points.indices {
      let (ax, ay) = points[i]
      let (bx, by) = points[(i + 1) % points.count]
      area += ax * by - bx * ay
    }
    let sign: Float = area >= 0 ? 1 : -1
    for i in points.indices {
      let (ax, ay) = points[i]
      let (bx, by) = points[(i + 1) % points.count]
      var nx = (by - ay) * sign
      var ny = -(bx - ax) * sign
      let len = (nx * nx + ny * ny).squareRoot()
      if len == 0 { continue }
      nx /= len
      ny /= len
      edges.append((nx, ny, nx * ax + ny * ay))
    }
    bounds = (
      points.map(\.0).min()!, points.map(\.1).min()!,
      points.map(\.0).max()!, points.map(\.1).max()!
    )
  }

  @inline(__always)
  func distance(_ x: Float, _ y: Float) -> Float {
    var d = -Float.greatestFiniteMagnitude
    for e in edges {
      d = max(d, e.nx * x + e.ny * y - e.c)
    }
    return d
  }
}

/// A horizon line `y = base + sum(amplitude * sin(frequency * x + phase))`; the shape is what
/// lies below it. Sines are evaluated once per pixel column by the rasteriser.
struct Ridge: Sendable {
  var base: Float
  var waves: [(amplitude: Float, frequency: Float, phase: Float)]

  /// The highest the line can reach (smallest y).
  var top: Float { base - waves.reduce(0) { $0 + abs($1.amplitude) } }

  /// The line's y at `x` (portable sine, so identical on every platform).
  func height(at x: Float) -> Float {
    var y = Double(base)
    for w in waves {
      y +=
        Double(w.amplitude)
        * PortableMath.sceneSin(Double(w.frequency) * Double(x) + Double(w.phase))
    }
    return Float(y)
  }
}
