internal import CFFmpeg

/// Facts about the audio stream an `AudioSampler` decodes, as the container declares them.
public struct AudioStreamInfo: Sendable, Equatable {
  /// Its number among the file's audio streams, from 0 (what `audioStream:` counts).
  public let audioIndex: Int
  /// Its index among all the file's streams (what ffprobe calls `index`).
  public let streamIndex: Int
  /// FFmpeg's short name of the codec, e.g. `aac`, `opus`, `pcm_s16le`.
  public let codecName: String
  /// Samples per second per channel as declared (0 when unknown).
  public let sampleRate: Int
  /// Channels as declared (0 when unknown).
  public let channelCount: Int

  public init(
    audioIndex: Int, streamIndex: Int, codecName: String, sampleRate: Int, channelCount: Int
  ) {
    self.audioIndex = audioIndex
    self.streamIndex = streamIndex
    self.codecName = codecName
    self.sampleRate = sampleRate
    self.channelCount = channelCount
  }

  /// One phrase for messages: `audio stream 1 (aac, 48000 Hz, 2 channels)`.
  public var summary: String { "audio stream \(audioIndex) (\(details))" }

  /// `aac, 48000 Hz, 2 channels`.
  var details: String {
    let channels = channelCount == 1 ? "1 channel" : "\(channelCount) channels"
    return "\(codecName), \(sampleRate) Hz, \(channels)"
  }
}

/// The audio streams of an opened file, and the choice of one.
enum AudioStreams {
  /// Every audio stream of `format`, in file order.
  static func list(
    in format: UnsafeMutablePointer<AVFormatContext>
  ) -> [(info: AudioStreamInfo, stream: UnsafeMutablePointer<AVStream>)] {
    var found: [(AudioStreamInfo, UnsafeMutablePointer<AVStream>)] = []
    for index in 0..<Int(format.pointee.nb_streams) {
      guard let stream = format.pointee.streams[index] else { continue }
      let parameters = stream.pointee.codecpar.pointee
      guard parameters.codec_type == AVMEDIA_TYPE_AUDIO else { continue }
      let info = AudioStreamInfo(
        audioIndex: found.count, streamIndex: index,
        codecName: String(cString: avcodec_get_name(parameters.codec_id)),
        sampleRate: Int(max(0, parameters.sample_rate)),
        channelCount: Int(max(0, parameters.ch_layout.nb_channels)))
      found.append((info, stream))
    }
    return found
  }

  /// The stream numbered `asked` among the audio streams, or FFmpeg's best one
  /// (`av_find_best_stream`, related to the video stream, decoder or not) when nil. Nil when
  /// the file has no audio stream and none was asked for.
  /// - Throws: `MediaError.unreadable` naming the file and the streams it has, when the
  ///   stream asked for does not exist.
  static func choose(
    _ asked: Int?, in format: UnsafeMutablePointer<AVFormatContext>, videoStream: Int32,
    path: String
  ) throws(MediaError) -> (info: AudioStreamInfo, stream: UnsafeMutablePointer<AVStream>)? {
    let streams = list(in: format)
    guard let asked else {
      let best = av_find_best_stream(format, AVMEDIA_TYPE_AUDIO, -1, videoStream, nil, 0)
      guard case .success(let index) = FFmpegCall.status(best, "av_find_best_stream") else {
        return streams.first  // none at all (AVERROR_STREAM_NOT_FOUND)
      }
      return streams.first { $0.info.streamIndex == Int(index) } ?? streams.first
    }
    guard streams.indices.contains(asked) else {
      throw .unreadable(path: path, reason: missingStreamReason(asked, streams.map(\.info)))
    }
    return streams[asked]
  }

  /// `asked for audio stream 5, but it has 2: 0 (aac, 48000 Hz, 2 channels), 1 (…)`.
  static func missingStreamReason(_ asked: Int, _ streams: [AudioStreamInfo]) -> String {
    guard !streams.isEmpty else { return "asked for audio stream \(asked), but it has none" }
    let list = streams.map { "\($0.audioIndex) (\($0.details))" }.joined(separator: ", ")
    return "asked for audio stream \(asked), but it has \(streams.count): \(list)"
  }
}
