internal import CFFmpeg

/// Decides, for a `FrameSampler`, which packets need not be decoded, so that sampling costs
/// follow the samples rather than the film — without ever changing which frame a sample shows.
///
/// Two shortcuts, both decided from packet timestamps and the packets' own unit headers:
/// * **Disposable frames** (H.264 pictures no other picture refers to) are not decoded when
///   they cannot be on screen at a sample time: another packet starts after them and no later
///   than the first sample time at or after them, or they start before the frame already
///   chosen.
/// * **Skipping to a clean start:** before decoding towards sample time T, the packets up to T
///   are read ahead; at the last packet where decoding can start afresh (an IDR picture, a key
///   frame that resets every reference) that starts at or before T and after every packet
///   before it, the packets before it are dropped and the decoder is emptied. Every frame that
///   could be on screen at T or later comes from that packet on.
///
/// What these rest on is checked as decoding goes: every packet has a presentation time, the
/// decoder hands frames out in time order with exactly their packets' times, nothing is
/// damaged. The first time one fails, the shortcuts switch off for the rest of the file and
/// everything is decoded (`fallbackReason` says why).
final class SamplingShortcuts: PacketFilter {
  private let decoder: StreamDecoder
  private let clock: StreamClock
  private let interval: SampleInterval
  private let end: ExactTime?
  /// Why the shortcuts are off (nil while they are on).
  private(set) var fallbackReason: String? = nil
  /// Start of the frame the sampler currently holds as the answer (nil before the first).
  var candidateTicks: Int64? = nil
  /// The sample time the sampler is answering now.
  var sampleTime: ExactTime? = nil
  /// Times of the latest packets sent since the decoder last started afresh.
  private var recentSent: [Int64] = []
  private var maxSentTicks: Int64? = nil
  private var lastOutputTicks: Int64? = nil
  /// Times the decoder was emptied to start afresh at a later packet.
  private(set) var restarts = 0

  /// How far ahead packets are read when looking for a clean start (bounds memory).
  static let lookaheadPackets = 4096
  static let lookaheadBytes = 64 << 20
  /// Packets kept queued after a disposable one to find the frame that replaces it, and the
  /// most looked at.
  static let witnessWindow = 16
  static let witnessSearch = 64

  init(decoder: StreamDecoder, interval: SampleInterval, end: ExactTime?) {
    self.decoder = decoder
    self.clock = decoder.file.clock
    self.interval = interval
    self.end = end
  }

  var isActive: Bool { fallbackReason == nil }

  /// Set when the shortcuts switched off because of damage after some packet was left out:
  /// a decoder meets damage with state that depends on everything decoded before it, so from
  /// here on only decoding again from the start gives what decoding every frame gives.
  private(set) var needsReplay = false

  /// Switches the shortcuts off for the rest of the file.
  private func fallBack(_ reason: String, damage: Bool = false) {
    guard fallbackReason == nil else { return }
    fallbackReason = reason
    needsReplay = damage && (decoder.skippedPackets > 0 || restarts > 0)
  }

  /// The sampler decoded again from the start.
  func replayed() { needsReplay = false }

  // MARK: - Skipping to a clean start

  /// Called before frames are decoded towards sample time `target`: drops the packets that no
  /// sample at or after `target` can need, if a clean start at or before it lies ahead.
  func skipAhead(to target: ExactTime) {
    guard isActive, let candidate = candidateTicks else { return }
    let queue = decoder.queue
    // Latest start among the packets that would be dropped or were already sent.
    var latestBefore = maxSentTicks ?? .min
    var index = 0
    while isActive {
      if index == queue.count {
        guard queue.count < Self.lookaheadPackets, queue.queuedBytes < Self.lookaheadBytes,
          queue.readOne(), isActive
        else { break }
      }
      let facts = queue[index]
      // A packet past the target is needed by it or later samples; it can never be dropped,
      // and so no clean start after it can be used.
      guard let ticks = facts.ticks, !(target < clock.time(ticks)) else { break }
      let startsClean = facts.kind?.startsClean == true && !facts.isHidden
      if startsClean && ticks > candidate && ticks > latestBefore
        && (index > 0 || maxSentTicks != nil)
      {
        decoder.restart(dropping: index)
        restarts += 1
        recentSent.removeAll(keepingCapacity: true)
        maxSentTicks = nil
        latestBefore = .min
        index = 0
      }
      latestBefore = max(latestBefore, ticks)
      index += 1
    }
  }

