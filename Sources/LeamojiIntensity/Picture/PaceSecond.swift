/// How much the picture changed since the previous sample, as `PaceMeter` measures it.
public struct PaceSecond: Sendable, Equatable, Codable {
  /// Mean absolute difference of BT.601 luma (`0.299 R + 0.587 G + 0.114 B`, scaled to 0…1)
  /// between this sample and the previous one, pixel by pixel, in 0…1: movement, flashes.
  /// 0 for the first sample.
  public var motion: Double
  /// Half the L1 distance between the two samples' normalised colour histograms (8×8×8 bins:
  /// the top 3 bits of R, G and B), in 0…1: the share of pixels whose colour class changed.
  /// 0 for the first sample.
  public var change: Double

  /// `change` above this is a cut. A new shot usually moves most pixels to other colour
  /// classes (0.6–1); a brightness change of 2–3 % moves the pixels near a class edge (up to
  /// 0.2–0.3); movement within a shot, few.
  public static let cutThreshold = 0.4

  public init(motion: Double, change: Double) {
    self.motion = motion
    self.change = change
  }

  /// Whether the picture was cut between the previous sample and this one.
  public var isCut: Bool { change > Self.cutThreshold }
}
