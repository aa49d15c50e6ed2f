/// What a packet's own bytes say about decoding it, before it is decoded: whether decoding can
/// start at it with nothing earlier, and whether any other frame can depend on it.
///
/// Read from the H.264 and HEVC unit headers (the same bits the decoders act on), so a
/// container's flags are never trusted alone. Pure byte parsing: no FFmpeg, testable alone.
struct PacketKind: Equatable {
  /// Decoding may begin at this packet: every later frame decodes exactly as if decoding had
  /// started at the beginning (an H.264 or HEVC IDR picture; a key frame of a codec whose key
  /// frames reset every reference).
  var startsClean = false
  /// No other frame refers to this one (an H.264 picture whose slices all have
  /// `nal_ref_idc` 0 and which carries no parameter sets).
  var isDisposable = false
  /// The unit structure is broken (lengths past the end, forbidden bits set): damage.
  var isMalformed = false
}

/// How a codec's packets are read for `PacketKind`.
enum PacketSyntax: Equatable {
  /// H.264: length-prefixed units (`lengthSize` bytes, from avcC) or Annex B start codes (nil).
  case h264(lengthSize: Int?)
  /// HEVC: length-prefixed units (from hvcC) or Annex B start codes (nil).
  case hevc(lengthSize: Int?)
  /// Codecs whose key frames reset every reference (VP8, VP9, AV1, intra-only codecs): the
  /// container's key flag is the whole story; no frame is known to be disposable.
  case keyFrameResets

  /// The syntax of an H.264 or HEVC stream from its extradata: avcC/hvcC (first byte 1) give
  /// the unit length size, anything else means Annex B.
  static func units(hevc: Bool, extradata: [UInt8]) -> PacketSyntax {
    var lengthSize: Int? = nil
    if extradata.first == 1 {
      let at = hevc ? 21 : 4
      if extradata.count > at { lengthSize = Int(extradata[at] & 3) + 1 }
    }
    return hevc ? .hevc(lengthSize: lengthSize) : .h264(lengthSize: lengthSize)
  }

  /// The kind of one packet; `isKey` is the container's key-frame flag.
  func kind(of bytes: UnsafeRawBufferPointer, isKey: Bool) -> PacketKind {
    switch self {
    case .keyFrameResets:
      return PacketKind(startsClean: isKey)
    case .h264(let lengthSize):
      return PacketSyntax.h264Kind(headers: PacketSyntax.unitHeaders(bytes, lengthSize: lengthSize))
    case .hevc(let lengthSize):
      return PacketSyntax.hevcKind(headers: PacketSyntax.unitHeaders(bytes, lengthSize: lengthSize))
    }
  }

  /// H.264 (ITU-T H.264 7.3.1): type = byte & 0x1f, nal_ref_idc = (byte >> 5) & 3.
  private static func h264Kind(headers: [UInt8]?) -> PacketKind {
    guard let headers, !headers.isEmpty else { return PacketKind(isMalformed: true) }
    var kind = PacketKind()
    var slices = 0
    var referenced = false
    var onlyPlainUnits = true
    for header in headers {
      if header & 0x80 != 0 { return PacketKind(isMalformed: true) }
      let type = header & 0x1f
      switch type {
      case 5:
        kind.startsClean = true
        slices += 1
        referenced = referenced || header & 0x60 != 0
      case 1:
        slices += 1
        referenced = referenced || header & 0x60 != 0
      case 6, 9, 12:
        break  // SEI, access unit delimiter, filler
      default:
        onlyPlainUnits = false  // parameter sets, partitions, extensions: keep the packet
      }
    }
    kind.isDisposable = slices > 0 && !referenced && onlyPlainUnits && !kind.startsClean
    return kind
  }

  /// HEVC (ITU-T H.265 7.3.1.2): type = (byte >> 1) & 0x3f; IDR_W_RADL 19, IDR_N_LP 20. Only
  /// IDR pictures count as clean starts (their leading pictures, if any, are decodable); no
  /// HEVC picture is taken as disposable.
  private static func hevcKind(headers: [UInt8]?) -> PacketKind {
    guard let headers, !headers.isEmpty else { return PacketKind(isMalformed: true) }
    var kind = PacketKind()
    for header in headers {
      if header & 0x80 != 0 { return PacketKind(isMalformed: true) }
      let type = (header >> 1) & 0x3f
      if type == 19 || type == 20 { kind.startsClean = true }
    }
    return kind
  }

  /// The first byte of every unit in a packet; nil when the lengths do not add up.
  static func unitHeaders(_ bytes: UnsafeRawBufferPointer, lengthSize: Int?) -> [UInt8]? {
    var headers: [UInt8] = []
    guard let lengthSize else { return annexBHeaders(bytes) }
    var offset = 0
    while offset < bytes.count {
      guard bytes.count - offset >= lengthSize else { return nil }
      var length = 0
      for i in 0..<lengthSize { length = length << 8 | Int(bytes[offset + i]) }
      offset += lengthSize
      guard length > 0, length <= bytes.count - offset else { return nil }
      headers.append(bytes[offset])
      offset += length
    }
    return headers
  }

  /// Units of an Annex B byte stream: the byte after each 00 00 01 start code.
  private static func annexBHeaders(_ bytes: UnsafeRawBufferPointer) -> [UInt8]? {
    var headers: [UInt8] = []
    var zeros = 0
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 1 && zeros >= 2 {
        guard index + 1 < bytes.count else { return nil }
        headers.append(bytes[index + 1])
        index += 2
        zeros = 0
        continue
      }
      zeros = byte == 0 ? zeros + 1 : 0
      index += 1
    }
    return headers
  }
}
