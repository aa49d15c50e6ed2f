import FoundationEssentials
import LeamojiCore

/// A backbone's features of images, kept on disk by the image file's SHA-256 so that a second
/// `train --backbone` run (other options, more images) computes only what is new. One folder per
/// backbone (named by the model file's SHA-256), one small file per image and orientation.
///
/// An entry is `LMJF`, the float count (UInt32, little-endian), then the floats (little-endian).
/// A damaged, truncated or foreign entry reads as missing and is computed again; entries are
/// written to a temporary file and renamed, so a reader never sees half of one (and not synced
/// to disk: one lost in a crash is computed again). A cache that
/// cannot be written is not an error: training goes on without it.
public struct FeatureCache: Sendable {
  /// The folder of this backbone's entries.
  public let folder: String

  /// The cache named `backbone` under `root`: the backbone model file's SHA-256 (hex, its first
  /// 32 digits), with a suffix for features taken before its pooling.
  public init(root: String, backbone: String) {
    folder = root + "/" + backbone
  }

  /// `$XDG_CACHE_HOME/leamoji/features`, else `~/.cache/leamoji/features`, else nil (no home).
  public static func defaultRoot() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      return xdg + "/leamoji/features"
    }
    if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/leamoji/features" }
    return nil
  }

  private static let magic: [UInt8] = Array("LMJF".utf8)

  func path(image: String, flipped: Bool) -> String {
    folder + "/" + image + (flipped ? "-flip" : "") + ".f32"
  }

  /// The stored features of the image with SHA-256 `image`, when present and `width` long.
  public func features(image: String, flipped: Bool, width: Int) -> [Float]? {
    guard let data = FileManager.default.contents(atPath: path(image: image, flipped: flipped)),
      data.count == 8 + 4 * width
    else { return nil }
    let bytes = [UInt8](data)
    guard Array(bytes[0..<4]) == Self.magic else { return nil }
    let count = bytes[4..<8].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    guard count == width else { return nil }
    var result = [Float](repeating: 0, count: width)
    for i in 0..<width {
      let at = 8 + 4 * i
      let bits =
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16
        | UInt32(bytes[at + 3]) << 24
      result[i] = Float(bitPattern: bits)
    }
    return result.allSatisfy(\.isFinite) ? result : nil
  }

  /// Stores `features` for the image with SHA-256 `image`; failures are ignored (the cache is
  /// only an optimisation).
  public func store(_ features: [Float], image: String, flipped: Bool) {
    var bytes = Self.magic
    bytes.reserveCapacity(8 + 4 * features.count)
    let count = UInt32(features.count)
    for shift in stride(from: 0, to: 32, by: 8) {
      bytes.append(UInt8(truncatingIfNeeded: count >> shift))
    }
    for value in features {
      let bits = value.bitPattern
      for shift in stride(from: 0, to: 32, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: bits >> shift))
      }
    }
    do {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      // Atomic (a temporary file renamed) but not synced: a lost entry is only recomputed.
      try Data(bytes).write(
        to: URL(fileURLWithPath: path(image: image, flipped: flipped)), options: .atomic)
    } catch {
      // A read-only or full disk: the features are simply computed again next time.
    }
  }
}
