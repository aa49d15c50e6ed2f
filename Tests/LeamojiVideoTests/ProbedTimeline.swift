import Foundation

/// An exact fraction, for comparing timestamps without floating-point ties going either way.
struct Fraction: Sendable, Equatable, CustomStringConvertible {
  var num: Int
  var den: Int

  init(_ num: Int, _ den: Int) {
    precondition(den != 0, "zero denominator")
    self.num = den < 0 ? -num : num
    self.den = abs(den)
  }

  /// Parses "1/12800" or "25/1".
  init?(parsing text: String) {
    let parts = text.split(separator: "/")
    guard parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), d != 0 else {
      return nil
    }
    self.init(n, d)
  }

  /// An interval such as 0.5 or 2, exactly (it must be a multiple of 1/1000).
  static func exact(_ value: Double) -> Fraction {
    let millis = (value * 1000).rounded()
    precondition(abs(millis / 1000 - value) < 1e-12, "\(value) is not a whole number of ms")
    return Fraction(Int(millis), 1000)
  }

  var value: Double { Double(num) / Double(den) }
  var description: String { "\(num)/\(den)" }
}

/// One decoded frame as ffprobe reports it, in decoder output order.
struct ProbedFrame: Sendable {
  /// best_effort_timestamp (falling back to pts, then pkt_dts), in stream time-base units.
  var timestamp: Int
  /// The frame's duration (ffprobe's duration or pkt_duration) in time-base units, when the file says.
  var duration: Int?
  var pictureType: String
  var isKeyFrame: Bool
}

/// What ffprobe says about a file's first video stream and its decoded frames: the independent
/// source of truth for the sampler's expectations.
struct ProbedVideo: Sendable {
  var formatName: String
  var formatStartTime: Double?
  var formatDuration: Double?
  var title: String?
  var comment: String?
  var codecName: String
  var width: Int
  var height: Int
  var sampleAspectRatio: Fraction?
  var timeBase: Fraction
  var startPts: Int?
  var startTime: Double?
  var durationTs: Int?
  var duration: Double?
  var averageFrameRate: Fraction?
  var realFrameRate: Fraction?
  /// ffprobe's display-matrix `rotation`: degrees the picture turns anticlockwise on display.
  var displayMatrixRotation: Int?
  var frames: [ProbedFrame]

