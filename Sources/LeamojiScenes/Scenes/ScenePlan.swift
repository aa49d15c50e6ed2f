import LeamojiCore
/// The resolution-independent description of one generated scene: what is drawn where, how it
/// is lit, how it is graded and how it moves. Composers build a plan from a seed; the renderer
/// turns a plan into pixels at any size, time and camera position.
struct ScenePlan: Sendable {
  /// Layers from back to front.
  var layers: [Layer] = []
  /// Point lights (the sun, lamps, the moon, a window's spill).
  var lights: [Light] = []
  /// Exposure, colour grade, tone curve, vignette and grain.
  var grade: Grade
  /// Name of the composition family, e.g. "sunny-meadow" (for debugging and documentation).
  var variant: String
  /// Seed for the plan's time-varying noise (flicker).
  var noiseSeed: UInt32 = 0

  /// The flicker signal in 0...1 at `time` (0 = full brightness): mostly calm, with
  /// irregular dips and fast stutters, like a failing bulb. Zero at time 0 so that stills and
  /// exposure metering see the lights at full strength.
  func flickerSignal(at time: Double) -> Float {
    if time <= 0 { return 0 }
    let slow = valueNoise(Float(time * 4.5), 0.5, seed: noiseSeed)
    let fast = latticeValue(
      Int32(truncatingIfNeeded: Int((time * 14).rounded(.down))), 7, noiseSeed)
    let dip = min(max((slow - 0.45) * 2.4, 0), 1)
    return dip * (0.45 + 0.55 * fast)
  }
}

/// How a layer's pixels combine with what is below.
enum BlendMode: Sendable {
  /// Paint over (alpha blending).
  case normal
  /// Add light (glows, fog, fireworks).
  case add
  /// Darken (soft shadows, grime).
  case multiply
}

/// Gentle movement for clips: a drift plus a sinusoidal bob, both in world units.
struct Motion: Sendable {
  var vx: Float = 0
  var vy: Float = 0
  var bobX: Float = 0
  var bobY: Float = 0
  var frequency: Float = 0
  var phase: Float = 0

  static let still = Motion()

  /// Displacement at `time` seconds.
  func offset(at time: Double) -> (Float, Float) {
    if bobX == 0 && bobY == 0 {
      return (vx * Float(time), vy * Float(time))
    }
    let angle = PortableMath.twoPi * Double(frequency) * time + Double(phase)
    let s = Float(PortableMath.sceneSin(angle))
    let c = Float(PortableMath.sceneCos(angle))
    return (vx * Float(time) + bobX * s, vy * Float(time) + bobY * c)
  }
}

/// One painted element.
struct Layer: Sendable {
  var shape: Shape
  var paint: Paint
  var opacity: Float = 1
  /// Extra edge blur in world units (0 = crisp, anti-aliased over one pixel).
  var softness: Float = 0
  /// 0 = a surface lit by the scene's lights; 1 = self-lit (its colour shows as painted).
  var emission: Float = 0
  var blend: BlendMode = .normal
  var motion: Motion = .still
  /// How strongly the layer follows camera pans: 1 = foreground, 0 = infinitely far (sky).
  var parallax: Float = 1
  /// How much the scene's flicker signal dims this layer (flickering bulbs), 0...1.
  var flicker: Float = 0
}

/// A soft point light with an inverse-square-like falloff and an optional visible halo.
struct Light: Sendable {
  var x: Float
  var y: Float
  /// Distance at which the light's contribution has halved.
  var radius: Float
  /// Colour times intensity.
  var color: Color
  /// Strength of the visible glow (atmospheric scatter) around the light.
  var haze: Float = 0
  /// How much the scene's flicker signal dims this light, 0...1.
  var flicker: Float = 0
}

/// The "camera and lab" settings that give a mood its look.
struct Grade: Sendable {
  /// Target mean scene brightness before the tone curve (the lighting "key").
  var key: Float
  /// Light falling everywhere (multiplies surface colours).
  var ambient: Color
  /// 1 keeps painted colours; above 1 is more vivid; below 1 more grey.
  var saturation: Float
  /// Per-channel multipliers (warm, cold, green, red casts).
  var tint: Color = .white
  /// Colour added to the shadows (split toning).
  var shadowTint: Color = .black
  /// Black level: 0 = true black, 0.1 = milky, soft shadows.
  var lift: Float
  /// Slope of the tone curve at the pivot: < 1 flat, > 1 punchy with crushed blacks.
  var contrast: Float
  /// Tone around which contrast turns.
  var pivot: Float = 0.4
  /// Darkening of the frame's corners, 0...1.
  var vignette: Float
  /// Where the vignette starts (0 = centre, 1 = corners).
  var vignetteStart: Float = 0.1
  /// Film grain amplitude in 8-bit levels.
  var grain: Float
}

/// Where the virtual camera looks: the world point at the frame's centre and a zoom factor
/// (1 = the frame is one world unit tall).
public struct SceneCamera: Equatable, Sendable {
  public var centerX: Double
  public var centerY: Double
  public var zoom: Double

  /// A camera looking at (`centerX`, `centerY`) with `zoom` (> 0).
  public init(centerX: Double = 0.5, centerY: Double = 0.5, zoom: Double = 1) {
    precondition(zoom > 0, "zoom must be positive")
    self.centerX = centerX
    self.centerY = centerY
    self.zoom = zoom
  }

  /// The framing every still scene uses.
  public static let standard = SceneCamera()
}
