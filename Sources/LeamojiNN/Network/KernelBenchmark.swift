import Dispatch
import FoundationEssentials
import LeamojiCore

/// Measurements for `leamoji-bench cnn`: the machine's FMA peak with the kernels' own vector
/// type, and each convolution pass of a network timed alone on the engine's reused buffers.
/// They live here because they must be compiled exactly like the kernels (same module, same
/// target CPU).
public enum KernelBenchmark {
  /// One timed pass of one convolution layer.
  public struct PassRate: Sendable {
    /// The layer's name, e.g. `conv2`.
    public var layer: String
    /// `forward` (GEMM with fused bias/ReLU, plus im2col), `weight gradient` or
    /// `input gradient` (GEMM plus col2im).
    public var pass: String
    /// Multiply-adds x 2 per second over the batch, in GFLOP/s.
    public var gflops: Double
  }

  /// GFLOP/s of 12 independent 8-lane FMA chains per thread, on `threads` threads at once,
  /// measured for about `seconds`.
  public static func fmaPeak(threads: Int, seconds: Double) -> Double {
    let workers = max(1, threads)
    let iterations = 2_000_000
    let flopsPerCall = Double(iterations) * 192
    _ = Kernels.fmaPeakLoop(iterations: iterations, seed: 1)  // warm-up
    var calls = 0
    let start = DispatchTime.now().uptimeNanoseconds
    var elapsed = 0.0
    repeat {
      DispatchQueue.concurrentPerform(iterations: workers) { w in
        let r = Kernels.fmaPeakLoop(iterations: iterations, seed: Float(w + 1))
        if r == 42 { print("") }  // keeps the result alive
      }
      calls += workers
      elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } while elapsed < seconds
    return Double(calls) * flopsPerCall / elapsed / 1e9
  }

  /// Times each convolution layer's forward, weight-gradient and input-gradient passes over
  /// `batch` random samples, samples spread over `threads` threads as in training (the first
  /// layer has no input-gradient pass, as in training).
  public static func convolutionPasses(
    of network: Network, batch: Int, threads: Int, seconds: Double
  ) -> [PassRate] {
    guard let engine = network.engine else { return [] }
    let context = engine.checkOut()
    defer { engine.checkIn(context) }
    context.load(network.layers)
    let workers = min(max(threads, 1), batch)
    context.reserve(samples: 1, workers: workers)
    var rng = SplitMix64(seed: 5)
    var rates: [PassRate] = []
    let names = network.layers.compactMap { ($0 as? Conv2D)?.name }
    var convIndex = 0
    for (s, step) in engine.steps.enumerated() {
      guard case .conv(let w, let b, let out, let g, let relu) = step.op else { continue }
      let name = convIndex < names.count ? names[convIndex] : "conv"
      convIndex += 1
      let positions = g.positions
      let patch = g.patchSize
      let flops = 2.0 * Double(out * positions * patch) * Double(batch)
      let input = (0..<step.inCount).map { _ in Float(rng.nextGaussian()) }
      let dy = (0..<step.outCount).map { _ in Float(rng.nextGaussian()) }
      let p = SharedPointer(base: context.tensors)
      // One gradient slot per sample, as in training.
      let grad = UnsafeMutablePointer<Float>.allocate(capacity: batch * engine.parameterCount)
      defer { grad.deallocate() }
      let g0 = SharedPointer(base: grad)
      let count = engine.parameterCount
      let passes: [(String, @Sendable (EngineWorkspace, Int) -> Void)] = [
        (
          "forward",
          { ws, _ in
            let col = ws.cols[s]!
            Kernels.im2colPanels(g, input: input, padded: ws.padded, col: col)
            Kernels.gemmPacked(
              m: out, n: positions, k: patch, a: p.base[w], aRowStride: patch, aColStride: 1,
              b: col, bRowStride: 0, bColStride: 0, c: ws.outputs[s], ldc: positions,
              start: .overwrite, bias: p.base[b], relu: relu != 0, scratch: ws.scratch,
              bIsPanels: true)
          }
        ),
        (
          "weight gradient",
          { ws, i in
            let col = ws.cols[s]!  // the forward pass's im2col matrix, as in training
            Kernels.gemmNT(
              m: out, n: patch, k: positions, a: dy, b: col, bRowStride: 16,
              bPanelStride: patch * 16, c: g0.base + i * count + engine.offsets[w], ldc: patch,
              start: .overwrite)
          }
        ),
        (
          "input gradient",
          { ws, _ in
            let col = ws.cols[s]!
            Kernels.gemmPacked(
              m: patch, n: positions, k: out, a: p.base[w], aRowStride: 1, aColStride: patch,
              b: dy, bRowStride: positions, bColStride: 1, c: col, ldc: positions,
              start: .overwrite, bias: nil, relu: false, scratch: ws.scratch)
            ws.gradientB.update(repeating: 0, count: step.inCount)
            Kernels.col2imAdd(g, col: col, input: ws.gradientB)
          }
        ),
      ]
      // The first layer's input gradient is never computed (nothing needs ∂input).
      for (pass, body) in passes where s > 0 || pass != "input gradient" {
        let run = { context.run(batch, threads: threads, body) }
        run()
        var runs = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed = 0.0
        repeat {
          run()
          runs += 1
          elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        } while elapsed < seconds
        rates.append(
          PassRate(layer: name, pass: pass, gflops: flops * Double(runs) / elapsed / 1e9))
      }
    }
    return rates
  }
}

