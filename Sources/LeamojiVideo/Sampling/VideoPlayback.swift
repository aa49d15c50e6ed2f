import LeamojiCore

/// Every frame of a video in presentation order, for playing it: decode one frame at a time,
/// convert only the frames that are shown, and seek accurately (the frame returned by a seek is
/// the frame on screen at the new time, not merely the nearest key frame).
public final class VideoPlayback {
  private let file: VideoFile
  private let decoder: StreamDecoder
  /// Leaves out frames a seek does not need (nil when every frame is decoded).
  private let seekShortcut: SeekShortcut?
  private let scaler = Scaler()
  private var current = Frame()
  private var lookahead = Frame()
  private var currentTime: Double? = nil
  private var lookaheadTime: Double? = nil

  /// Facts about the video.
  public var info: VideoInfo { file.info }
  /// Frames decoded so far (shown or not).
  public var decodedFrameCount: Int { decoder.decodedFrames }
  /// Damaged packets skipped so far.
  public var corruptPacketCount: Int { decoder.corruptPackets }

  /// Opens `path` for playback.
  /// - Parameter decodeEverything: seek by decoding every frame from the key frame on, rather
  ///   than leaving out frames that cannot be on screen at the target (the same result).
  /// - Throws: `MediaError` naming the file.
  public init(path: String, decodeEverything: Bool = false) throws(MediaError) {
    let file = try VideoFile(path: path)
    self.file = file
    let syntax = decodeEverything ? nil : SamplingShortcuts.syntax(for: file).0
    decoder = try StreamDecoder(file: file, syntax: syntax)
    seekShortcut = syntax.map { _ in SeekShortcut(clock: file.clock) }
    decoder.filter = seekShortcut
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
    currentTime = decoder.decode(into: current).map { file.clock.seconds($0.ticks) }
    return currentTime
  }

  /// The current frame (from the last `advance` or `seek`) as upright RGB at `size`.
  public func image(size: PixelSize) throws(MediaError) -> RGBImage {
    guard currentTime != nil else {
      throw .corrupt(path: file.info.path, reason: "no decoded frame to show")
    }
    return try scaler.uprightImage(from: current.pointer, size: size, clock: file.clock)
  }

  /// Moves to `time` seconds (clamped to the video) and makes the frame on screen at that time
  /// current; returns its presentation time, or nil when nothing can be decoded there.
  public func seek(to time: Double) -> Double? {
    let target = max(0, min(time, file.info.duration ?? time))
    guard decoder.seek(toTicks: file.clock.absoluteTicks(atSeconds: target)) else { return nil }
    seekShortcut?.seekStarted(to: target)
    defer { seekShortcut?.target = nil }
    lookaheadTime = nil
    var found: Double? = nil
    // Decode forward from the key frame: keep the last frame starting at or before the target.
    while let stamp = decoder.decode(into: lookahead) {
      let t = file.clock.seconds(stamp.ticks)
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
}
