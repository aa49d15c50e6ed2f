/// How one sample's label is decided from its probabilities: the one rule that the timeline's
/// encoder, the poster (through it) and `train --test`'s before/after figures all apply, so
/// that a second is labelled the same way wherever it is counted.
public enum LabelRule {
  /// The index of the label of `row` (probabilities in the model's label order). With a scary
  /// `threshold` and a scary label at `scary`: scary exactly when its probability reaches the
  /// threshold, else the most probable other label. Otherwise the most probable label. Ties go
  /// to the first.
  public static func decide<P: BinaryFloatingPoint>(_ row: [P], threshold: Double?, scary: Int?)
    -> Int
  {
    guard let threshold, let scary else { return mostProbable(row) }
    return Double(row[scary]) >= threshold ? scary : mostProbable(row, except: scary)
  }

  /// The index of the largest value of `row`, leaving out `excluded` unless it is the only
  /// one; ties go to the first.
  public static func mostProbable<P: BinaryFloatingPoint>(_ row: [P], except excluded: Int? = nil)
    -> Int
  {
    var best: Int? = nil
    for i in row.indices where i != excluded {
      if best == nil || row[i] > row[best!] { best = i }
    }
    return best ?? excluded ?? 0
  }
}
