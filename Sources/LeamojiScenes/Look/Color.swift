/// Colour maths for the scene generator.
///
/// Scenes are painted in floating point, display-referred RGB where 1 is "white paper";
/// values above 1 are allowed for self-lit things (lamps, windows, the sun) and are rolled off
/// by the tone curve at the end. `Float` is enough precision for 8-bit output, and only
/// `+ - * /` and `sqrt` touch it per pixel, so results are reproducible.
struct Color: Equatable, Sendable {
  var r: Float
  var g: Float
  var b: Float

  init(_ r: Float, _ g: Float, _ b: Float) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// A grey of lightness `v`.
  init(grey v: Float) {
    self.init(v, v, v)
  }

  static let black = Color(0, 0, 0)
  static let white = Color(1, 1, 1)

  /// From hue in degrees (any value, wrapped), saturation and value in 0...1.
  static func hsv(_ hue: Float, _ saturation: Float, _ value: Float) -> Color {
    var h = hue.truncatingRemainder(dividingBy: 360)
    if h < 0 { h += 360 }
    let s = min(max(saturation, 0), 1)
    let v = max(value, 0)
    let c = v * s
    let hp = h / 60
    let sector = min(Int(hp), 5)
    let f = hp - Float(sector)
    let x = c * (sector % 2 == 0 ? f : 1 - f)
    let m = v - c
    switch sector {
    case 0: return Color(c + m, x + m, m)
    case 1: return Color(x + m, c + m, m)
    case 2: return Color(m, c + m, x + m)
    case 3: return Color(m, x + m, c + m)
    case 4: return Color(x + m, m, c + m)
    default: return Color(c + m, m, x + m)
    }
  }

  /// Rec. 601 luma: the brightness a viewer perceives, used for statistics and grading.
  var luminance: Float { 0.299 * r + 0.587 * g + 0.114 * b }

  /// Linear blend: `self` at t = 0, `other` at t = 1.
  func mixed(with other: Color, _ t: Float) -> Color {
    Color(r + (other.r - r) * t, g + (other.g - g) * t, b + (other.b - b) * t)
  }

  /// Every channel multiplied by `k` (brighter or darker, same hue).
  func scaled(_ k: Float) -> Color {
    Color(r * k, g * k, b * k)
  }

  /// Channel-wise product (a coloured light on a coloured surface).
  func times(_ other: Color) -> Color {
    Color(r * other.r, g * other.g, b * other.b)
  }
}

extension SceneRandom {
  /// A random colour in an HSV box: hue in degrees, saturation and value in 0...1.
  mutating func color(
    hue: ClosedRange<Float>, saturation: ClosedRange<Float>, value: ClosedRange<Float>
  ) -> Color {
    let h = float(hue.lowerBound, hue.upperBound)
    let s = float(saturation.lowerBound, saturation.upperBound)
    let v = float(value.lowerBound, value.upperBound)
    return Color.hsv(h, s, v)
  }

  /// A random `Float` in a closed range (drawn as `Double`, so it is portable).
  mutating func float(_ range: ClosedRange<Float>) -> Float {
    float(range.lowerBound, range.upperBound)
  }
}
