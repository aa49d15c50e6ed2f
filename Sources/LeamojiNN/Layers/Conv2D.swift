import LeamojiCore

/// A 2-D convolution (cross-correlation, as in PyTorch) over a CHW sample, computed as
/// im2col followed by a matrix multiply.
public struct Conv2D: Layer {
  /// Layer name; the parameters are `<name>.weight` and `<name>.bias`.
  public let name: String
  /// Input channels.
  public let inChannels: Int
  /// Output channels (number of kernels).
  public let outChannels: Int
  /// Side of the square kernel.
  public let kernel: Int
  /// Step between kernel positions.
  public let stride: Int
  /// Zero padding added on every side.
  public let padding: Int
  /// Kernel weights, shape `[out, in, kernel, kernel]` (PyTorch layout).
  public var weight: Tensor
  /// Bias per output channel, shape `[out]`.
  public var bias: Tensor

  /// A convolution with He-normal weights (fan-in `in * kernel * kernel`) and zero bias.
  public init(
    name: String, inChannels: Int, outChannels: Int, kernel: Int = 3, stride: Int = 1,
    padding: Int = 1, rng: inout SplitMix64
  ) {
    let shape = [outChannels, inChannels, kernel, kernel]
    self.init(
      name: name, stride: stride, padding: padding,
      weight: Initializer.heNormal(shape: shape, fanIn: inChannels * kernel * kernel, rng: &rng),
      bias: Tensor(shape: [outChannels]))
  }

  /// A convolution with given weights `[out, in, k, k]` and bias `[out]`.
  public init(name: String, stride: Int = 1, padding: Int = 1, weight: Tensor, bias: Tensor) {
    precondition(
      weight.rank == 4 && weight.shape[2] == weight.shape[3], "conv weight must be [out, in, k, k]")
    precondition(bias.shape == [weight.shape[0]], "conv bias must be [out]")
    self.name = name
    self.outChannels = weight.shape[0]
    self.inChannels = weight.shape[1]
    self.kernel = weight.shape[2]
    self.stride = stride
    self.padding = padding
    self.weight = weight
    self.bias = bias
  }

  public var spec: LayerSpec {
    .conv2d(
      name: name, inChannels: inChannels, outChannels: outChannels, kernel: kernel,
      stride: stride, padding: padding)
  }

  public var parameters: [Tensor] {
    get { [weight, bias] }
    set {
      precondition(
        newValue.count == 2 && newValue[0].shape == weight.shape && newValue[1].shape == bias.shape)
      weight = newValue[0]
      bias = newValue[1]
    }
  }

  public func outputShape(for s: [Int]) throws(LayerShapeError) -> [Int] {
    guard s.count == 3, s[0] == inChannels else {
      throw LayerShapeError("conv2d \(name) expects [\(inChannels), H, W] but gets \(s)")
    }
    let g = window(s)
    guard s[1] + 2 * padding >= kernel, s[2] + 2 * padding >= kernel else {
      throw LayerShapeError(
        "conv2d \(name): input \(s[1])x\(s[2]) is smaller than its kernel \(kernel)")
    }
    return [outChannels, g.outHeight, g.outWidth]
  }

  func window(_ s: [Int]) -> Kernels.Window {
    Kernels.Window(
      channels: inChannels, height: s[1], width: s[2], kernel: kernel, stride: stride,
      padding: padding)
  }

  // y[o, p] = bias[o] + Σ_r W[o, r] · col[r, p]      (r = (c, ky, kx), p = (oy, ox))
  // The network's batch engine runs the same kernels on reused buffers (Engine.swift); these
  // per-sample forms allocate and serve the layer-by-layer path and the tests.
  public func forward(_ input: Tensor) -> Tensor {
    let g = window(input.shape)
    let positions = g.positions
    let patch = g.patchSize
    var col = [Float](repeating: 0, count: patch * positions)
    var out = [Float](repeating: 0, count: outChannels * positions)
    var scratch = [Float](
      repeating: 0, count: Kernels.gemmScratchCount(m: outChannels, k: patch))
    input.data.withUnsafeBufferPointer { x in
      col.withUnsafeMutableBufferPointer { c in
        Kernels.im2col(g, input: x.baseAddress!, col: c.baseAddress!)
      }
    }
    out.withUnsafeMutableBufferPointer { y in
      bias.data.withUnsafeBufferPointer { b in
        weight.data.withUnsafeBufferPointer { w in
          col.withUnsafeBufferPointer { c in
            Kernels.gemmPacked(
              m: outChannels, n: positions, k: patch, a: w.baseAddress!, aRowStride: patch,
              aColStride: 1, b: c.baseAddress!, bRowStride: positions, bColStride: 1,
              c: y.baseAddress!, ldc: positions, start: .overwrite, bias: b.baseAddress!,
              relu: false, scratch: &scratch)
          }
        }
      }
    }
    return Tensor(shape: [outChannels, g.outHeight, g.outWidth], data: out)
  }

  // ∂bias[o] = Σ_p dY[o, p]
  // ∂W = dY · colᵀ          ([out × positions] · [positions × patch])
  // ∂x = col2im(Wᵀ · dY)    ([patch × out] · [out × positions], folded back onto the input)
  public func backward(
    input: Tensor, output: Tensor, outputGradient: Tensor,
    parameterGradients: inout [Tensor], needsInputGradient: Bool
  ) -> Tensor? {
    let g = window(input.shape)
    let positions = g.positions
    let patch = g.patchSize
    var col = [Float](repeating: 0, count: patch * positions)
    var scratch = [Float](
      repeating: 0, count: Kernels.gemmScratchCount(m: patch, k: outChannels))
    input.data.withUnsafeBufferPointer { x in
      col.withUnsafeMutableBufferPointer { c in
        Kernels.im2col(g, input: x.baseAddress!, col: c.baseAddress!)
      }
    }
    outputGradient.data.withUnsafeBufferPointer { dy in
      parameterGradients[1].data.withUnsafeMutableBufferPointer { db in
        for o in 0..<outChannels {
          db[o] += Kernels.sumLanes(dy.baseAddress! + o * positions, positions)
        }
      }
      parameterGradients[0].data.withUnsafeMutableBufferPointer { dw in
        col.withUnsafeBufferPointer { c in
          Kernels.gemmNT(
            m: outChannels, n: patch, k: positions, a: dy.baseAddress!, b: c.baseAddress!,
            bRowStride: positions, bPanelStride: 16, c: dw.baseAddress!, ldc: patch,
            start: .accumulate)
        }
      }
    }
    guard needsInputGradient else { return nil }
    weight.data.withUnsafeBufferPointer { w in
      outputGradient.data.withUnsafeBufferPointer { dy in
        col.withUnsafeMutableBufferPointer { dc in
          Kernels.gemmPacked(
            m: patch, n: positions, k: outChannels, a: w.baseAddress!, aRowStride: 1,
            aColStride: patch, b: dy.baseAddress!, bRowStride: positions, bColStride: 1,
            c: dc.baseAddress!, ldc: positions, start: .overwrite, bias: nil, relu: false,
            scratch: &scratch)
        }
      }
    }
    var dx = Tensor(shape: input.shape)
    col.withUnsafeBufferPointer { dc in
      dx.data.withUnsafeMutableBufferPointer { d in
        Kernels.col2imAdd(g, col: dc.baseAddress!, input: d.baseAddress!)
      }
    }
    return dx
  }
}