  // MARK: - Jumping as soon as the current sample is covered

  /// Leaves out this packet and the ones after it up to a clean start before the next sample,
  /// as soon as every packet that can be on screen at the current sample time has been sent:
  /// this one and all up to the clean start start after the current sample time and before the
  /// clean start, which starts no later than the next sample time. The decoder then gives out
  /// what it holds (the answer for the current sample among it) and starts afresh — the frames
  /// between the current sample and the clean start are never decoded.
  private func earlyJump(from facts: PacketFacts, queue: PacketQueue) -> PacketDecision? {
    guard isActive, let candidate = candidateTicks, let now = sampleTime, let ticks = facts.ticks,
      now < clock.time(ticks)
    else { return nil }
    let (nextTicks, overflow) = now.ticks.addingReportingOverflow(interval.ticks)
    guard now.base == interval.base, !overflow else { return nil }
    let next = ExactTime(ticks: nextTicks, base: now.base)
    if let end, !(next < end) { return nil }
    var latest = max(maxSentTicks ?? .min, ticks)
    var offset = 0
    while isActive {
      if offset == queue.count {
        guard queue.count < Self.lookaheadPackets, queue.queuedBytes < Self.lookaheadBytes,
          queue.readOne(), isActive
        else { return nil }
      }
      let other = queue[offset]
      guard let start = other.ticks else { return nil }
      let time = clock.time(start)
      // One that may be on screen at the current sample must be decoded, and so must one
      // after the next sample.
      guard now < time, !(next < time) else { return nil }
      if other.kind?.startsClean == true && !other.isHidden && start > candidate
        && start > latest
      {
        restarts += 1
        recentSent.removeAll(keepingCapacity: true)
        maxSentTicks = nil
        return .jump(dropping: offset)
      }
      latest = max(latest, start)
      offset += 1
    }
    return nil
  }

  // MARK: - PacketFilter

  func decision(for facts: PacketFacts, queue: PacketQueue) -> PacketDecision {
    if let jump = earlyJump(from: facts, queue: queue) { return jump }
    return shouldDecode(facts, queue: queue) ? .decode : .skip
  }

  private func shouldDecode(_ facts: PacketFacts, queue: PacketQueue) -> Bool {
    guard isActive, facts.kind?.isDisposable == true, let candidate = candidateTicks,
      let ticks = facts.ticks
    else { return true }
    // Never shown, and nothing refers to it.
    if facts.isHidden { return false }
    // Before the chosen frame: the sampler would pass it over (an equal start would replace it).
    if ticks < candidate { return false }
    // No sample at or after its start: nothing can show it (the first frame is already chosen).
    guard let sample = firstSample(atOrAfter: ticks) else { return false }
    queue.fill(to: Self.witnessWindow)
    guard isActive else { return true }
    let start = clock.time(ticks)
    func replaces(_ other: Int64) -> Bool {
      let time = clock.time(other)
      return start < time && !(sample < time)
    }
    if recentSent.contains(where: replaces) { return false }
    for offset in 0..<min(queue.count, Self.witnessSearch) {
      let other = queue[offset]
      if !other.isHidden, let time = other.ticks, replaces(time) { return false }
    }
    return true
  }

