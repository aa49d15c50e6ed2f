import LeamojiCore

/// Turns a `ScenePlan` into pixels: paint the layers, light them, meter the exposure, develop.
enum Renderer {
  /// Renders `plan` at `size` seen by `camera` at `time` seconds. `grainSeed` picks the film
  /// grain pattern (a clip changes it every frame so the grain dances, as on film).
  static func render(
    _ plan: ScenePlan, size: PixelSize, camera: SceneCamera, time: Double, grainSeed: UInt32
  ) -> RGBImage {
    let exposure = meterExposure(plan, aspect: Double(size.width) / Double(size.height))
    let canvas = paint(
      plan, viewport: Viewport(size: size, camera: camera), camera: camera, time: time)
    return Finishing.develop(
      canvas, plan: plan, flicker: plan.flickerSignal(at: time), exposure: exposure,
      grainSeed: grainSeed)
  }

  /// Paints every layer of `plan` onto a fresh canvas.
  static func paint(_ plan: ScenePlan, viewport: Viewport, camera: SceneCamera, time: Double)
    -> Canvas
  {
    var canvas = Canvas(viewport: viewport)
    let signal = plan.flickerSignal(at: time)
    let panX = Float(camera.centerX - 0.5)
    let panY = Float(camera.centerY - 0.5)
    for layer in plan.layers {
      let (mx, my) = layer.motion.offset(at: time)
      let follow = 1 - layer.parallax
      canvas.draw(
        layer, dx: mx + panX * follow, dy: my + panY * follow, gain: 1 - layer.flicker * signal)
    }
    return canvas
  }

  /// The exposure that brings the scene's mean brightness to its grade's key, metered on a
  /// small render with the standard camera at time 0. Metering on a fixed reference (rather
  /// than on each frame) keeps a clip's exposure steady, so flicker and pans stay visible, and
  /// makes the result nearly independent of the output size.
  static func meterExposure(_ plan: ScenePlan, aspect: Double) -> Float {
    let h = 24
    let w = min(max(Int((24 * aspect).rounded()), 8), 96)
    let camera = SceneCamera.standard
    let canvas = paint(
      plan, viewport: Viewport(size: PixelSize(width: w, height: h), camera: camera),
      camera: camera, time: 0)
    let mean = Finishing.meter(canvas, plan: plan)
    return min(max(plan.grade.key / max(mean, 1e-3), 0.15), 6)
  }
}
