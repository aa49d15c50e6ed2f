internal import CFFmpeg

#if canImport(Glibc)
  import Glibc
#endif

/// Decodes the chosen video stream of a `VideoFile` frame by frame, in presentation order, and
/// stamps each frame with its place on the stream's clock.
///
/// The loop: receive until the decoder wants input; then read the next packet of our stream
/// and send it; at the end of the file, drain. Reading and sending are separate steps, so that
/// a caller deciding per packet what to decode has one place to stand between them.
/// Damaged packets are counted and skipped; they never end decoding early, and a damaged file
/// never looks like a normal end of stream to the caller (see `corruptPackets`).
final class StreamDecoder {
  let file: VideoFile
  private let codec: CodecContext
  private let scratch = Frame()
  /// The packets read ahead of the decoder.
  let queue: PacketQueue
  /// Decides per packet whether it is decoded at all (nil: every packet is).
  weak var filter: PacketFilter? = nil {
    didSet { queue.filter = filter }
  }
  /// Some packet went to the decoder since it was opened or last flushed.
  private var sentSinceFlush = false
  /// Draining only to empty the decoder before decoding goes on at a clean start.
  private var restartAfterDrain = false
  /// Jumps to a clean start go straight on without draining or emptying the decoder (see
  /// `keepsDecodingAcrossJumps`).
  private let keepsDecodingAcrossJumps: Bool
  /// The end of the file was reached and the decoder told to give out what it holds.
  private var draining = false
  private var finished = false
  private var errorsWhileDraining = 0
  private var lastStamp: FrameStamp? = nil

  /// Packets or frames the demuxer or decoder rejected as damaged.
  var corruptPackets: Int { decoderErrors + queue.corruptPackets }
  private var decoderErrors = 0
  /// Packets the filter kept from the decoder.
  private(set) var skippedPackets = 0
  /// Frames successfully decoded so far.
  private(set) var decodedFrames = 0

