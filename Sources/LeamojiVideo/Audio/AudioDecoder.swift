internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// Decodes one audio stream of a demuxer that serves nothing else, every packet in file order.
///
/// The demuxer must be the audio's own: the video sampler jumps with `av_seek_frame` past
/// stretches it need not decode, while sound needs every packet. Other streams are set to
/// `AVDISCARD_ALL`, so the demuxer skips their packets without handing them over. Damaged
/// packets are counted and skipped; a read error ends the stream as the end of the file does.
final class AudioDecoder {
  private let format: FormatContext
  private let stream: UnsafeMutablePointer<AVStream>
  private let codec: CodecContext
  private let packet = Packet()
  /// The end of the file was reached and the decoder told to give out what it holds.
  private var draining = false
  private var finished = false
  private var errorsWhileDraining = 0

  /// Packets the demuxer flagged or the decoder rejected as damaged.
  private(set) var damagedPackets = 0
  /// Frames decoded so far.
  private(set) var decodedFrames = 0

  /// A decoder for `stream` of `format`; throws a sentence saying why there is none.
  init(format: FormatContext, stream: UnsafeMutablePointer<AVStream>) throws(AudioProblem) {
    self.format = format
    self.stream = stream
    for index in 0..<Int(format.pointer.pointee.nb_streams) where index != Int(stream.pointee.index)
    {
      format.pointer.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
    }
    guard let parameters = stream.pointee.codecpar else {
      throw AudioProblem("the audio stream has no codec parameters")
    }
    let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
    guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id),
      let codec = CodecContext(codec: decoder)
    else {
      throw AudioProblem("no decoder for the \(name) audio codec in this FFmpeg")
    }
    self.codec = codec
    do {
      try FFmpegCall.check(
        avcodec_parameters_to_context(codec.pointer, parameters), "avcodec_parameters_to_context")
      codec.pointer.pointee.pkt_timebase = stream.pointee.time_base
      // Audio decoders are cheap; one thread keeps the output the same on every machine.
      codec.pointer.pointee.thread_count = 1
      try FFmpegCall.check(avcodec_open2(codec.pointer, decoder, nil), "avcodec_open2")
    } catch {
      throw AudioProblem("the \(name) audio decoder cannot be opened (\(error.text))")
    }
  }

  /// The next decoded frame, moved into `frame` (its previous content is dropped); false at
  /// the end of the stream.
  func decode(into frame: Frame) -> Bool {
    while !finished {
      frame.unref()
      let received = avcodec_receive_frame(codec.pointer, frame.pointer)
      switch FFmpegCall.status(received, "avcodec_receive_frame") {
      case .success:
        decodedFrames += 1
        return true
      case .endOfFile:
        finished = true
      case .again:
        // A draining decoder never needs input again: wanting some means it is empty.
        if draining { finished = true } else { feedOnePacket() }
      case .failure:
        damagedPackets += 1
        if draining {
          errorsWhileDraining += 1
          if errorsWhileDraining > 64 { finished = true }
        } else {
          feedOnePacket()
        }
      }
    }
    frame.unref()
    return false
  }

  /// Reads the stream's next packet and sends it; at the end of the file, starts draining.
  private func feedOnePacket() {
    guard readPacket() else {
      // Draining cannot fail in a way that matters: the loop ends on what receive says.
      FFmpegCall.ignore(avcodec_send_packet(codec.pointer, nil), "avcodec_send_packet")
      draining = true
      return
    }
    defer { packet.unref() }
    if packet.pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 { damagedPackets += 1 }
    switch FFmpegCall.status(
      avcodec_send_packet(codec.pointer, packet.pointer), "avcodec_send_packet")
    {
    case .success, .again, .endOfFile:
      // EAGAIN cannot happen here: the decoder was just emptied (receive said EAGAIN).
      break
    case .failure:
      damagedPackets += 1
    }
  }

  /// The next packet of the stream into `packet`; false at the end (or a read error, which is
  /// counted as damage and ends the stream).
  private func readPacket() -> Bool {
    switch format.readPacket(ofStream: stream.pointee.index, into: packet) {
    case .packet: return true
    case .end: return false
    case .unreadable:
      damagedPackets += 1
      return false
    }
  }
}

/// Why the sound of a file cannot be used: one sentence, without the file's name.
struct AudioProblem: Error, Equatable {
  let sentence: String
  init(_ sentence: String) { self.sentence = sentence }
}
