import LeamojiCore
/// How a shape is filled: flat colours, gradients and procedural textures.
///
/// Textures are evaluated in the layer's own world coordinates, so stripes, checks and noise
/// keep their scale at every output size and travel with a moving shape. Stripes and checks are
/// anti-aliased over one pixel (`pixel` is the world size of a pixel).
enum Paint: Sendable {
  /// One colour.
  case solid(Color)
  /// From `a` at point (ax, ay) to `b` at (bx, by); `invLength2` caches 1 / |b - a|^2.
  case linear(Color, Color, ax: Float, ay: Float, dx: Float, dy: Float, invLength2: Float)
  /// From `inner` at the centre to `outer` at radius `r` and beyond (quadratic falloff).
  case radial(inner: Color, outer: Color, x: Float, y: Float, r: Float)
  /// Bands of `b` (a `duty` fraction of each period) over `a`, across the direction (cos, sin).
  case stripes(Color, Color, cos: Float, sin: Float, period: Float, duty: Float)
  /// A checkerboard with square cells of side `period`.
  case checks(Color, Color, period: Float)
  /// Smooth value noise between two colours, features about `1 / scale` across.
  case noise(Color, Color, scale: Float, seed: UInt32)

  /// A linear gradient between two points.
  static func gradient(_ a: Color, _ b: Color, from: (Float, Float), to: (Float, Float)) -> Paint {
    let dx = to.0 - from.0
    let dy = to.1 - from.1
    let l2 = max(dx * dx + dy * dy, 1e-8)
    return .linear(a, b, ax: from.0, ay: from.1, dx: dx, dy: dy, invLength2: 1 / l2)
  }

  /// A vertical gradient from `top` at `y0` to `bottom` at `y1`.
  static func vertical(_ top: Color, _ bottom: Color, _ y0: Float, _ y1: Float) -> Paint {
    gradient(top, bottom, from: (0, y0), to: (0, y1))
  }

  /// Stripes at `degrees` (0 = vertical bands, 90 = horizontal bands).
  static func stripes(_ a: Color, _ b: Color, degrees: Float, period: Float, duty: Float = 0.5)
    -> Paint
  {
    let rad = Double(degrees) * PortableMath.pi / 180
    return .stripes(
      a, b, cos: Float(PortableMath.sceneCos(rad)), sin: Float(PortableMath.sceneSin(rad)),
      period: period, duty: duty)
  }

  /// The colour at world point (`x`, `y`).
  @inline(__always)
  func color(_ x: Float, _ y: Float, pixel: Float) -> Color {
    switch self {
    case .solid(let c):
      return c
    case .linear(let a, let b, let ax, let ay, let dx, let dy, let inv):
      let t = min(max(((x - ax) * dx + (y - ay) * dy) * inv, 0), 1)
      return a.mixed(with: b, t)
    case .radial(let inner, let outer, let cx, let cy, let r):
      let ex = x - cx
      let ey = y - cy
      let t = min((ex * ex + ey * ey) / (r * r), 1)
      return inner.mixed(with: outer, t)
    case .stripes(let a, let b, let c, let s, let period, let duty):
      let u = x * c + y * s
      var f = u / period
      f -= fastFloor(f)
      let w = duty * period
      let along = f * period
      let d = along < w ? -min(along, w - along) : min(along - w, period - along)
      let t = min(max(0.5 - d / pixel, 0), 1)
      return a.mixed(with: b, t)
    case .checks(let a, let b, let period):
      let sx = Paint.squareWave(x / period, halfWidth: 0.5 * pixel / period)
      let sy = Paint.squareWave(y / period, halfWidth: 0.5 * pixel / period)
      return a.mixed(with: b, 0.5 + 0.5 * sx * sy)
    case .noise(let a, let b, let scale, let seed):
      return a.mixed(with: b, valueNoise(x * scale, y * scale, seed: seed))
    }
  }

  /// For paints that do not change along a row (flat colours, vertical gradients): the colour
  /// as a function of y, so the rasteriser can evaluate it once per row.
  var rowColor: ((Float) -> Color)? {
    switch self {
    case .solid(let c):
      return { _ in c }
    case .linear(let a, let b, _, let ay, let dx, let dy, let inv) where dx == 0:
      return { y in a.mixed(with: b, min(max((y - ay) * dy * inv, 0), 1)) }
    default:
      return nil
    }
  }

  /// +1 on the first half of each unit period and -1 on the second, smoothed over `halfWidth`.
  @inline(__always)
  private static func squareWave(_ u: Float, halfWidth: Float) -> Float {
    var f = u - fastFloor(u)
    let sign: Float = f < 0.5 ? 1 : -1
    if f >= 0.5 { f -= 0.5 }
    let edge = min(f, 0.5 - f)
    return sign * min(edge / max(halfWidth, 1e-6), 1)
  }
}

/// Smooth 2-D value noise in 0...1: hashed lattice values, smoothstep-interpolated.
/// Integer hashing only, so it is identical everywhere.
@inline(__always)
func valueNoise(_ x: Float, _ y: Float, seed: UInt32) -> Float {
  let fx = fastFloor(x)
  let fy = fastFloor(y)
  let ix = roundToInt32(fx)
  let iy = roundToInt32(fy)
  var tx = x - fx
  var ty = y - fy
  tx = tx * tx * (3 - 2 * tx)
  ty = ty * ty * (3 - 2 * ty)
  let v00 = latticeValue(ix, iy, seed)
  let v10 = latticeValue(ix &+ 1, iy, seed)
  let v01 = latticeValue(ix, iy &+ 1, seed)
  let v11 = latticeValue(ix &+ 1, iy &+ 1, seed)
  let top = v00 + (v10 - v00) * tx
  let bottom = v01 + (v11 - v01) * tx
  return top + (bottom - top) * ty
}

/// A pseudo-random value in 0..<1 for an integer lattice point.
@inline(__always)
func latticeValue(_ x: Int32, _ y: Int32, _ seed: UInt32) -> Float {
  Float(hash32(UInt32(bitPattern: x), UInt32(bitPattern: y), seed) >> 8) * (1.0 / 16_777_216.0)
}

/// A 32-bit integer hash of three values (used for noise and film grain).
@inline(__always)
func hash32(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
  var h = a &* 0x8DA6_B343
  h ^= b &* 0xD816_3841
  h ^= c &* 0xCB1A_B31F
  h ^= h >> 16
  h &*= 0x7FEB_352D
  h ^= h >> 15
  h &*= 0x846C_A68B
  h ^= h >> 16
  return h
}
