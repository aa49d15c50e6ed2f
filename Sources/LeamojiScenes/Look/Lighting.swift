/// The scene's light at every pixel: ambient plus point lights (with halos), emission, glow
/// and the lens vignette.
///
/// Light and vignette vary smoothly, so on large frames they are computed on a grid of nodes
/// every few pixels and interpolated (exact per pixel up to 72 rows); the surface, emission and
/// glow stay per pixel.
struct Lighting {
  let viewport: Viewport
  /// Grid spacing in pixels.
  let step: Int
  let nodesX: Int
  let nodesY: Int
  /// Seven values per node: light r, g, b and halo r, g, b (both with the vignette applied),
  /// then the vignette itself.
  let nodes: [Float]

  init(plan: ScenePlan, viewport vp: Viewport, flicker: Float) {
    viewport = vp
    let s = max(1, vp.height / 72)
    step = s
    nodesX = (vp.width - 1 + s - 1) / s + 1
    nodesY = (vp.height - 1 + s - 1) / s + 1
    let lights = plan.lights.map { l in
      let g = 1 - l.flicker * flicker
      let r = max(l.radius, 1e-4)
      return (
        x: l.x, y: l.y, inv: 1 / (r * r), invHalo: 1 / (r * r * 0.12), c: l.color.scaled(g),
        h: l.haze
      )
    }
    let ambient = plan.grade.ambient
    let vignette = plan.grade.vignette
    let start = plan.grade.vignetteStart
    let invSpan = 1 / max(1 - start, 1e-3)
    let halfW = Float(vp.width) / 2
    let halfH = Float(vp.height) / 2
    var nodes = [Float](repeating: 0, count: nodesX * nodesY * 7)
    for gy in 0..<nodesY {
      let py = min(gy * s, vp.height - 1)
      let wy = vp.originY + Float(py) * vp.step
      let ny = (Float(py) + 0.5 - halfH) / halfH
      for gx in 0..<nodesX {
        let px = min(gx * s, vp.width - 1)
        let wx = vp.originX + Float(px) * vp.step
        var light = ambient
        var halo = Color.black
        for l in lights {
          let dx = wx - l.x
          let dy = wy - l.y
          let d2 = dx * dx + dy * dy
          let f = 1 / (1 + d2 * l.inv)
          light = Color(light.r + l.c.r * f, light.g + l.c.g * f, light.b + l.c.b * f)
          if l.h > 0 {
            let q = 1 / (1 + d2 * l.invHalo)
            let k = l.h * q * q
            halo = Color(halo.r + l.c.r * k, halo.g + l.c.g * k, halo.b + l.c.b * k)
          }
        }
        let nx = (Float(px) + 0.5 - halfW) / halfW
        var t = (0.5 * (nx * nx + ny * ny) - start) * invSpan
        t = t < 0 ? 0 : (t > 1 ? 1 : t)
        let v = 1 - vignette * t * t * (3 - 2 * t)
        let j = (gy * nodesX + gx) * 7
        nodes[j] = light.r * v
        nodes[j + 1] = light.g * v
        nodes[j + 2] = light.b * v
        nodes[j + 3] = halo.r * v
        nodes[j + 4] = halo.g * v
        nodes[j + 5] = halo.b * v
        nodes[j + 6] = v
      }
    }
    self.nodes = nodes
  }

  /// Calls `body(pixelIndex, x, y, r, g, b)` with the light leaving each pixel:
  /// `(surface * mix(light, 1, emission) + halo + glow) * vignette`.
  @inline(__always)
  func forEachPixel(_ canvas: Canvas, _ body: (Int, Int, Int, Float, Float, Float) -> Void) {
    let vp = viewport
    let s = step
    let invS = 1 / Float(s)
    let hasGlow = !canvas.glow.isEmpty
    let rowNodes = nodesX * 7
    canvas.surface.withUnsafeBufferPointer { px in
      canvas.glow.withUnsafeBufferPointer { gl in
        nodes.withUnsafeBufferPointer { nd in
          for y in 0..<vp.height {
            let gy = y / s
            let ty = Float(y - gy * s) * invS
            let top = gy * rowNodes
            let bottom = min(gy + 1, nodesY - 1) * rowNodes
            /// Value `k` of the node starting at `a`, interpolated to this row.
            @inline(__always) func at(_ a: Int, _ k: Int) -> Float {
              nd[top + a + k] + (nd[bottom + a + k] - nd[top + a + k]) * ty
            }
            // Walk the row one node cell at a time, stepping the values linearly.
            var x = 0
            var a = 0
            var mr = at(0, 0)
            var mg = at(0, 1)
            var mb = at(0, 2)
            var hr = at(0, 3)
            var hg = at(0, 4)
            var hb = at(0, 5)
            var v = at(0, 6)
            while x < vp.width {
              let b = min(a + 7, rowNodes - 7)
              let nr = at(b, 0)
              let ng = at(b, 1)
              let nb = at(b, 2)
              let nhr = at(b, 3)
              let nhg = at(b, 4)
              let nhb = at(b, 5)
              let nv = at(b, 6)
              let dmr = (nr - mr) * invS
              let dmg = (ng - mg) * invS
              let dmb = (nb - mb) * invS
              let dhr = (nhr - hr) * invS
              let dhg = (nhg - hg) * invS
              let dhb = (nhb - hb) * invS
              let dv = (nv - v) * invS
              let end = min(x + s, vp.width)
              while x < end {
                let i = y * vp.width + x
                let j = i * 4
                let e = px[j + 3]
                var r = px[j] * (mr + (v - mr) * e) + hr
                var g = px[j + 1] * (mg + (v - mg) * e) + hg
                var bl = px[j + 2] * (mb + (v - mb) * e) + hb
                if hasGlow {
                  r += gl[i * 3] * v
                  g += gl[i * 3 + 1] * v
                  bl += gl[i * 3 + 2] * v
                }
                body(i, x, y, r, g, bl)
                mr += dmr
                mg += dmg
                mb += dmb
                hr += dhr
                hg += dhg
                hb += dhb
                v += dv
                x += 1
              }
              // Restart exactly on the next node to avoid drift.
              mr = nr
              mg = ng
              mb = nb
              hr = nhr
              hg = nhg
              hb = nhb
              v = nv
              a = b
            }
          }
        }
      }
    }
  }
}
