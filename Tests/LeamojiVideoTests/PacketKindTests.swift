import Testing

@testable import LeamojiVideo

/// `PacketSyntax`: what a packet's unit headers say, from hand-made byte strings.
@Suite("Packet kinds from unit headers")
struct PacketKindTests {
  /// H.264 unit header byte: nal_ref_idc in bits 5-6, type in bits 0-4.
  static func h264(_ type: UInt8, ref: UInt8) -> UInt8 { ref << 5 | type }

  /// Length-prefixed units (4-byte lengths) as MP4 and Matroska store them.
  static func lengthPrefixed(_ units: [[UInt8]]) -> [UInt8] {
    units.flatMap { unit in
      let n = unit.count
      return [UInt8(n >> 24 & 255), UInt8(n >> 16 & 255), UInt8(n >> 8 & 255), UInt8(n & 255)]
        + unit
    }
  }

  static func kind(_ syntax: PacketSyntax, _ bytes: [UInt8], key: Bool = false) -> PacketKind {
    bytes.withUnsafeBytes { syntax.kind(of: $0, isKey: key) }
  }

  let avc = PacketSyntax.units(hevc: false, extradata: [1, 100, 0, 31, 0xFF, 0xE1])

  @Test("avcC's length size is read; anything else means Annex B")
  func syntaxFromExtradata() {
    #expect(avc == .h264(lengthSize: 4))
    #expect(
      PacketSyntax.units(hevc: false, extradata: [1, 100, 0, 31, 0xFD]) == .h264(lengthSize: 2))
    #expect(
      PacketSyntax.units(hevc: false, extradata: [0, 0, 0, 1, 0x67]) == .h264(lengthSize: nil))
    #expect(PacketSyntax.units(hevc: true, extradata: []) == .hevc(lengthSize: nil))
  }

  @Test("H.264: IDR starts clean; a non-reference slice is disposable, unless it carries more")
  func h264Kinds() {
    let idr = Self.kind(avc, Self.lengthPrefixed([[Self.h264(5, ref: 3), 0x88, 0x84]]))
    #expect(idr == PacketKind(startsClean: true))
    let p = Self.kind(avc, Self.lengthPrefixed([[Self.h264(1, ref: 2), 0x9A]]))
    #expect(p == PacketKind())
    let b = Self.kind(
      avc, Self.lengthPrefixed([[Self.h264(9, ref: 0), 0x10], [Self.h264(1, ref: 0), 0x9E, 1]]))
    #expect(b == PacketKind(isDisposable: true))
    // A parameter set travelling with a non-reference picture must reach the decoder.
    let withPPS = Self.kind(
      avc, Self.lengthPrefixed([[Self.h264(8, ref: 3), 0xCE], [Self.h264(1, ref: 0), 0x9E]]))
    #expect(!withPPS.isDisposable)
    // One referenced slice makes the whole picture a reference.
    let mixed = Self.kind(
      avc, Self.lengthPrefixed([[Self.h264(1, ref: 0), 0x9E], [Self.h264(1, ref: 1), 0x9E]]))
    #expect(!mixed.isDisposable)
  }

  @Test("Annex B start codes, three or four bytes")
  func annexB() {
    let syntax = PacketSyntax.h264(lengthSize: nil)
    let bytes: [UInt8] = [0, 0, 0, 1, 0x09, 0x10, 0, 0, 1, Self.h264(1, ref: 0), 0x9E, 0x42]
    #expect(Self.kind(syntax, bytes) == PacketKind(isDisposable: true))
    #expect(Self.kind(syntax, [0, 0, 1, Self.h264(5, ref: 3), 0x88]).startsClean)
  }

  @Test("broken unit lengths, forbidden bits and empty packets are damage")
  func malformed() {
    #expect(Self.kind(avc, [0, 0, 0, 9, Self.h264(1, ref: 0), 1]).isMalformed)
    #expect(Self.kind(avc, [0, 0, 0, 0]).isMalformed)
    #expect(Self.kind(avc, Self.lengthPrefixed([[0x80 | Self.h264(1, ref: 0)]])).isMalformed)
    #expect(Self.kind(avc, []).isMalformed)
  }

  @Test("HEVC: only IDR pictures start clean (CRA's leading pictures refer to the GOP before)")
  func hevcKinds() {
    let syntax = PacketSyntax.hevc(lengthSize: 4)
    func unit(_ type: UInt8) -> [UInt8] { [type << 1, 1, 0xAF] }
    #expect(Self.kind(syntax, Self.lengthPrefixed([unit(19)])).startsClean)
    #expect(Self.kind(syntax, Self.lengthPrefixed([unit(20)])).startsClean)
    #expect(!Self.kind(syntax, Self.lengthPrefixed([unit(21)])).startsClean)  // CRA
    #expect(Self.kind(syntax, Self.lengthPrefixed([unit(1)])) == PacketKind())
  }

  @Test("key-frame codecs follow the container's flag and never call a frame disposable")
  func keyFrameCodecs() {
    #expect(Self.kind(.keyFrameResets, [1, 2, 3], key: true) == PacketKind(startsClean: true))
    #expect(Self.kind(.keyFrameResets, [1, 2, 3], key: false) == PacketKind())
  }

  @Test("jumps go straight on for H.264 and key-frame codecs; HEVC drains first")
  func jumpsWithoutDraining() {
    #expect(StreamDecoder.keepsDecodingAcrossJumps(.h264(lengthSize: 4)))
    #expect(StreamDecoder.keepsDecodingAcrossJumps(.h264(lengthSize: nil)))
    #expect(StreamDecoder.keepsDecodingAcrossJumps(.keyFrameResets))
    #expect(!StreamDecoder.keepsDecodingAcrossJumps(.hevc(lengthSize: 4)))
    #expect(!StreamDecoder.keepsDecodingAcrossJumps(.hevc(lengthSize: nil)))
  }
}