  /// Runs ffprobe on `url`.
  static func probe(_ url: URL, scratch: URL) throws -> ProbedVideo {
    let entries =
      "stream=codec_name,width,height,sample_aspect_ratio,time_base,start_pts,start_time,"
      + "duration_ts,duration,avg_frame_rate,r_frame_rate:stream_side_data=rotation:"
      + "format=format_name,duration,start_time:format_tags=title,comment:"
      + "frame=best_effort_timestamp,pts,pkt_dts,pkt_duration,duration,pict_type,key_frame"
    let output = try ExternalTools.run(
      "ffprobe",
      ["-v", "error", "-select_streams", "v:0", "-show_entries", entries, "-of", "json", url.path],
      in: scratch)
    guard let root = try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any],
      let stream = (root["streams"] as? [[String: Any]])?.first,
      let format = root["format"] as? [String: Any]
    else { throw FixtureError.badOutput("ffprobe found no video stream in \(url.path)") }
    var frames: [ProbedFrame] = []
    for frame in root["frames"] as? [[String: Any]] ?? [] {
      // `duration` from ffprobe 6 on (FFmpeg 7 dropped `pkt_duration`), `pkt_duration` before.
      let duration = int(frame["duration"]) ?? int(frame["pkt_duration"])
      // A frame without any timestamp (raw elementary streams, the last frame of some MPEG-PS
      // files) follows the previous one by that one's duration.
      let timestamp =
        int(frame["best_effort_timestamp"]) ?? int(frame["pts"]) ?? int(frame["pkt_dts"])
        ?? frames.last.map { $0.timestamp + max(1, $0.duration ?? 0) } ?? int(stream["start_pts"])
        ?? 0
      frames.append(
        ProbedFrame(
          timestamp: timestamp, duration: duration,
          pictureType: frame["pict_type"] as? String ?? "?",
          isKeyFrame: int(frame["key_frame"]) == 1))
    }
    let tags = format["tags"] as? [String: Any]
    let sideData = stream["side_data_list"] as? [[String: Any]] ?? []
    guard let timeBase = (stream["time_base"] as? String).flatMap(Fraction.init(parsing:)) else {
      throw FixtureError.badOutput("ffprobe gave no time base for \(url.path)")
    }
    return ProbedVideo(
      formatName: format["format_name"] as? String ?? "",
      formatStartTime: double(format["start_time"]),
      formatDuration: double(format["duration"]),
      title: tags?["title"] as? String,
      comment: tags?["comment"] as? String,
      codecName: stream["codec_name"] as? String ?? "",
      width: int(stream["width"]) ?? 0,
      height: int(stream["height"]) ?? 0,
      sampleAspectRatio: (stream["sample_aspect_ratio"] as? String).flatMap {
        Fraction(parsing: $0.replacingOccurrences(of: ":", with: "/"))
      },
      timeBase: timeBase,
      startPts: int(stream["start_pts"]),
      startTime: double(stream["start_time"]),
      durationTs: int(stream["duration_ts"]),
      duration: double(stream["duration"]),
      averageFrameRate: (stream["avg_frame_rate"] as? String).flatMap(Fraction.init(parsing:)),
      realFrameRate: (stream["r_frame_rate"] as? String).flatMap(Fraction.init(parsing:)),
      displayMatrixRotation: sideData.compactMap { int($0["rotation"]) }.first,
      frames: frames)
  }

  private static func int(_ value: Any?) -> Int? {
    if let number = value as? NSNumber { return number.intValue }
    if let text = value as? String { return Int(text) }
    return nil
  }

  private static func double(_ value: Any?) -> Double? {
    if let number = value as? NSNumber { return number.doubleValue }
    if let text = value as? String { return Double(text) }
    return nil
  }

  // MARK: - Derived facts

  /// Clockwise quarter turns that show the stored picture upright (0...3).
  var uprightQuarterTurns: Int {
    let degrees = -(displayMatrixRotation ?? 0)
    return (((degrees + 45).floorDiv(90)) % 4 + 4) % 4
  }

  /// Timestamp every time is measured from: the stream start, or 0 when unset.
  var originPts: Int { startPts ?? 0 }

  /// Length of a frame whose packet gives none: the nominal frame interval in time-base units.
  var nominalFrameDuration: Int {
    let rate =
      (averageFrameRate?.num ?? 0) > 0 ? averageFrameRate! : (realFrameRate ?? Fraction(25, 1))
    return max(
      1, Int((Double(rate.den * timeBase.den) / Double(rate.num * timeBase.num)).rounded()))
  }

  /// End of the last frame (largest timestamp + its duration), relative to the origin.
  var lastFrameEnd: Int? {
    guard let last = frames.max(by: { $0.timestamp < $1.timestamp }) else { return nil }
    let length = (last.duration ?? 0) > 0 ? last.duration! : nominalFrameDuration
    return last.timestamp - originPts + length
  }

  /// Whether time-base offset `ticks` (relative to the origin) is <= `time` seconds, exactly.
  func ticks(_ ticks: Int, atOrBefore time: Fraction) -> Bool {
    ticks * timeBase.num * time.den <= time.num * timeBase.den
  }

  /// The stream duration in seconds as a fraction, when known from the stream itself.
  var exactStreamDuration: Fraction? {
    guard let durationTs, durationTs > 0 else { return nil }
    return Fraction(durationTs * timeBase.num, timeBase.den)
  }
}

extension Int {
  fileprivate func floorDiv(_ divisor: Int) -> Int {
    let q = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
  }
}

/// What the sampler must produce for one sample, derived from ffprobe alone.
struct ExpectedSample: Sendable, CustomStringConvertible {
  var k: Int
  var time: Double
  /// Position of the chosen frame in decoder output order.
  var frameNumber: Int
  /// Timestamp of the chosen frame relative to the stream start, in seconds.
  var presentationTime: Double

  var description: String {
    "k=\(k) t=\(time) frame#\(frameNumber) pts=\(presentationTime)"
  }
}

extension ProbedVideo {
  /// The samples of docs/frame-sampling.md:
  /// t_k = k * interval while t_k < duration and while the stream still shows a frame
  /// (t_k < last frame's timestamp + its duration); the frame for t_k is the one with the largest
  /// timestamp <= t_k (relative to the stream start), or the first frame if none.
  func expectedSamples(interval: Fraction) -> [ExpectedSample] {
    guard !frames.isEmpty, let lastEnd = lastFrameEnd else { return [] }
    let relative = frames.map { $0.timestamp - originPts }
    let firstFrame = relative.indices.min(by: { relative[$0] < relative[$1] })!
    var samples: [ExpectedSample] = []
    var k = 0
    while true {
      let t = Fraction(k * interval.num, interval.den)
      // Stop once t_k reaches the end of the last frame (the stream shows nothing any more)...
      if ticks(lastEnd, atOrBefore: t) { break }
      // ...or the duration the stream declares.
      if let d = exactStreamDuration, t.num * d.den >= d.num * t.den { break }
      var chosen = firstFrame
      var best: Int? = nil
      for (i, r) in relative.enumerated() where ticks(r, atOrBefore: t) {
        if best == nil || r >= best! {  // equal timestamps: the later frame replaces the earlier
          best = r
          chosen = i
        }
      }
      samples.append(
        ExpectedSample(
          k: k, time: t.value, frameNumber: chosen,
          presentationTime: Double(relative[chosen] * timeBase.num) / Double(timeBase.den)))
      k += 1
    }
    return samples
  }
}
