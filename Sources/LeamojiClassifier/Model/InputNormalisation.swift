/// How RGB pixels become network input: `(pixel / 255 − mean[c]) / std[c]` for each channel,
/// in float32 and in exactly that order. torchvision's `ToTensor` + `Normalize` compute the
/// same, so an image gives the same input here as in PyTorch.
///
/// A model file stores `mean` and `std`; training measures them on its images. Every image on
/// its way into the network — training batches, evaluation, classification, video analysis —
/// goes through `BatchMaker`, whose `ImageRender` computes this and nothing else.
public struct InputNormalisation: Equatable, Sendable {
  /// Per-channel (R, G, B) mean of `pixel / 255`, subtracted first.
  public let mean: [Float]
  /// Per-channel standard deviation of `pixel / 255`, divided by after the mean is subtracted.
  public let std: [Float]

  /// torchvision's ImageNet statistics, the default for a network trained elsewhere.
  public static let imageNet = InputNormalisation(
    checked: [0.485, 0.456, 0.406], [0.229, 0.224, 0.225])

  /// A normalisation with the given statistics.
  /// - Throws: `ClassifierError.badNormalisation` unless both have 3 finite values and every
  ///   `std` value is positive.
  public init(mean: [Float], std: [Float]) throws(ClassifierError) {
    guard mean.count == 3, std.count == 3 else {
      throw .badNormalisation(reason: "mean and std need 3 values each")
    }
    guard mean.allSatisfy(\.isFinite), std.allSatisfy({ $0.isFinite && $0 > 0 }) else {
      throw .badNormalisation(reason: "mean must be finite and std finite and positive")
    }
    self.init(checked: mean, std)
  }

  private init(checked mean: [Float], _ std: [Float]) {
    self.mean = mean
    self.std = std
  }

  /// The statistics of `pixel / 255` over RGB images stored back to back (e.g. a training
  /// set), so that the network's input has mean 0 and deviation 1 in each channel. Summed in
  /// Double in pixel order: the same pixels always give the same values. A deviation below
  /// 0.001 counts as 0.001 (one flat channel must not divide by zero); without pixels,
  /// `imageNet`.
  public static func measured(over pixels: [UInt8]) -> InputNormalisation {
    // `Double(byte) / 255` and its square looked up per byte value (the same bits as
    // computing them), added in pixel order to six running sums held in registers.
    let unit = (0..<256).map { Double($0) / 255 }
    let square = unit.map { $0 * $0 }
    let count = pixels.count / 3
    var (r, g, b) = (0.0, 0.0, 0.0)
    var (rr, gg, bb) = (0.0, 0.0, 0.0)
    pixels.withUnsafeBufferPointer { px in
      unit.withUnsafeBufferPointer { unit in
        square.withUnsafeBufferPointer { square in
          for i in 0..<count {
            let (p, q, s) = (Int(px[3 * i]), Int(px[3 * i + 1]), Int(px[3 * i + 2]))
            r += unit[p]
            rr += square[p]
            g += unit[q]
            gg += square[q]
            b += unit[s]
            bb += square[s]
          }
        }
      }
    }
    let sum = [r, g, b]
    let sumSq = [rr, gg, bb]
    guard count > 0 else { return imageNet }
    let n = Double(count)
    let mean = sum.map { $0 / n }
    let std = (0..<3).map { c in max((sumSq[c] / n - mean[c] * mean[c]).squareRoot(), 1e-3) }
    return InputNormalisation(checked: mean.map { Float($0) }, std.map { Float($0) })
  }
}
