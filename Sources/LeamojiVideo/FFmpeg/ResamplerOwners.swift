internal import CFFmpeg

// The audio side's FFmpeg allocations, each with one Swift owner that frees it in `deinit`, in
// the style of `FFmpegOwners.swift`.

/// Owns a `SwrContext` (libswresample) that turns one input format into mono Float.
final class ResamplerContext {
  let pointer: OpaquePointer

  /// An initialised resampler from `layout`, `format` (an `AVSampleFormat`) and `rate` to packed
  /// mono Float at `outputRate`, mixing with swresample's default matrix.
  init(
    from layout: ChannelLayout, format: Int32, rate: Int32, outputRate: Int32
  ) throws(FFmpegCallError) {
    var context: OpaquePointer? = nil
    let allocated = cffmpeg_swr_alloc_mono_float(
      &context, &layout.value, format, rate, outputRate)
    // On failure swr_alloc_set_opts2 frees what it allocated and leaves the pointer NULL; a
    // context it made is freed here when setting the matrix's bound failed.
    guard let context else {
      try FFmpegCall.check(allocated, "swr_alloc_set_opts2")
      throw FFmpegCallError(function: "swr_alloc_set_opts2", code: AVCode.posix(ENOMEM))
    }
    pointer = context
    try FFmpegCall.check(allocated, "swr_alloc_set_opts2")
    // From here `self` owns the context: a failing swr_init leaves it to deinit.
    try FFmpegCall.check(swr_init(context), "swr_init")
  }

  deinit {
    var context: OpaquePointer? = pointer
    swr_free(&context)
  }
}

/// Owns an `AVChannelLayout`: a layout in custom order holds an allocated channel map.
final class ChannelLayout {
  var value = AVChannelLayout()

  /// The layout of a decoded audio frame (FFmpeg's default for its channel count when the
  /// decoder left the order unspecified); nil when the frame has no channels or no memory.
  init?(of frame: Frame) {
    guard
      case .success = FFmpegCall.status(
        cffmpeg_frame_channel_layout(frame.pointer, &value), "av_channel_layout_copy")
    else { return nil }
  }

  /// Whether `frame` has this layout (after the same unspecified-order rule).
  func matches(_ frame: Frame) -> Bool {
    guard let other = ChannelLayout(of: frame) else { return false }
    return cffmpeg_same_channel_layout(&value, &other.value) != 0
  }

  var channelCount: Int { Int(value.nb_channels) }

  deinit {
    av_channel_layout_uninit(&value)
  }
}
