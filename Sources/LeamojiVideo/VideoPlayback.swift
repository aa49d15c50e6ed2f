internal import CFFmpeg
import LeamojiCore

/// Every frame of a video in presentation order, for playing it: decode one frame at a time,
/// convert only the frames that are shown, and seek accurately (the frame returned by a seek is
/// the frame on screen at the new time, not merely the nearest key frame).
public final class VideoPlayback {
  private let file: VideoFile
  private let decoder: StreamDecoder
  private let scaler = Scaler()
  private var current = Frame()
  private var lookahead = Frame()
  private var currentTime: Double? = nil
  private var lookaheadTime: Double? = nil
  private var lastTicks: Int64? = nil

  /// Facts about the video.
  public var info: VideoInfo { file.info }
  /// Frames decoded so far (shown or not).
  public var decodedFrameCount: Int { decoder.decodedFrames }
  /// Damaged packets skipped so far.
  public var corruptPacketCount: Int { decoder.corruptPackets }

  /// Opens `path` for playback.
  /// - Throws: `MediaError` naming the file.
  public init(path: String) throws(MediaError) {
    file = try VideoFile(path: path)
    decoder = try StreamDecoder(file: file)
  }

  /// Decodes the next frame and returns its presentation time in seconds from the stream's
  /// start; nil at the end. The frame is not converted until `image(size:)` asks for it, so a
  /// player can skip late frames cheaply.
  public func advance() -> Double? {
    if let time = lookaheadTime {
      swap(&current, &lookahead)
      lookahead.unref()
      lookaheadTime = nil
      currentTime = time
      return time
    }
    guard decoder.decode(into: current) else {
      currentTime = nil
      return nil
    }
    currentTime = seconds(of: current)
    return currentTime
  }

  /// The current frame (from the last `advance` or `seek`) as upright RGB at `size`.
  public func image(size: PixelSize) throws(MediaError) -> RGBImage {
    guard currentTime != nil else { throw .corrupt(path: file.info.path, reason: "no decoded frame to show") }
    let turns = file.info.rotation / 90
    let scaled = turns % 2 == 1 ? PixelSize(width: size.height, height: size.width) : size
    return try scaler.rgbImage(from: current.pointer, size: scaled, quarterTurns: turns)
  }

  /// Moves to `time` seconds (clamped to the video) and makes the frame on screen at that time
  /// current; returns its presentation time, or nil when nothing can be decoded there.
  public func seek(to time: Double) -> Double? {
    let target = max(0, min(time, file.info.duration ?? time))
    let base = file.timeBase
    let ticks = Int64((target * Double(base.den) / Double(base.num)).rounded(.down)) + file.startTicks
    guard decoder.seek(toTicks: ticks) else { return nil }
    lookaheadTime = nil
    lastTicks = nil
    var found: Double? = nil
    // Decode forward: keep the last frame starting at or before the target.
    while decoder.decode(into: lookahead) {
      let t = seconds(of: lookahead)
      if t <= target || found == nil {
        swap(&current, &lookahead)
        found = t
        if t > target { break }
        continue
      }
      lookaheadTime = t
      break
    }
    currentTime = found
    return found
  }

  /// Presentation time of a decoded frame in seconds relative to the stream start; frames
  /// without a timestamp continue from the previous one.
  private func seconds(of frame: Frame) -> Double {
    let f = frame.pointer.pointee
    var ticks: Int64
    if f.best_effort_timestamp != AVCode.noPTS {
      ticks = f.best_effort_timestamp - file.startTicks
    } else {
      ticks = (lastTicks ?? -1) + max(1, f.pkt_duration)
    }
    lastTicks = ticks
    return file.timeBase.seconds(ticks)
  }
}
