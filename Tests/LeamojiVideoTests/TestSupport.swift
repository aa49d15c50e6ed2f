import LeamojiCore
import LeamojiVideo

/// `body`'s result, or the `MediaError` it threw.
func capture<T>(_ body: () throws(MediaError) -> T) -> Result<T, MediaError> {
  do { return .success(try body()) } catch { return .failure(error) }
}

extension Result {
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

/// A frame number for a message ("nil" when the picture showed none).
func describe(_ index: Int?) -> String { index.map(String.init) ?? "nil" }

/// Mean absolute difference per byte of two images of the same size (infinity otherwise).
func meanAbsoluteDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
  guard a.size == b.size else { return .infinity }
  var sum = 0
  for i in a.pixels.indices { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
  return Double(sum) / Double(a.pixels.count)
}
