/// Labelled examples in a fixed order: decoded images (`ImageSet`) or a backbone's features of
/// them (`FeatureSet`). What the held-out split and a training run's validation need of either.
public protocol LabelledSamples: Sendable {
  /// Label names; `labels[i]` indexes into this.
  var labelNames: [String] { get }
  /// The label index of each example.
  var labels: [Int] { get }
  /// Number of examples.
  var count: Int { get }
  /// The examples at `indices`, in that order.
  func subset(_ indices: [Int]) -> Self
}

extension ImageSet: LabelledSamples {}
extension FeatureSet: LabelledSamples {}
