/// A builder the mood composers use to assemble a `ScenePlan` from layers and lights, with a
/// shared vocabulary of scene elements (skies, hills, trees, rooms, windows, figures ...)
/// defined in the `Elements+*.swift` files.
struct SceneSketch {
  var layers: [Layer] = []
  var lights: [Light] = []

  /// Appends a layer.
  mutating func add(
    _ shape: Shape, _ paint: Paint, opacity: Float = 1, softness: Float = 0, emission: Float = 0,
    blend: BlendMode = .normal, motion: Motion = .still, parallax: Float = 1, flicker: Float = 0
  ) {
    layers.append(
      Layer(
        shape: shape, paint: paint, opacity: opacity, softness: softness, emission: emission,
        blend: blend, motion: motion, parallax: parallax, flicker: flicker))
  }

  /// Appends a layer filled with one colour.
  mutating func fill(
    _ shape: Shape, _ color: Color, opacity: Float = 1, softness: Float = 0, emission: Float = 0,
    blend: BlendMode = .normal, motion: Motion = .still, parallax: Float = 1, flicker: Float = 0
  ) {
    add(
      shape, .solid(color), opacity: opacity, softness: softness, emission: emission, blend: blend,
      motion: motion, parallax: parallax, flicker: flicker)
  }

  /// Adds a point light.
  mutating func light(
    x: Float, y: Float, radius: Float, color: Color, haze: Float = 0, flicker: Float = 0
  ) {
    lights.append(Light(x: x, y: y, radius: radius, color: color, haze: haze, flicker: flicker))
  }

  /// A soft additive glow disc (halo around a lamp, a firework, a fairy light).
  mutating func glow(
    x: Float, y: Float, r: Float, color: Color, strength: Float, motion: Motion = .still,
    parallax: Float = 1, flicker: Float = 0
  ) {
    add(
      .circle(x: x, y: y, r: r),
      .radial(inner: color.scaled(strength), outer: .black, x: x, y: y, r: r),
      blend: .add, motion: motion, parallax: parallax, flicker: flicker)
  }

  /// A soft contact shadow under an object (multiplied, so it darkens whatever is below).
  mutating func contactShadow(x: Float, y: Float, width: Float, darkness: Float, softness: Float) {
    fill(
      .ellipse(x: x, y: y, rx: width / 2, ry: width * 0.09), Color(grey: 1 - darkness),
      softness: softness, blend: .multiply)
  }

  /// The finished plan.
  func plan(grade: Grade, variant: String, rng: inout SceneRandom) -> ScenePlan {
    ScenePlan(
      layers: layers, lights: lights, grade: grade, variant: variant,
      noiseSeed: UInt32(truncatingIfNeeded: rng.next()))
  }
}

extension SceneRandom {
  /// A gentle drift-and-bob for elements that move in clips.
  mutating func drift(speed: Float, bob: Float = 0, frequency: ClosedRange<Float> = 0.15...0.4)
    -> Motion
  {
    let angleSign: Float = chance(0.5) ? 1 : -1
    return Motion(
      vx: angleSign * speed * float(0.5...1), vy: 0, bobX: bob * float(0.3...1),
      bobY: bob * float(0.3...1), frequency: float(frequency), phase: float(0...6.28))
  }
}
