/// Turning 8-bit RGB pixels into network input.
public enum Preprocessing {
  /// A CHW float tensor `[3, height, width]` from tightly packed RGB bytes (row-major, top row
  /// first — the layout of `LeamojiCore.RGBImage.pixels`): `(pixel / 255 - mean[c]) / std[c]`.
  ///
  /// The arithmetic is float32 in exactly that order, as torchvision's `ToTensor` + `Normalize`,
  /// so the same image gives the same input here and in PyTorch.
  /// - Throws: `NNError.badPreprocessing` when the byte count is not `width * height * 3` or
  ///   `mean`/`std` are not 3 finite values with positive `std`.
  public static func tensor(
    rgb: [UInt8], width: Int, height: Int, mean: [Float], std: [Float]
  ) throws(NNError) -> Tensor {
    try checkStatistics(mean: mean, std: std, channels: 3)
    guard width > 0, height > 0, width <= 1 << 15, height <= 1 << 15, rgb.count == width * height * 3 else {
      throw .badPreprocessing(reason: "\(rgb.count) bytes for a \(width)x\(height) RGB image")
    }
    let plane = width * height
    var out = Tensor(shape: [3, height, width])
    rgb.withUnsafeBufferPointer { src in
      out.data.withUnsafeMutableBufferPointer { dst in
        for c in 0..<3 {
          let (m, s) = (mean[c], std[c])
          let d = dst.baseAddress! + c * plane
          for i in 0..<plane { d[i] = (Float(src[3 * i + c]) / 255 - m) / s }
        }
      }
    }
    return out
  }

  /// Per-channel mean and standard deviation of `pixel / 255` over RGB images (e.g. a training
  /// set), for `mean`/`std` in a model. Accumulated in Double in image order: reproducible.
  /// Returns ImageNet's statistics when there are no pixels.
  public static func channelStatistics(_ images: [[UInt8]]) -> (mean: [Float], std: [Float]) {
    var sum = [Double](repeating: 0, count: 3)
    var sumSq = [Double](repeating: 0, count: 3)
    var n = 0.0
    for image in images {
      let pixels = image.count / 3
      for i in 0..<pixels {
        for c in 0..<3 {
          let v = Double(image[3 * i + c]) / 255
          sum[c] += v
          sumSq[c] += v * v
        }
      }
      n += Double(pixels)
    }
    guard n > 0 else { return (imageNetMean, imageNetStd) }
    let mean = sum.map { $0 / n }
    let std = (0..<3).map { c in max((sumSq[c] / n - mean[c] * mean[c]).squareRoot(), 1e-3) }
    return (mean.map { Float($0) }, std.map { Float($0) })
  }

  /// torchvision's ImageNet normalisation, a reasonable default.
  public static let imageNetMean: [Float] = [0.485, 0.456, 0.406]
  public static let imageNetStd: [Float] = [0.229, 0.224, 0.225]

  static func checkStatistics(mean: [Float], std: [Float], channels: Int) throws(NNError) {
    guard mean.count == channels, std.count == channels else {
      throw .badPreprocessing(reason: "mean and std need \(channels) values each")
    }
    guard mean.allSatisfy(\.isFinite), std.allSatisfy({ $0.isFinite && $0 > 0 }) else {
      throw .badPreprocessing(reason: "mean must be finite and std finite and positive")
    }
  }
}
