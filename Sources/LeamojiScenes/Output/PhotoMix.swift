import LeamojiCore

/// Real photographs mixed into a generated training set, so that a model does not take the
/// texture of real footage for a mood.
///
/// Generated scenes are drawn from flat shapes; real films are full of fine, irregular detail
/// (grass, gravel, crowds, foliage). A network that has only seen drawings finds that detail
/// nowhere but in the busiest generated scenes — creatures, storms, fire — and calls real,
/// benign footage scary. Mixing photos in teaches it otherwise, two ways:
///
/// * **Blended:** a share of every mood's training scenes is laid over a random crop of a
///   photo (the scene stays the stronger part), so real texture appears under happy, neutral
///   and scary content alike and says nothing about the mood.
/// * **Plain:** extra neutral training images that are only a photo crop: a photo with no
///   mood cue in it is neutral.
///
/// Testing scenes are never mixed, so test accuracy still measures the generated moods. Every
/// choice comes from the item's seed: the same photos, seed and options give the same images.
public struct PhotoMix: Sendable {
  /// The photographs, in a fixed order (the caller sorts them by file name).
  public let photos: [RGBImage]
  /// The share of each mood's training scenes laid over a photo (0...1).
  public let blendShare: Double
  /// Plain photo images added to the neutral training folder, as a share of its scenes.
  public let plainShare: Double

  /// Photos larger than this on their longer side are shrunk at load (crops are small).
  public static let largestSide = 1024

  public init(photos: [RGBImage], blendShare: Double = 0.5, plainShare: Double = 0.5) {
    self.photos = photos.map(Self.shrunk)
    self.blendShare = blendShare
    self.plainShare = plainShare
  }

  /// How many plain photo images the neutral training folder gets for `perClass` scenes.
  public func plainCount(perClass: Int) -> Int {
    photos.isEmpty ? 0 : Int((Double(perClass) * plainShare).rounded())
  }

  /// `scene` (a training scene made from `seed`) laid over a photo crop, or unchanged when the
  /// seed's draw leaves it alone.
  public func blended(_ scene: RGBImage, seed: UInt64) -> RGBImage {
    guard !photos.isEmpty else { return scene }
    var rng = SceneRandom(seed: SceneRandom.mix(seed, 0x9407_0B1E))
    guard rng.chance(blendShare) else { return scene }
    let photo = crop(size: scene.size, &rng)
    let weight = rng.float(0.55, 0.8)  // the scene's part
    var out = scene
    for i in out.pixels.indices {
      let mixed = Float(scene.pixels[i]) * weight + Float(photo.pixels[i]) * (1 - weight)
      out.pixels[i] = UInt8(min(max(mixed.rounded(), 0), 255))
    }
    return out
  }

  /// The class subfolder plain photo images go to (`Neutral`).
  public static let plainFolderName = datasetFolderName(of: .neutral)

  /// The file name of the `index`th plain photo image, e.g. `photo-00042.png`.
  public static func plainFileName(index: Int) -> String { numberedPNGName("photo", index) }

  /// The `index`th plain photo image of a data set made with `seed`.
  public func plain(index: Int, seed: UInt64, size: PixelSize) -> RGBImage {
    var rng = SceneRandom(seed: SceneRandom.mix(SceneRandom.mix(seed, 0x9407_9A1E), UInt64(index)))
    return crop(size: size, &rng)
  }

  /// A random square-ish crop of a random photo (a fifth of its shorter side to all of it),
  /// resized to `size`, mirrored half the time, its exposure scaled by 0.3 to 1.3.
  func crop(size: PixelSize, _ rng: inout SceneRandom) -> RGBImage {
    let photo = photos[rng.int(in: 0..<photos.count)]
    let side = min(photo.width, photo.height)
    let cropSide = max(1, Int(Float(side) * rng.float(0.2, 1)))
    let aspect = Float(size.width) / Float(size.height)
    let cropWidth = min(photo.width, max(1, Int(Float(cropSide) * aspect)))
    let x0 = rng.int(in: 0...(photo.width - cropWidth))
    let y0 = rng.int(in: 0...(photo.height - cropSide))
    let mirrored = rng.chance(0.5)
    let gain = rng.float(0.3, 1.3)
    var out = RGBImage(width: size.width, height: size.height)
    let sx = Float(cropWidth) / Float(size.width)
    let sy = Float(cropSide) / Float(size.height)
    for y in 0..<size.height {
      let fy = min(max((Float(y) + 0.5) * sy - 0.5, 0), Float(cropSide - 1))
      let y1 = Int(fy)
      let y2 = min(y1 + 1, cropSide - 1)
      let wy = fy - Float(y1)
      for x in 0..<size.width {
        let column = mirrored ? size.width - 1 - x : x
        let fx = min(max((Float(column) + 0.5) * sx - 0.5, 0), Float(cropWidth - 1))
        let x1 = Int(fx)
        let x2 = min(x1 + 1, cropWidth - 1)
        let wx = fx - Float(x1)
        for c in 0..<3 {
          func at(_ px: Int, _ py: Int) -> Float {
            Float(photo.pixels[((y0 + py) * photo.width + x0 + px) * 3 + c])
          }
          let top = at(x1, y1) * (1 - wx) + at(x2, y1) * wx
          let bottom = at(x1, y2) * (1 - wx) + at(x2, y2) * wx
          let value = (top * (1 - wy) + bottom * wy) * gain
          out.pixels[(y * size.width + x) * 3 + c] = UInt8(min(max(value.rounded(), 0), 255))
        }
      }
    }
    return out
  }

  /// `photo` shrunk by whole-pixel box averaging until its longer side is at most
  /// `largestSide`.
  static func shrunk(_ photo: RGBImage) -> RGBImage {
    let factor = (max(photo.width, photo.height) + largestSide - 1) / largestSide
    guard factor > 1 else { return photo }
    let width = max(1, photo.width / factor)
    let height = max(1, photo.height / factor)
    var out = RGBImage(width: width, height: height)
    let area = factor * factor
    for y in 0..<height {
      for x in 0..<width {
        for c in 0..<3 {
          var sum = 0
          for dy in 0..<factor {
            let row = (y * factor + dy) * photo.width
            for dx in 0..<factor { sum += Int(photo.pixels[(row + x * factor + dx) * 3 + c]) }
          }
          out.pixels[(y * width + x) * 3 + c] = UInt8((sum + area / 2) / area)
        }
      }
    }
    return out
  }
}
