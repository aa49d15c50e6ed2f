import LeamojiCore
import LeamojiVideo

/// Stills of a video at chosen times (`report`'s scene thumbnails): the frame on screen at
/// each time exactly as the sampler picks it (the latest frame starting at or before the
/// time; the first frame before it starts), found by seeking rather than by decoding the film.
public enum SceneStills {
  /// JPEG stills of `video` at `seconds`, `width` pixels wide with the display aspect ratio;
  /// one per time, in order, fewer when the video ends before the later ones.
  /// - Throws: `LeamojiError` when the video cannot be opened or decoded at a time.
  public static func jpegs(video: String, seconds: [Double], width: Int) throws(LeamojiError)
    -> [[UInt8]]
  {
    let images = try images(video: video, seconds: seconds, width: width)
    var result: [[UInt8]] = []
    for image in images {
      do {
        result.append(try ImageCodec.encodeJPEG(image, quality: 80))
      } catch {
        throw LeamojiError(error)
      }
    }
    return result
  }

  /// The stills as pictures, `width` wide (or at `size` when given).
  public static func images(
    video: String, seconds: [Double], width: Int, size: PixelSize? = nil
  ) throws(LeamojiError) -> [RGBImage] {
    let playback: VideoPlayback
    do {
      playback = try VideoPlayback(path: video)
    } catch {
      throw LeamojiError(error)
    }
    let display = playback.info.displaySize
    let height = max(
      2,
      Int((Double(width) * Double(display.height) / Double(max(1, display.width)) / 2).rounded())
        * 2)
    let pictureSize = size ?? PixelSize(width: max(2, width), height: height)
    var images: [RGBImage] = []
    for second in seconds {
      if let duration = playback.info.duration, second >= duration { break }
      guard playback.seek(to: second) != nil else {
        throw LeamojiError.badInput("\(video): cannot decode the frame at \(second) s")
      }
      do {
        images.append(try playback.image(size: pictureSize))
      } catch {
        throw LeamojiError(error)
      }
    }
    return images
  }
}
