/// How a model's timeline joins the picture with the film's sound and pace, as its makers tuned
/// it on their footage check set: the `fusion` part of the model card (a JSON object in the
/// file's metadata, docs/model-file.md). A model without it uses `standard`.
///
/// Per second: the intensity is the second's loudness relative to the film's own level, mapped
/// linearly from `quietLU` (0) to `loudLU` (1) and clamped; *sound* fires when
/// (1 − soundWeight)·p + soundWeight·intensity ≥ threshold + soundMargin with p ≥ pictureFloor;
/// a second is *sudden* when its loudness rises by `suddenRiseDB` or more within it and the
/// picture changes by `suddenChange` or more (docs/intensity.md).
public struct FusionSettings: Codable, Equatable, Sendable {
  public var soundWeight: Double
  public var soundMargin: Double
  public var pictureFloor: Double
  /// Loudness relative to the film's level (LU) that counts as no intensity at all.
  public var quietLU: Double
  /// Loudness relative to the film's level (LU) from which the intensity is 1.
  public var loudLU: Double
  /// The rise of loudness within a second (dB) a sudden scare needs.
  public var suddenRiseDB: Double
  /// The change of picture (0…1, the colour-histogram distance) a sudden scare needs.
  public var suddenChange: Double

  public init(
    soundWeight: Double, soundMargin: Double, pictureFloor: Double, quietLU: Double,
    loudLU: Double, suddenRiseDB: Double, suddenChange: Double
  ) {
    self.soundWeight = soundWeight
    self.soundMargin = soundMargin
    self.pictureFloor = pictureFloor
    self.quietLU = quietLU
    self.loudLU = loudLU
    self.suddenRiseDB = suddenRiseDB
    self.suddenChange = suddenChange
  }

  /// The settings of a model whose card has none (docs/intensity.md says how they were chosen).
  public static let standard = FusionSettings(
    soundWeight: 0.5, soundMargin: 0.2, pictureFloor: 0.3, quietLU: -16, loudLU: 4,
    suddenRiseDB: 15, suddenChange: 0.35)

  /// Whether every number is usable: finite, weight within 0…1, loud above quiet, rise and
  /// change positive.
  public var isValid: Bool {
    let all = [soundWeight, soundMargin, pictureFloor, quietLU, loudLU, suddenRiseDB, suddenChange]
    return all.allSatisfy(\.isFinite) && (0...1).contains(soundWeight) && loudLU > quietLU
      && suddenRiseDB > 0 && suddenChange > 0
  }

  enum CodingKeys: String, CodingKey {
    case soundWeight = "sound_weight"
    case soundMargin = "sound_margin"
    case pictureFloor = "picture_floor"
    case quietLU = "quiet_lu"
    case loudLU = "loud_lu"
    case suddenRiseDB = "sudden_rise_db"
    case suddenChange = "sudden_change"
  }
}
