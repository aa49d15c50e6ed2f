import LeamojiCore
import LeamojiNN

/// Random changes applied to training images so the network learns the mood of a picture,
/// not its exact pixels. Each is mild enough to keep the lighting mood intact.
public struct Augmentation: OptionSet, Sendable, CustomStringConvertible {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Mirror left-right (half of the time).
  public static let flip = Augmentation(rawValue: 1)
  /// Take a random 80–100 % window and scale it back to full size.
  public static let crop = Augmentation(rawValue: 2)
  /// Brighten or darken by up to ±15 %.
  public static let exposure = Augmentation(rawValue: 4)
  /// Add a little per-pixel, approximately Gaussian noise (σ = 0.03 of full scale; sum of four
  /// uniforms, `SplitMix64.nextFastNormal`).
  public static let noise = Augmentation(rawValue: 8)

  static let names: [(String, Augmentation)] = [
    ("flip", .flip), ("crop", .crop), ("exposure", .exposure), ("noise", .noise),
  ]

  /// Parses a comma-separated list such as `flip,crop`; `none` or an empty string is no augmentation.
  public init?(parsing text: String) {
    var result: Augmentation = []
    for part in text.split(separator: ",").map({
      $0.trimmingWhitespace.lowercased()
    }) {
      if part == "none" || part.isEmpty { continue }
      guard let match = Augmentation.names.first(where: { $0.0 == part }) else { return nil }
      result.insert(match.1)
    }
    self = result
  }

  public var description: String {
    list.isEmpty ? "none" : list.joined(separator: ",")
  }

  /// The names of the augmentations in the set, in the fixed order flip, crop, exposure, noise.
  public var list: [String] { Augmentation.names.filter { contains($0.1) }.map(\.0) }
}