  func didSend(_ facts: PacketFacts) {
    guard let ticks = facts.ticks else { return }
    maxSentTicks = max(maxSentTicks ?? ticks, ticks)
    if recentSent.count == 32 { recentSent.removeFirst() }
    recentSent.append(ticks)
  }

  func didRead(_ facts: PacketFacts) {
    if facts.isCorrupt || facts.kind?.isMalformed == true {
      fallBack("the file has damaged packets", damage: true)
    } else if facts.ticks == nil {
      fallBack("some packets have no presentation time")
    }
  }

  func didDecode(pts: Int64?, bestEffort: Int64?) {
    guard isActive else { return }
    guard let pts, pts == bestEffort else {
      fallBack("decoded frames do not carry their packets' presentation times")
      return
    }
    let ticks = clock.relativeTicks(pts)
    if let last = lastOutputTicks, ticks <= last {
      fallBack("the decoder hands out frames out of time order")
    }
    lastOutputTicks = ticks
  }

  func sawDamage() {
    fallBack("the decoder reported damage", damage: true)
  }

  // MARK: - Sample times

  /// The first sample time at or after `ticks`; nil when there is none before the stream's end.
  private func firstSample(atOrAfter ticks: Int64) -> ExactTime? {
    guard ticks > 0 else { return interval.time(ofSample: 0) }
    // k = ceil(ticks * tb.num * base.den / (tb.den * base.num * interval.ticks))
    let base = interval.base
    let numerator = Int128(ticks) * Int128(clock.timeBase.num) * Int128(base.den)
    let denominator = Int128(clock.timeBase.den) * Int128(base.num) * Int128(interval.ticks)
    let k = (numerator + denominator - 1) / denominator
    let sampleTicks = k * Int128(interval.ticks)
    guard sampleTicks <= Int128(Int64.max) else { return nil }
    let time = ExactTime(ticks: Int64(sampleTicks), base: base)
    if let end, !(time < end) { return nil }
    return time
  }
}

extension SamplingShortcuts {
  /// How packets of `file` are read for the shortcuts, or why it is decoded frame by frame.
  /// Only containers that store every frame's presentation time (MP4/MOV, Matroska/WebM,
  /// MPEG-TS) and codecs whose clean starts and disposable frames are known qualify.
  static func syntax(for file: VideoFile) -> (PacketSyntax?, String?) {
    let format = file.format.pointer.pointee
    let container = format.iformat.map { String(cString: $0.pointee.name) } ?? "unknown"
    let trusted = ["mov", "matroska", "mpegts"].contains { container.hasPrefix($0) }
    guard trusted else {
      return (nil, "the \(container) container does not give every frame's presentation time")
    }
    let parameters = file.stream.pointee.codecpar.pointee
    // Fields are pictures of their own: a frame's two fields could differ in being referenced.
    if [AV_FIELD_TT, AV_FIELD_BB, AV_FIELD_TB, AV_FIELD_BT].contains(parameters.field_order) {
      return (nil, "the video is interlaced")
    }
    let codec = parameters.codec_id
    var extradata: [UInt8] = []
    if let data = parameters.extradata, parameters.extradata_size > 0 {
      extradata = Array(UnsafeBufferPointer(start: data, count: Int(parameters.extradata_size)))
    }
    switch codec {
    case AV_CODEC_ID_H264:
      return (.units(hevc: false, extradata: extradata), nil)
    case AV_CODEC_ID_HEVC:
      return (.units(hevc: true, extradata: extradata), nil)
    case AV_CODEC_ID_VP8, AV_CODEC_ID_VP9:
      return (.keyFrameResets, nil)
    default:
      if let descriptor = avcodec_descriptor_get(codec),
        descriptor.pointee.props & AV_CODEC_PROP_INTRA_ONLY != 0
      {
        return (.keyFrameResets, nil)
      }
      let name = String(cString: avcodec_get_name(codec))
      return (nil, "\(name) frames may refer to frames before a key frame")
    }
  }
}
