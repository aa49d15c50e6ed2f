internal import CFFmpeg

/// What is known about a demuxed packet before it is decoded.
struct PacketFacts {
  /// Presentation time in ticks from the stream's start; nil when the container gives none.
  var ticks: Int64?
  /// The container's key-frame flag.
  var isKey: Bool
  /// Decoded for reference only, never shown (`AV_PKT_FLAG_DISCARD`, e.g. before an edit).
  var isHidden: Bool
  /// The demuxer flagged it as damaged (`AV_PKT_FLAG_CORRUPT`).
  var isCorrupt: Bool
  /// What the packet's own bytes say (nil when the stream's syntax is not read).
  var kind: PacketKind?
  /// Payload size in bytes.
  var size: Int
}

/// The packets of the chosen stream read from the demuxer but not yet decoded, oldest first:
/// a window that lets a sampler look ahead before deciding what to decode. Every `Packet` in
/// it is owned here; taken packets come back through `recycle`.
final class PacketQueue {
  private let file: VideoFile
  private let syntax: PacketSyntax?
  private var packets: [Packet] = []
  private var facts: [PacketFacts] = []
  /// Index of the oldest queued packet in `packets`/`facts` (a ring would save little).
  private var head = 0
  private var spare: [Packet] = []
  private(set) var queuedBytes = 0
  /// The demuxer has nothing more (end of file, or a read error).
  private(set) var atEnd = false
  /// Packets flagged as damaged by the demuxer, and reads that failed.
  private(set) var corruptPackets = 0
  /// Packets of the stream read so far.
  private(set) var packetsRead = 0
  /// Hears of every packet read, before it is queued.
  weak var filter: PacketFilter? = nil

  /// - Parameter syntax: how to read packet kinds; nil reads none.
  init(file: VideoFile, syntax: PacketSyntax?) {
    self.file = file
    self.syntax = syntax
  }

  /// Packets queued.
  var count: Int { facts.count - head }

  /// Facts of the queued packet at `offset` from the oldest.
  subscript(offset: Int) -> PacketFacts { facts[head + offset] }

  /// Empties the queue after the demuxer moved (a seek): nothing queued belongs any more.
  func reset() {
    drop(count)
    atEnd = false
  }

  /// Counts from zero again (after a rewind to the start).
  func resetCounters() {
    corruptPackets = 0
    packetsRead = 0
  }

  /// Reads one more packet of the stream into the queue; false at the end of the file.
  @discardableResult
  func readOne() -> Bool {
    guard !atEnd else { return false }
    let packet = spare.popLast() ?? Packet()
    guard read(into: packet) else {
      atEnd = true
      spare.append(packet)
      return false
    }
    let fact = describe(packet)
    packetsRead += 1
    filter?.didRead(fact)
    compact()
    packets.append(packet)
    facts.append(fact)
    queuedBytes += fact.size
    return true
  }

  /// Reads until `count` packets are queued or the file ends.
  func fill(to wanted: Int) {
    while count < wanted && readOne() {}
  }

  /// The oldest packet and its facts, removed from the queue (reading one when it is empty);
  /// nil at the end of the file. Give the packet back with `recycle` when done.
  func take() -> (Packet, PacketFacts)? {
    if count == 0 && !readOne() { return nil }
    let packet = packets[head]
    let fact = facts[head]
    head += 1
    queuedBytes -= fact.size
    return (packet, fact)
  }

  /// Drops the `n` oldest packets undecoded.
  func drop(_ n: Int) {
    for _ in 0..<min(n, count) {
      let (packet, _) = take()!
      recycle(packet)
    }
  }

  /// Takes back a packet handed out by `take`, for reuse.
  func recycle(_ packet: Packet) {
    packet.unref()
    if spare.count < 8 { spare.append(packet) }
  }

  /// Forgets the slots of packets already taken once they are many.
  private func compact() {
    guard head > 64, head * 2 > facts.count else { return }
    packets.removeFirst(head)
    facts.removeFirst(head)
    head = 0
  }

  private func describe(_ packet: Packet) -> PacketFacts {
    let value = packet.pointer.pointee
    let flags = value.flags
    let isKey = flags & AV_PKT_FLAG_KEY != 0
    var kind: PacketKind? = nil
    if let syntax {
      let bytes = UnsafeRawBufferPointer(start: value.data, count: Int(max(0, value.size)))
      kind = syntax.kind(of: bytes, isKey: isKey)
    }
    return PacketFacts(
      ticks: StreamClock.timestamp(value.pts).map(file.clock.relativeTicks),
      isKey: isKey, isHidden: flags & AV_PKT_FLAG_DISCARD != 0,
      isCorrupt: flags & AV_PKT_FLAG_CORRUPT != 0, kind: kind, size: Int(max(0, value.size)))
  }

  /// Reads the next packet of our stream into `packet`; false at the end of the file, or where
  /// the rest of it cannot be read (counted as damage).
  private func read(into packet: Packet) -> Bool {
    switch file.format.readPacket(ofStream: file.stream.pointee.index, into: packet) {
    case .packet:
      if packet.pointer.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 { corruptPackets += 1 }
      return true
    case .end:
      return false
    case .unreadable:
      corruptPackets += 1
      return false
    }
  }
}
