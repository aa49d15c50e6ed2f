internal import CFFmpeg

/// Turns decoded audio frames, whatever their layout, sample format and rate, into mono Float
/// at one output rate with libswresample.
///
/// Mixing down uses swresample's default matrix, normalised so that no sum exceeds full scale
/// (`rematrix_maxval` 1): stereo is the mean of its channels; 5.1 weighs the centre 1, the front
/// pair 0.707 (-3 dB) and the surround pair 0.5 (-6 dB), leaves out the LFE, and divides by
/// their sum, 3.41 (measured in `AudioSamplerTests`).
/// The output is in step with the input: its first sample is the first input sample's instant,
/// and `drain` gives out the filter's tail at the end of a run. A frame in a different input
/// format needs a new run (`start`), as does a jump in time (the caller decides).
final class MonoResampler {
  let outputRate: Int32
  private var context: ResamplerContext?
  private var layout: ChannelLayout?
  private var inputFormat: Int32 = -1
  private var inputRate: Int32 = 0

  init(outputRate: Int) {
    self.outputRate = Int32(outputRate)
  }

  /// The input rate of the current run (0 when there is none).
  var rate: Int { context == nil ? 0 : Int(inputRate) }

  /// Whether `frame` can go into the current run as it is.
  func accepts(_ frame: Frame) -> Bool {
    let decoded = frame.pointer.pointee
    guard context != nil, let layout, decoded.format == inputFormat,
      decoded.sample_rate == inputRate
    else { return false }
    return layout.matches(frame)
  }

  /// Starts a new run for `frame`'s layout, format and rate (whatever the last run held is
  /// dropped: `drain` it first).
  func start(for frame: Frame) throws(AudioProblem) {
    context = nil
    let decoded = frame.pointer.pointee
    guard decoded.sample_rate > 0, decoded.sample_rate <= 1_536_000 else {
      throw AudioProblem("the audio decoder gave a sample rate of \(decoded.sample_rate) Hz")
    }
    guard let layout = ChannelLayout(of: frame), layout.channelCount > 0 else {
      throw AudioProblem("the audio decoder gave a frame without channels")
    }
    do {
      context = try ResamplerContext(
        from: layout, format: decoded.format, rate: decoded.sample_rate, outputRate: outputRate)
    } catch {
      throw AudioProblem(
        "libswresample cannot convert \(layout.channelCount) channels at"
          + " \(decoded.sample_rate) Hz (\(error.text))")
    }
    self.layout = layout
    inputFormat = decoded.format
    inputRate = decoded.sample_rate
  }

  /// `frame`'s samples, converted (the last few stay inside the filter until more come).
  func convert(_ frame: Frame) throws(AudioProblem) -> [Float] {
    try run(frame)
  }

  /// What the filter still holds, and the end of the run.
  func drain() throws(AudioProblem) -> [Float] {
    guard context != nil else { return [] }
    defer { context = nil }
    return try run(nil)
  }

  private func run(_ frame: Frame?) throws(AudioProblem) -> [Float] {
    guard let context else { return [] }
    let input = frame.map { Int32($0.pointer.pointee.nb_samples) } ?? 0
    let capacity = swr_get_out_samples(context.pointer, input)
    guard capacity >= 0 else {
      throw AudioProblem("libswresample failed (\(ffmpegErrorText(capacity)))")
    }
    var output = [Float](repeating: 0, count: Int(capacity) + 1)
    let written = output.withUnsafeMutableBufferPointer { buffer in
      cffmpeg_swr_convert_to_float(
        context.pointer, buffer.baseAddress, Int32(buffer.count), frame?.pointer)
    }
    guard case .success(let count) = FFmpegCall.status(written, "swr_convert") else {
      throw AudioProblem("libswresample failed (\(ffmpegErrorText(written)))")
    }
    output.removeLast(output.count - Int(count))
    return output
  }
}
