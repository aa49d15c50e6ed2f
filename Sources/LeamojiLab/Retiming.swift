import FoundationEssentials
import LeamojiCore
import LeamojiTimeline

/// The timeline `leamoji analyze` would have written for an analysed entry at another scary
/// threshold, from the per-second probabilities it kept (`analyze --frames`): the product's own
/// `MarkerEncoder` and `SceneSmoother` run again on them, so a threshold can be tuned on what a
/// parent sees (after smoothing) without analysing once per threshold.
///
/// The picture alone decides, as `analyze --signals picture` does: the frames' probabilities
/// carry no sound. They are rounded to 4 decimals in MovieData.json, so a second whose scary
/// probability lies within that rounding of a threshold may come out otherwise than analyze's;
/// a recorded probability reaches a threshold exactly when it is at least the threshold as
/// written (each is read as the nearest `Float` at or above its decimal: 0.38 is scary at 0.38).
public struct Retiming: Sendable {
  /// The entry's id.
  public let id: String
  /// The seconds of the frames, in time order (the order of `labels(scaryThreshold:)`).
  public let seconds: [Double]
  let encoder: MarkerEncoder
  let scores: [SecondScore]

  /// The retiming of `movie`, sampled every `interval` seconds (analyze's `--interval`); nil
  /// when the entry has no frames.
  /// - Throws: `LabError` `.badInput` when its `model` names no labels.
  /// - Precondition: `interval` is finite and > 0.
  public init?(_ movie: Movie, interval: Double) throws(LabError) {
    guard let frames = movie.frames, !frames.isEmpty else { return nil }
    guard !movie.model.labels.isEmpty else {
      throw LabError(.badInput, "\(movie.id): its model names no labels")
    }
    let names = movie.model.labels
    id = movie.id
    encoder = MarkerEncoder(
      labels: names.map { Label(name: $0) }, interval: interval, seekAhead: movie.seekAhead)
    // In time order as the encoder sorts them (stable), so `seconds` lines up with its labels.
    let ordered = frames.enumerated().sorted {
      $0.element.second != $1.element.second
        ? $0.element.second < $1.element.second : $0.offset < $1.offset
    }.map(\.element)
    seconds = ordered.map(\.second)
    scores = ordered.map { frame in
      SecondScore(
        second: frame.second,
        probabilities: names.map { Retiming.float(atLeast: frame.probabilities[$0] ?? 0) })
    }
  }

  /// The smallest `Float` at or above `p`: the nearest one may lie below, and a recorded 0.38
  /// would then miss a threshold of 0.38.
  static func float(atLeast p: Double) -> Float {
    let nearest = Float(p)
    return Double(nearest) < p ? nearest.nextUp : nearest
  }

  /// Each frame's label after smoothing, in time order, when a second is scary from a scary
  /// probability of `scaryThreshold` (nil: the most probable label), as analyze writes it.
  public func labels(scaryThreshold: Double?) -> [String] {
    var encoder = encoder
    encoder.scaryThreshold = scaryThreshold
    return encoder.encode(scores).labels.map(\.name)
  }

  /// The retimings of every entry with frames in the MovieData.json at `path`, in file order.
  /// - Throws: `LabError`: `.noInput` for a file that is missing or unreadable, `.badInput` for
  ///   one that is not a MovieData.json or an entry whose model names no labels.
  public static func read(path: String, interval: Double) throws(LabError) -> [Retiming] {
    let bytes: [UInt8]?
    do {
      bytes = try DurableFile(path).readIfPresent()
    } catch {
      throw LabError(.noInput, error.description)
    }
    guard let bytes else { throw LabError(.noInput, "\(path): no such file") }
    let movies: [Movie]
    do {
      movies = try MovieData.decode(Data(bytes), path: path)
    } catch {
      throw LabError(.badInput, error.description)
    }
    var out: [Retiming] = []
    for movie in movies {
      if let retiming = try Retiming(movie, interval: interval) { out.append(retiming) }
    }
    return out
  }
}