  /// One decoder thread per core: FFmpeg's own choice is one more than that, which holds one
  /// more picture set in memory (8 MB at 1080p) and measured no faster on 2 cores.
  static let threadsPerCore = Int32(max(1, min(16, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

  /// - Parameters:
  ///   - threads: decoder threads; 0 lets FFmpeg choose (one per core plus one).
  ///   - syntax: how the queue reads packet kinds (nil: not at all).
  init(file: VideoFile, threads: Int32 = 0, syntax: PacketSyntax? = nil) throws(MediaError) {
    self.file = file
    queue = PacketQueue(file: file, syntax: syntax)
    keepsDecodingAcrossJumps = syntax.map(Self.keepsDecodingAcrossJumps) ?? false
    let path = file.info.path
    guard let codec = CodecContext(codec: file.decoder) else {
      throw .noDecoder(path: path, codec: file.info.codecName)
    }
    self.codec = codec
    do {
      try FFmpegCall.check(
        avcodec_parameters_to_context(codec.pointer, file.stream.pointee.codecpar),
        "avcodec_parameters_to_context")
    } catch {
      throw .corrupt(path: path, reason: error.text)
    }
    codec.pointer.pointee.pkt_timebase = file.stream.pointee.time_base
    codec.pointer.pointee.thread_count = threads
    // A stream may change size midway; no picture beyond the limit is ever allocated.
    codec.pointer.pointee.max_pixels = Int64(PictureLimit.maximumPixels)
    do {
      try FFmpegCall.check(avcodec_open2(codec.pointer, file.decoder, nil), "avcodec_open2")
    } catch {
      throw .noDecoder(path: path, codec: "\(file.info.codecName) (\(error.text))")
    }
  }

  /// The next decoded picture, moved into `frame` (its previous content is dropped), and where
  /// it sits on the stream clock; nil at the end of the stream.
  func decode(into frame: Frame) -> FrameStamp? {
    while !finished {
      let received = avcodec_receive_frame(codec.pointer, scratch.pointer)
      switch FFmpegCall.status(received, "avcodec_receive_frame") {
      case .success:
        return take(into: frame)
      case .endOfFile:
        if restartAfterDrain { restartDrained() } else { finished = true }
      case .again:
        // A draining decoder never needs input again: wanting some means it is empty.
        if draining {
          if restartAfterDrain { restartDrained() } else { finished = true }
        } else {
          feedOnePacket()
        }
      case .failure:
        // A damaged picture: count it and go on.
        damaged()
        if draining {
          errorsWhileDraining += 1
          if errorsWhileDraining > 64 { finished = true }
        } else {
          feedOnePacket()
        }
      }
    }
    return nil
  }

  /// Moves to the key frame at or before `ticks` (stream time base, absolute) and empties the
  /// decoder, so that the next decoded frames start there. False when the demuxer cannot seek
  /// (nothing changes then).
  func seek(toTicks ticks: Int64) -> Bool {
    let code = av_seek_frame(
      file.format.pointer, file.stream.pointee.index, ticks, AVSEEK_FLAG_BACKWARD)
    guard case .success = FFmpegCall.status(code, "av_seek_frame") else { return false }
    queue.reset()
    avcodec_flush_buffers(codec.pointer)
    sentSinceFlush = false
    restartAfterDrain = false
    draining = false
    finished = false
    errorsWhileDraining = 0
    lastStamp = nil
    return true
  }

  /// Back to the first frame of the stream with the counters at zero, as if just opened:
  /// false when the demuxer cannot seek there.
  func rewind() -> Bool {
    guard seek(toTicks: file.clock.startTicks) else { return false }
    decoderErrors = 0
    skippedPackets = 0
    queue.resetCounters()
    return true
  }

  /// Drops the `count` oldest queued packets, so that decoding goes on afresh at the packet
  /// after them (which must be a clean start). Where the decoder is emptied (see
  /// `keepsDecodingAcrossJumps`), the frames it held are dropped with it; otherwise they still
  /// come out, before the clean start's.
  func restart(dropping count: Int) {
    leaveOut(queued: count)
    if keepsDecodingAcrossJumps { return }
    if sentSinceFlush {
      avcodec_flush_buffers(codec.pointer)
      sentSinceFlush = false
    }
  }

  /// Drops the `count` oldest queued packets undecoded, and counts them as skipped.
  private func leaveOut(queued count: Int) {
    queue.drop(count)
    skippedPackets += count
  }

  /// The drain before a jump is over: empty the decoder and go on with the queued packets.
  private func restartDrained() {
    avcodec_flush_buffers(codec.pointer)
    restartAfterDrain = false
    draining = false
    sentSinceFlush = false
    errorsWhileDraining = 0
  }

  /// Counts one damaged packet or picture.
  private func damaged() {
    decoderErrors += 1
    filter?.sawDamage()
  }

  /// Moves the picture just received into `frame` and stamps it.
  private func take(into frame: Frame) -> FrameStamp {
    decodedFrames += 1
    if scratch.pointer.pointee.decode_error_flags != 0 { damaged() }
    if let filter {
      let decoded = scratch.pointer.pointee
      filter.didDecode(
        pts: StreamClock.timestamp(decoded.pts),
        bestEffort: StreamClock.timestamp(decoded.best_effort_timestamp))
    }
    frame.unref()
    av_frame_move_ref(frame.pointer, scratch.pointer)
    let stamp = file.clock.stamp(frame, after: lastStamp)
    lastStamp = stamp
    return stamp
  }

  /// Hands the decoder the next packet it accepts (and the filter lets through), or starts
  /// draining at the end of the file.
  private func feedOnePacket() {
    while let (packet, facts) = queue.take() {
      defer { queue.recycle(packet) }
      switch filter?.decision(for: facts, queue: queue) ?? .decode {
      case .decode:
        break
      case .skip:
        skippedPackets += 1
        continue
      case .jump(let dropping):
        // Everything this packet on up to a clean start is left out; what the decoder holds
        // comes out first, then the clean start's frames.
        skippedPackets += 1
        leaveOut(queued: dropping)
        if keepsDecodingAcrossJumps { continue }
        restartAfterDrain = true
        startDraining()
        return
      }
      if send(packet) {
        sentSinceFlush = true
        filter?.didSend(facts)
        return
      }
    }
    startDraining()
  }

  /// Sends `packet` to the decoder; false (and counted) when the decoder refuses it.
  private func send(_ packet: Packet) -> Bool {
    switch FFmpegCall.status(
      avcodec_send_packet(codec.pointer, packet.pointer), "avcodec_send_packet")
    {
    case .success:
      return true
    case .again:
      // Not expected: packets are sent only after every output was received, and FFmpeg
      // promises that a send then succeeds. Back to receiving; the packet is lost, so counted.
      damaged()
      return true
    case .endOfFile, .failure:
      damaged()
      return false
    }
  }

  /// Tells the decoder the stream has ended, so that it gives out the pictures it still holds.
  private func startDraining() {
    draining = true
    switch FFmpegCall.status(avcodec_send_packet(codec.pointer, nil), "avcodec_send_packet") {
    case .success, .endOfFile:
      break  // end-of-file: it was draining already
    case .again, .failure:
      // It cannot drain: the pictures it holds are lost, which is damage, and nothing follows.
      damaged()
      finished = true
    }
  }
}

extension StreamDecoder {
  /// Whether decoding may go straight on at a clean start after packets were left out, with
  /// no drain and no `avcodec_flush_buffers`: true for H.264 and for codecs whose key frames
  /// reset every reference (VP8, VP9, intra-only). A clean start decodes the same whatever
  /// came before it (that is what makes it one), and these decoders hand out every frame they
  /// hold before the clean start's: an H.264 IDR picture ends the reordering of the pictures
  /// before it (FFmpeg ignores `no_output_of_prior_pics_flag`), VP8/VP9 and intra-only codecs
  /// do not reorder. Draining instead stops FFmpeg's frame threads at every jump (one waits
  /// idle while the other finishes), and emptying restarts them from an empty pipeline: going
  /// straight on measured 2-13 % faster on the 1080p 2 s GOP bench clip (29 jumps a minute).
  /// HEVC drains and empties: an IDR picture with `no_output_of_prior_pics_flag` drops the
  /// pictures still held (FFmpeg's HEVC decoder honours the flag).
  static func keepsDecodingAcrossJumps(_ syntax: PacketSyntax) -> Bool {
    switch syntax {
    case .h264, .keyFrameResets: true
    case .hevc: false
    }
  }
}

/// Decides per packet whether a `StreamDecoder` decodes it, and hears what was decoded.
protocol PacketFilter: AnyObject {
  /// What to do with the packet described by `facts` (just taken from `queue`).
  func decision(for facts: PacketFacts, queue: PacketQueue) -> PacketDecision
  /// A packet was read from the file (before it is queued).
  func didRead(_ facts: PacketFacts)
  /// A packet went to the decoder.
  func didSend(_ facts: PacketFacts)
  /// A picture came out, with its own and its best-effort timestamp (absolute ticks).
  func didDecode(pts: Int64?, bestEffort: Int64?)
  /// The decoder rejected a packet or reported a damaged picture.
  func sawDamage()
}

/// What a `PacketFilter` does with a packet.
enum PacketDecision: Equatable {
  /// Send it to the decoder.
  case decode
  /// Leave it out.
  case skip
  /// Leave it and the next `dropping` queued packets out, let the decoder give out what it
  /// holds, then empty it: decoding goes on at the packet after them, a clean start.
  case jump(dropping: Int)
}
