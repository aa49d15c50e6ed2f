internal import CFFmpeg

/// What reading the next packet of one stream gave.
enum PacketRead {
  /// A packet of the stream, now in the caller's `Packet`.
  case packet
  /// The end of the file.
  case end
  /// The rest of the file cannot be read (a read error, or EAGAIN that never ends): damage.
  case unreadable
}

extension FormatContext {
  /// Reads packets until one of the stream `index` is in `packet` (others are dropped): the one
  /// read loop of the video queue and the audio decoder, each on its own demuxer.
  func readPacket(ofStream index: Int32, into packet: Packet) -> PacketRead {
    var retries = 0
    while true {
      switch FFmpegCall.status(av_read_frame(pointer, packet.pointer), "av_read_frame") {
      case .success:
        if packet.pointer.pointee.stream_index == index { return .packet }
        packet.unref()
      case .again where retries < 100:
        retries += 1
      case .endOfFile:
        return .end
      case .again, .failure:
        return .unreadable
      }
    }
  }
}
