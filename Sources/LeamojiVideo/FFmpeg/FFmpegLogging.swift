internal import CFFmpeg

/// Silences libav's own logging. leamoji reports problems through `MediaError` and counters;
/// FFmpeg's console chatter would otherwise mix into its output. Call once at program start.
public enum FFmpegLogging {
  /// Sets libav's log level to quiet, for the whole process.
  public static func silence() {
    av_log_set_level(AV_LOG_QUIET)
  }
}
