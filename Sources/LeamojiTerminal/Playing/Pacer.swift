/// What to do with one decoded frame.
public enum FrameDecision: Equatable, Sendable {
  /// Show it once `delay` seconds have passed (0: now). Wait with `TerminalSession.readKeys`
  /// so keys stay responsive, and ask `Pacer.delay(until:)` again after each wake-up.
  case show(delay: Double)
  /// Too late: skip it (never queue it) and decode the next one.
  case drop
  /// Playback is paused: keep the frame and ask again after `resume()`.
  case paused
}

/// Schedules frames by presentation time against a monotonic clock.
///
/// The schedule is anchored: a frame's deadline is `anchorWall + (pts - anchorPTS)`, where the
/// anchor is the moment playback started, resumed or finished a seek. Deadlines are therefore
/// measured from the anchor, not "sleep one frame period after each frame", so time spent
/// decoding and drawing never accumulates as drift. A frame late by more than a frame period,
/// or whose successor is already due, is dropped.
///
/// After `start` and `seek(to:)` the anchor is taken when the first frame arrives, so the time
/// spent decoding up to it (e.g. from the key frame before a seek target) does not make the
/// following frames late.
public struct Pacer {
  /// Nominal time between frames in seconds (1 / frame rate).
  public let framePeriod: Double
  /// Longest time without a shown frame (wall seconds) before a late frame is shown anyway, so
  /// that a decoder slower than real time gives a slide show rather than a frozen picture.
  /// nil: always drop late frames.
  public var maximumFreeze: Double?

  /// Frames `decide` said to show.
  public private(set) var framesShown = 0
  /// Frames `decide` said to drop.
  public private(set) var framesDropped = 0
  /// True between `pause()` and `resume()`.
  public private(set) var isPaused = false

  private let clock: any PlaybackClock
  private var anchorWall = 0.0
  private var anchorPTS = 0.0
  /// Set until the first frame after start or a seek: the media time to anchor at.
  private var pendingAnchor: Double?
  /// Media time while paused.
  private var pausedAt = 0.0
  private var lastShownWall: Double

  /// - Parameters:
  ///   - clock: the time source (`MonotonicClock()` in the player).
  ///   - framePeriod: seconds per frame (1/30 for 30 fps); must be positive.
  ///   - startTime: media time at which playback starts.
  ///   - maximumFreeze: see `maximumFreeze`.
  public init(
    clock: any PlaybackClock, framePeriod: Double, startTime: Double = 0,
    maximumFreeze: Double? = 0.5
  ) {
    precondition(framePeriod > 0 && framePeriod.isFinite, "frame period must be positive")
    self.clock = clock
    self.framePeriod = framePeriod
    self.maximumFreeze = maximumFreeze
    pendingAnchor = startTime
    pausedAt = startTime
    lastShownWall = clock.now()
  }

  /// The current media time in seconds: where the playhead is (the status bar clock). Stands
  /// still while paused and at the target of a seek until its first frame arrives.
  public var mediaTime: Double {
    if isPaused { return pausedAt }
    if let pending = pendingAnchor { return pending }
    return anchorPTS + (clock.now() - anchorWall)
  }

  /// The wall-clock deadline of a frame presented at `pts` (in `clock` seconds).
  public func deadline(for pts: Double) -> Double {
    anchorWall + (pts - anchorPTS)
  }

  /// Seconds until the frame at `pts` is due (0 when due or late, or not yet anchored).
  public func delay(until pts: Double) -> Double {
    guard !isPaused, pendingAnchor == nil else { return 0 }
    return max(0, deadline(for: pts) - clock.now())
  }

  /// Decides about the frame presented at `pts`, and counts the decision.
  ///
  /// - Parameters:
  ///   - pts: the frame's presentation time in seconds.
  ///   - nextPTS: the following frame's presentation time, when already known.
  /// - Returns: `.show(delay:)` when on time or early; `.drop` when late by more than a frame
  ///   period or when `nextPTS` is already due; `.paused` while paused (nothing counted).
  public mutating func decide(pts: Double, nextPTS: Double? = nil) -> FrameDecision {
    if isPaused { return .paused }
    let now = clock.now()
    if let pending = pendingAnchor {
      // First frame after start / seek: it defines the schedule.
      anchorWall = now
      anchorPTS = pts >= pending ? pending : pts
      pendingAnchor = nil
    }
    let due = deadline(for: pts)
    let late = now - due > framePeriod || nextPTS.map { deadline(for: $0) <= now } == true
    if late, maximumFreeze.map({ now - lastShownWall < $0 }) ?? true {
      framesDropped += 1
      return .drop
    }
    framesShown += 1
    lastShownWall = max(now, due)
    return .show(delay: max(0, due - now))
  }

  /// Stops media time (the picture stays, `mediaTime` stands still).
  public mutating func pause() {
    guard !isPaused else { return }
    pausedAt = mediaTime
    isPaused = true
  }

  /// Starts media time again from where it was paused, anchored at this moment.
  public mutating func resume() {
    guard isPaused else { return }
    isPaused = false
    if pendingAnchor != nil {
      pendingAnchor = pausedAt
    } else {
      anchorWall = clock.now()
      anchorPTS = pausedAt
    }
    lastShownWall = clock.now()
  }

  /// Moves media time to `time`; the schedule restarts there with the next frame passed to
  /// `decide`. While paused, playback stays paused at `time`.
  public mutating func seek(to time: Double) {
    pausedAt = time
    pendingAnchor = time
    lastShownWall = clock.now()
  }
}
