/// Cuts an MP4 file to its first seconds without re-encoding, so fuzz cases decode a few dozen
/// frames instead of hundreds: each track keeps the samples (in decode order, so every kept
/// frame's references are kept too) that start before the limit, stored as one chunk in a new
/// `mdat`; the sample tables and the movie, track, media and edit durations are rewritten.
struct MP4Clipper {
  let seconds: Double

  /// The clipped file: `ftyp`, the rewritten `moov`, then `mdat`.
  func clip(_ file: [UInt8]) throws(FuzzError) -> [UInt8] {
    let top = try MP4Box.parse(file[...])
    guard let ftyp = top.first(where: { $0.type == "ftyp" }),
      let moov = top.first(where: { $0.type == "moov" })
    else {
      throw FuzzError("not an MP4 file with 'ftyp' and 'moov' boxes")
    }
    let tracks = try moov.children.filter { $0.type == "trak" }.map { trak throws(FuzzError) in
      try TrackCut(trak, seconds: seconds)
    }
    guard !tracks.isEmpty else { throw FuzzError("MP4 file without tracks") }
    let data = tracks.map { $0.data(from: file) }
    let ftypBytes = ftyp.serialized()
    let movieScale = UInt64(try Self.timescale(of: moov.child("mvhd")))
    func rewrittenMoov(base: Int) -> [UInt8] {
      var offset = base
      var result = moov
      var trackIndex = 0
      var longest: UInt64 = 0
      for index in result.children.indices where result.children[index].type == "trak" {
        let track = tracks[trackIndex]
        let movieDuration = track.duration * movieScale / max(1, UInt64(track.timescale))
        longest = max(longest, movieDuration)
        result.children[index] = track.rewritten(
          chunkOffset: UInt32(truncatingIfNeeded: offset), movieDuration: movieDuration)
        offset += data[trackIndex].count
        trackIndex += 1
      }
      result.update(["mvhd"]) {
        Self.setDuration(&$0.payload, longest, fieldOffset: (v0: 16, v1: 24))
      }
      return result.serialized()
    }
    let moovSize = rewrittenMoov(base: 0).count
    let base = ftypBytes.count + moovSize + 8
    let mdatBody = data.flatMap { $0 }
    let mdat = BigEndian.bytes32(UInt32(8 + mdatBody.count)) + Array("mdat".utf8) + mdatBody
    return ftypBytes + rewrittenMoov(base: base) + mdat
  }

  /// The timescale of an `mvhd` or `mdhd` box.
  static func timescale(of box: MP4Box?) throws(FuzzError) -> UInt32 {
    guard let payload = box?.payload, payload.count >= (payload.first == 1 ? 24 : 16) else {
      throw FuzzError("MP4 header box missing or cut short")
    }
    return BigEndian.read32(payload, at: payload[0] == 1 ? 20 : 12)
  }

  /// Writes a duration field that sits at `fieldOffset.v0` (32-bit) or `.v1` (64-bit) by version.
  static func setDuration(
    _ payload: inout [UInt8], _ duration: UInt64, fieldOffset: (v0: Int, v1: Int)
  ) {
    if payload.first == 1, payload.count >= fieldOffset.v1 + 8 {
      BigEndian.write64(duration, into: &payload, at: fieldOffset.v1)
    } else if payload.count >= fieldOffset.v0 + 4 {
      BigEndian.write32(UInt32(truncatingIfNeeded: duration), into: &payload, at: fieldOffset.v0)
    }
  }
}

/// One track of the clip: its sample tables and how many samples it keeps.
struct TrackCut {
  let trak: MP4Box
  let table: SampleTable
  let timescale: UInt32
  let kept: Int
  /// Media duration of the kept samples, in the track's timescale.
  var duration: UInt64 { table.duration(ofFirst: kept) }

  init(_ trak: MP4Box, seconds: Double) throws(FuzzError) {
    guard let stbl = trak.descendant(["mdia", "minf", "stbl"]) else {
      throw FuzzError("MP4 track without 'stbl'")
    }
    self.trak = trak
    table = try SampleTable(stbl)
    timescale = try MP4Clipper.timescale(of: trak.descendant(["mdia", "mdhd"]))
    kept = table.count(before: UInt64(seconds * Double(timescale)))
  }

  /// The kept samples' bytes, in decode order.
  func data(from file: [UInt8]) -> [UInt8] {
    var bytes: [UInt8] = []
    for index in 0..<kept {
      let start = table.fileOffsets[index]
      let end = min(file.count, start + Int(table.sizes[index]))
      if start < end { bytes += file[start..<end] }
    }
    return bytes
  }

  /// The `trak` box with the kept samples as one chunk at `chunkOffset` and its durations cut.
  func rewritten(chunkOffset: UInt32, movieDuration: UInt64) -> MP4Box {
    var result = trak
    result.update(["mdia", "minf", "stbl"]) { stbl in
      let replaced: Set = ["stts", "ctts", "stss", "stsz", "stsc", "stco", "co64"]
      let dropped: Set = ["sbgp", "sgpd", "subs", "saiz", "saio", "sdtp", "stps"]
      let description = stbl.children.filter {
        !replaced.contains($0.type) && !dropped.contains($0.type)
      }
      stbl.children = description + table.boxes(keeping: kept, chunkOffset: chunkOffset)
    }
    result.update(["mdia", "mdhd"]) {
      MP4Clipper.setDuration(&$0.payload, duration, fieldOffset: (v0: 16, v1: 24))
    }
    result.update(["tkhd"]) {
      MP4Clipper.setDuration(&$0.payload, movieDuration, fieldOffset: (v0: 20, v1: 28))
    }
    result.update(["edts", "elst"]) { elst in
      guard elst.payload.count >= 8, BigEndian.read32(elst.payload, at: 4) == 1 else { return }
      MP4Clipper.setDuration(&elst.payload, movieDuration, fieldOffset: (v0: 8, v1: 8))
    }
    return result
  }
}
