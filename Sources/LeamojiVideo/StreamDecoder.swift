internal import CFFmpeg

/// Decodes the chosen video stream of a `VideoFile` frame by frame, in presentation order.
/// Read → skip other streams → send → receive until EAGAIN; at the end of the file, flush and
/// drain. Damaged packets are counted and skipped; they never end decoding early, and a
/// damaged file never looks like a normal end of stream to the caller (see `corruptPackets`).
final class StreamDecoder {
  let file: VideoFile
  private let codec: CodecContext
  private let packet = Packet()
  private let scratch = Frame()
  private var flushed = false
  private var finished = false
  private var errorsAfterFlush = 0

  /// Packets or frames the demuxer or decoder rejected as damaged.
  private(set) var corruptPackets = 0
  /// Frames successfully decoded so far.
  private(set) var decodedFrames = 0

  /// - Parameter threads: decoder threads; 0 lets FFmpeg choose (one per core).
  init(file: VideoFile, threads: Int32 = 0) throws(MediaError) {
    self.file = file
    guard let codec = CodecContext(codec: file.decoder) else {
      throw .noDecoder(path: file.info.path, codec: file.info.codecName)
    }
    self.codec = codec
    let code = avcodec_parameters_to_context(codec.pointer, file.stream.pointee.codecpar)
    if code < 0 { throw .corrupt(path: file.info.path, reason: ffmpegErrorText(code)) }
    codec.pointer.pointee.pkt_timebase = file.stream.pointee.time_base
    codec.pointer.pointee.thread_count = threads
    // A stream may change size midway; no picture beyond the limit is ever allocated.
    codec.pointer.pointee.max_pixels = Int64(PictureLimit.maximumPixels)
    let opened = avcodec_open2(codec.pointer, file.decoder, nil)
    if opened < 0 {
      throw .noDecoder(path: file.info.path, codec: "\(file.info.codecName) (\(ffmpegErrorText(opened)))")
    }
  }

  /// The next decoded picture, moved into `frame` (its previous content is dropped); false at
  /// the end of the stream.
  func decode(into frame: Frame) -> Bool {
    while !finished {
      let received = avcodec_receive_frame(codec.pointer, scratch.pointer)
      if received == 0 {
        decodedFrames += 1
        if scratch.pointer.pointee.decode_error_flags != 0 { corruptPackets += 1 }
        frame.unref()
        av_frame_move_ref(frame.pointer, scratch.pointer)
        return true
      }
      if received == AVCode.endOfFile {
        finished = true
        break
      }
      if received != AVCode.again {
        // A damaged picture: count it and keep feeding packets.
        corruptPackets += 1
      }
      if flushed {
        // A flushed decoder never needs input again: EAGAIN now, or error after error, means done.
        errorsAfterFlush += 1
        if received == AVCode.again || errorsAfterFlush > 64 { finished = true }
        continue
      }
      feedOnePacket()
    }
    return false
  }

  /// Moves to the key frame at or before `ticks` (stream time base, absolute) and empties the
  /// decoder, so that the next decoded frames start there. False when the demuxer cannot seek.
  func seek(toTicks ticks: Int64) -> Bool {
    let code = av_seek_frame(file.format.pointer, file.stream.pointee.index, ticks, AVSEEK_FLAG_BACKWARD)
    guard code >= 0 else { return false }
    avcodec_flush_buffers(codec.pointer)
    flushed = false
    finished = false
    errorsAfterFlush = 0
    return true
  }

  /// Reads packets until one of our stream's is handed to the decoder, or flushes at the end.
  private func feedOnePacket() {
    var retries = 0
    while true {
      let read = av_read_frame(file.format.pointer, packet.pointer)
      if read == AVCode.again && retries < 100 {
        retries += 1
        continue
      }
      if read < 0 {
        if read != AVCode.endOfFile { corruptPackets += 1 }
        flushed = true
        avcodec_send_packet(codec.pointer, nil)
        return
      }
      defer { packet.unref() }
      if packet.pointer.pointee.stream_index != file.stream.pointee.index { continue }
      if packet.pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 { corruptPackets += 1 }
      let sent = avcodec_send_packet(codec.pointer, packet.pointer)
      if sent < 0 && sent != AVCode.again {
        corruptPackets += 1
        continue
      }
      return
    }
  }
}
