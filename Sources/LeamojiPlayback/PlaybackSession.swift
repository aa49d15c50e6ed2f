import LeamojiAnalysis
import LeamojiCore
import LeamojiTerminal
import LeamojiTimeline
import LeamojiVideo

/// `play`'s work: a video opened for playback, played in the terminal with a timeline entry's
/// cues on screen. The terminal is restored however playing ends (quit, end, error, signal).
public final class PlaybackSession {
  /// What happened while playing, for `--stats` and the exit status.
  public struct Report: Sendable {
    public let framesShown: Int
    public let framesDropped: Int
    /// Output bytes per drawn frame, on average.
    public let bytesPerFrame: Int
    /// The termination signal that ended playing (SIGINT, SIGTERM, SIGHUP), if any.
    public let terminationSignal: Int32?
  }

  private let video: String
  private let playback: VideoPlayback

  /// Whether stdin and stdout are a terminal (`play` needs both).
  public static var hasTerminal: Bool { TerminalSession.isTerminal() }

  /// Opens `video` for playing.
  /// - Throws: `LeamojiError` when it cannot be opened or has no decodable video.
  public init(video: String) throws(LeamojiError) {
    self.video = video
    do {
      playback = try VideoPlayback(path: video)
    } catch {
      throw LeamojiError(error)
    }
  }

  /// Plays the whole video with `movie`'s markers (cues moved to `seekAhead` seconds before
  /// their scenes when given) on a canvas of `fixedSize` cells, or the window's size.
  /// - Throws: `LeamojiError` when the terminal cannot be used or decoding fails midway.
  public func play(movie: Movie, seekAhead: Double?, fixedSize: PixelSize?) throws(LeamojiError)
    -> Report
  {
    var markers = movie.markers
    if let seekAhead {
      markers = markers.map { marker in
        var moved = marker
        moved.cueAt = max(0, moved.second - seekAhead)
        return moved
      }
    }
    let session: TerminalSession
    do {
      session = try TerminalSession()
    } catch {
      throw LeamojiError.unexpected("\(video): cannot use the terminal (\(error))")
    }
    defer { session.restore() }
    let overlay = PlayerOverlay(
      markers: markers, duration: movie.duration, title: movie.title, events: movie.events ?? [])
    var loop = PlayerLoop(
      playback: playback, session: session, overlay: overlay, fixedSize: fixedSize)
    let outcome = loop.run()
    session.restore()
    if case .failed(let message) = outcome {
      throw LeamojiError.unexpected("\(video): \(message)")
    }
    let shown = loop.pacer.framesShown
    let perFrame =
      shown == 0 ? 0 : session.output.bytesWritten / max(1, session.output.buffersWritten)
    return Report(
      framesShown: shown, framesDropped: loop.pacer.framesDropped, bytesPerFrame: perFrame,
      terminationSignal: session.terminationSignal)
  }
}