extension KernelBenchmark {
  /// One step of a network's inference timed alone: its mean and its shortest time per image
  /// (the shortest is the one to compare between builds on a shared machine: other work only
  /// ever adds time).
  public struct StepTime: Sendable {
    /// The kind of step: `pointwise (GEMM)`, `depthwise`, `stem (im2col + GEMM)`, `linear` or
    /// `other (ReLU6, adds, pooling)`.
    public var kind: String
    /// The step's shape, e.g. `pointwise 16→96 x 12544`.
    public var shape: String
    public var seconds: Double
    public var minimumSeconds: Double
    public var multiplyAdds: Int
  }

  /// The time one image spends in each kind of step of a network's inference (`pointwise`,
  /// `depthwise`, `stem (im2col)`, `other`), with its multiply-adds: for the kernels'
  /// GFLOP/s and share of the FMA peak. One sample at a time split over `threads` lanes, as
  /// batch 1 runs it, repeated for about `seconds`.
  public static func inferenceSteps(
    of network: Network, threads: Int, seconds: Double
  ) -> [(kind: String, seconds: Double, multiplyAdds: Int)] {
    var rows: [String: (Double, Int)] = [:]
    for step in inferenceStepTimes(of: network, threads: threads, seconds: seconds) {
      let old = rows[step.kind] ?? (0, 0)
      rows[step.kind] = (old.0 + step.seconds, old.1 + step.multiplyAdds)
    }
    return rows.map { ($0.key, $0.value.0, $0.value.1) }.sorted { $0.seconds > $1.seconds }
  }

  /// Every step of the inference timed as `inferenceSteps` does, in network order.
  public static func inferenceStepTimes(
    of network: Network, threads: Int, seconds: Double
  ) -> [StepTime] {
    guard let engine = network.engine else { return [] }
    let context = engine.checkOut(.inference)
    defer { engine.checkIn(context) }
    context.load(network.layers)
    context.reserve(samples: 0, workers: 1)
    let ws = context.workspaces[0]
    let x = [Float](repeating: 0.5, count: engine.inputCount)
    let count = engine.steps.count
    let one = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
    defer { one.deallocate() }
    var total = [UInt64](repeating: 0, count: count)
    var shortest = [UInt64](repeating: .max, count: count)
    var runs = 0
    let start = DispatchTime.now().uptimeNanoseconds
    Network.withAddresses(of: network.parameters) { p in
      x.withUnsafeBufferPointer { input in
        repeat {
          one.initialize(repeating: 0, count: count)
          _ = engine.forward(
            input.baseAddress!, parameters: p, affine: context.affine, lanes: threads, in: ws,
            stepNanoseconds: one)
          for s in 0..<count {
            total[s] += one[s]
            shortest[s] = min(shortest[s], one[s])
          }
          runs += 1
        } while Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 < seconds
      }
    }
    return engine.steps.enumerated().map { s, step in
      let kind: String
      let shape: String
      let macs: Int
      switch step.op {
      case .pointwise(_, _, let i, let o, let positions, _):
        (kind, shape, macs) = ("pointwise (GEMM)", "\(i)→\(o) x \(positions)", i * o * positions)
      case .depthwise(_, _, let c, let g, _):
        (kind, macs) = ("depthwise", c * g.kernel * g.kernel * g.outArea)
        shape = "\(c) x \(g.height)x\(g.width), \(g.kernel)x\(g.kernel) /\(g.stride)"
      case .paddedConv(_, _, let i, let o, let g, _):
        (kind, macs) = ("stem (im2col + GEMM)", i * o * g.kernel * g.kernel * g.outArea)
        shape = "\(i)→\(o) x \(g.outArea), \(g.kernel)x\(g.kernel) /\(g.stride)"
      case .linear(_, _, let i, let o):
        (kind, shape, macs) = ("linear", "\(i)→\(o)", i * o)
      default:
        (kind, shape, macs) = ("other (ReLU6, adds, pooling)", "\(step.outCount) values", 0)
      }
      return StepTime(
        kind: kind, shape: shape, seconds: Double(total[s]) / 1e9 / Double(max(1, runs)),
        minimumSeconds: runs == 0 ? 0 : Double(shortest[s]) / 1e9, multiplyAdds: macs)
    }
  }
}

extension Kernels {
  /// Runs `iterations` steps of 12 independent 8-lane FMA chains (the same vector type and
  /// FMA as the micro-kernel) and returns a value depending on all of them, so nothing is
  /// optimised away. Each step is 12 x 8 x 2 = 192 FLOPs.
  @inline(never)
  static func fmaPeakLoop(iterations: Int, seed: Float) -> Float {
    let x = V8(repeating: 1.000_001)
    let y = V8(repeating: seed * 1e-7)
    var a0 = V8(repeating: seed)
    var a1 = a0 + 1
    var a2 = a0 + 2
    var a3 = a0 + 3
    var a4 = a0 + 4
    var a5 = a0 + 5
    var a6 = a0 + 6
    var a7 = a0 + 7
    var a8 = a0 + 8
    var a9 = a0 + 9
    var a10 = a0 + 10
    var a11 = a0 + 11
    for _ in 0..<iterations {
      a0 = fmadd(y, a0, x)
      a1 = fmadd(y, a1, x)
      a2 = fmadd(y, a2, x)
      a3 = fmadd(y, a3, x)
      a4 = fmadd(y, a4, x)
      a5 = fmadd(y, a5, x)
      a6 = fmadd(y, a6, x)
      a7 = fmadd(y, a7, x)
      a8 = fmadd(y, a8, x)
      a9 = fmadd(y, a9, x)
      a10 = fmadd(y, a10, x)
      a11 = fmadd(y, a11, x)
    }
    let s = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7)) + ((a8 + a9) + (a10 + a11))
    return s.sum()
  }
}
