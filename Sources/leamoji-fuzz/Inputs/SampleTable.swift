/// The sample tables of one MP4 track, one entry per sample in decode order: duration,
/// composition offset, size and file offset, plus the key frames. Read from a `stbl` box, and
/// written back for the first samples only, as one chunk at a given file offset.
struct SampleTable {
  var durations: [UInt32] = []
  /// The `ctts` version-and-flags word and one offset per sample; nil without `ctts`.
  var composition: (header: [UInt8], offsets: [UInt32])?
  /// 1-based numbers of the key frames; nil when every sample is one (no `stss`).
  var syncSamples: [UInt32]?
  var sizes: [UInt32] = []
  var fileOffsets: [Int] = []
  var descriptionIndex: UInt32 = 1

  init(_ stbl: MP4Box) throws(FuzzError) {
    guard let stts = stbl.child("stts"), let stsz = stbl.child("stsz"),
      let stsc = stbl.child("stsc"),
      let chunks = stbl.child("stco") ?? stbl.child("co64")
    else { throw FuzzError("MP4 track without its sample tables") }
    for entry in try Self.entries(stts, width: 2) {
      durations += Array(repeating: entry[1], count: Int(entry[0]))
    }
    if let ctts = stbl.child("ctts") {
      var offsets: [UInt32] = []
      for entry in try Self.entries(ctts, width: 2) {
        offsets += Array(repeating: entry[1], count: Int(entry[0]))
      }
      composition = (Array(ctts.payload.prefix(4)), offsets)
    }
    if let stss = stbl.child("stss") {
      syncSamples = try Self.entries(stss, width: 1).map { $0[0] }
    }
    try readSizes(stsz)
    try readOffsets(stsc: stsc, chunks: chunks)
    guard durations.count == sizes.count,
      composition.map({ $0.offsets.count == sizes.count }) ?? true
    else {
      throw FuzzError("MP4 sample tables disagree on the number of samples")
    }
  }

  /// The number of samples whose decode time is before `limit` (in the track's timescale); at least 1.
  func count(before limit: UInt64) -> Int {
    var time: UInt64 = 0
    var count = 0
    while count < durations.count, time < limit {
      time += UInt64(durations[count])
      count += 1
    }
    return max(1, count)
  }

  /// The sample tables of the first `count` samples, stored as one chunk at `chunkOffset`.
  func boxes(keeping count: Int, chunkOffset: UInt32) -> [MP4Box] {
    let header: [UInt8] = [0, 0, 0, 0]
    var boxes = [MP4Box(type: "stts", payload: header + Self.runs(Array(durations.prefix(count))))]
    if let composition {
      boxes.append(
        MP4Box(
          type: "ctts",
          payload: composition.header + Self.runs(Array(composition.offsets.prefix(count)))))
    }
    if let syncSamples {
      let kept = syncSamples.filter { $0 <= count }
      boxes.append(
        MP4Box(
          type: "stss",
          payload: header + BigEndian.bytes32(UInt32(kept.count)) + kept.flatMap(BigEndian.bytes32))
      )
    }
    let sizeTable = sizes.prefix(count).flatMap(BigEndian.bytes32)
    boxes.append(
      MP4Box(
        type: "stsz",
        payload: header + BigEndian.bytes32(0) + BigEndian.bytes32(UInt32(count)) + sizeTable))
    let chunkEntry = [1, UInt32(count), descriptionIndex].flatMap(BigEndian.bytes32)
    boxes.append(MP4Box(type: "stsc", payload: header + BigEndian.bytes32(1) + chunkEntry))
    boxes.append(
      MP4Box(type: "stco", payload: header + BigEndian.bytes32(1) + BigEndian.bytes32(chunkOffset)))
    return boxes
  }

  /// The decode duration of the first `count` samples.
  func duration(ofFirst count: Int) -> UInt64 {
    durations.prefix(count).reduce(0) { $0 + UInt64($1) }
  }

  private mutating func readSizes(_ stsz: MP4Box) throws(FuzzError) {
    let payload = stsz.payload
    guard payload.count >= 12 else { throw FuzzError("MP4 'stsz' box cut short") }
    let fixed = BigEndian.read32(payload, at: 4)
    let count = Int(BigEndian.read32(payload, at: 8))
    if fixed != 0 {
      sizes = Array(repeating: fixed, count: count)
    } else {
      guard payload.count >= 12 + 4 * count else { throw FuzzError("MP4 'stsz' table cut short") }
      sizes = (0..<count).map { BigEndian.read32(payload, at: 12 + 4 * $0) }
    }
  }

  private mutating func readOffsets(stsc: MP4Box, chunks: MP4Box) throws(FuzzError) {
    let runs = try Self.entries(stsc, width: 3)
    let wide = chunks.type == "co64"
    guard chunks.payload.count >= 8 else { throw FuzzError("MP4 chunk offset box cut short") }
    let chunkCount = Int(BigEndian.read32(chunks.payload, at: 4))
    guard chunks.payload.count >= 8 + chunkCount * (wide ? 8 : 4), let first = runs.first else {
      throw FuzzError("MP4 chunk tables cut short")
    }
    descriptionIndex = first[2]
    var sample = 0
    for chunk in 0..<chunkCount where sample < sizes.count {
      let run = runs.last { Int($0[0]) <= chunk + 1 } ?? first
      var offset =
        wide
        ? Int(BigEndian.read64(chunks.payload, at: 8 + 8 * chunk))
        : Int(BigEndian.read32(chunks.payload, at: 8 + 4 * chunk))
      for _ in 0..<Int(run[1]) where sample < sizes.count {
        fileOffsets.append(offset)
        offset += Int(sizes[sample])
        sample += 1
      }
    }
    guard fileOffsets.count == sizes.count else {
      throw FuzzError("MP4 chunks hold fewer samples than 'stsz' lists")
    }
  }

  /// The entries of a full box's table: each `width` 32-bit numbers after a count.
  private static func entries(_ box: MP4Box, width: Int) throws(FuzzError) -> [[UInt32]] {
    let payload = box.payload
    guard payload.count >= 8 else { throw FuzzError("MP4 '\(box.type)' box cut short") }
    let count = Int(BigEndian.read32(payload, at: 4))
    guard payload.count >= 8 + count * width * 4 else {
      throw FuzzError("MP4 '\(box.type)' table cut short")
    }
    return (0..<count).map { entry in
      (0..<width).map { BigEndian.read32(payload, at: 8 + 4 * (entry * width + $0)) }
    }
  }

  /// Run-length entries (count, value) of `values`, after their number.
  private static func runs(_ values: [UInt32]) -> [UInt8] {
    var pairs: [(UInt32, UInt32)] = []
    for value in values {
      if let last = pairs.last, last.1 == value {
        pairs[pairs.count - 1].0 += 1
      } else {
        pairs.append((1, value))
      }
    }
    return BigEndian.bytes32(UInt32(pairs.count))
      + pairs.flatMap { BigEndian.bytes32($0.0) + BigEndian.bytes32($0.1) }
  }
}
