import FoundationEssentials
import LeamojiCore

/// Softmax over class scores and the cross-entropy loss against an integer label.
///
/// Both use the log-sum-exp form (subtract the largest logit first, accumulate in Double), so
/// huge or tiny logits neither overflow nor produce NaN. `exp` and `log` are `PortableMath`'s,
/// so training gives the same bits on every host.
public enum SoftmaxCrossEntropy {
  /// Class probabilities for one sample's logits: `exp(z_i) / Σ_j exp(z_j)`.
  public static func softmax(_ logits: Tensor) -> Tensor {
    let m = Double(logits.data.max() ?? 0)
    let e = logits.data.map { PortableMath.exp(Double($0) - m) }
    let s = e.reduce(0, +)
    return Tensor(shape: logits.shape, data: e.map { Float($0 / s) })
  }

  /// `log Σ_j exp(z_j)`, computed stably.
  public static func logSumExp(_ logits: Tensor) -> Double {
    let m = Double(logits.data.max() ?? 0)
    return m + PortableMath.log(logits.data.reduce(0.0) { $0 + PortableMath.exp(Double($1) - m) })
  }

  /// The loss `-log softmax(z)[label]` of one sample and its gradient with respect to the logits.
  /// - Parameters:
  ///   - logits: one sample's class scores, shape `[classes]`.
  ///   - label: the true class index, `0..<classes`.
  ///   - scale: multiplies the gradient (e.g. `1 / batchSize` for a mean loss).
  /// - Returns: the (unscaled) loss and `scale · (softmax(z) - onehot(label))`.
  public static func lossAndGradient(
    logits: Tensor, label: Int, scale: Float = 1
  ) -> (loss: Float, gradient: Tensor) {
    precondition(label >= 0 && label < logits.count, "label \(label) out of 0..<\(logits.count)")
    let m = Double(logits.data.max() ?? 0)
    let e = logits.data.map { PortableMath.exp(Double($0) - m) }
    let s = e.reduce(0, +)
    let loss = m + PortableMath.log(s) - Double(logits.data[label])
    var g = Tensor(shape: logits.shape)
    for i in 0..<e.count {
      g.data[i] = Float((e[i] / s - (i == label ? 1 : 0)) * Double(scale))
    }
    return (Float(loss), g)
  }

  /// The index of the largest logit (the first one on ties): the predicted class.
  public static func argmax(_ logits: Tensor) -> Int {
    var best = 0
    for i in 1..<max(logits.count, 1) where logits.data[i] > logits.data[best] { best = i }
    return best
  }
}
