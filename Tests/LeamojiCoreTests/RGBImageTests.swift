import Foundation
import LeamojiCore
import Testing

@Suite("RGBImage and PixelSize")
struct RGBImageTests {
  /// A 3x2 image whose pixels are all different: value = (x, y, x + 10 * y).
  func sample() -> RGBImage {
    var image = RGBImage(width: 3, height: 2)
    for y in 0..<2 { for x in 0..<3 { image[x, y] = RGB(UInt8(x), UInt8(y), UInt8(x + 10 * y)) } }
    return image
  }

  @Test("a clockwise quarter turn moves the top-left corner to the top-right")
  func quarterTurn() {
    let turned = sample().rotated(quarterTurns: 1)
    #expect(turned.width == 2 && turned.height == 3)
    #expect(turned[1, 0] == RGB(0, 0, 0))  // old top-left
    #expect(turned[0, 0] == RGB(0, 1, 10))  // old bottom-left
    #expect(turned[1, 2] == RGB(2, 0, 2))  // old top-right
  }

  @Test("four quarter turns, two half turns and -1 vs 3 agree")
  func turnsCompose() {
    let image = sample()
    #expect(image.rotated(quarterTurns: 4) == image)
    #expect(image.rotated(quarterTurns: 2).rotated(quarterTurns: 2) == image)
    #expect(image.rotated(quarterTurns: -1) == image.rotated(quarterTurns: 3))
    #expect(image.rotated(quarterTurns: 1).rotated(quarterTurns: 1) == image.rotated(quarterTurns: 2))
    #expect(image.rotated(quarterTurns: 2)[0, 0] == RGB(2, 1, 12))
  }

  @Test("sizes parse from WxH and reject nonsense")
  func parseSize() {
    #expect(PixelSize(parsing: "64x48") == PixelSize(width: 64, height: 48))
    #expect(PixelSize(parsing: "640X360") == PixelSize(width: 640, height: 360))
    for bad in ["", "64", "x64", "64x", "0x10", "-4x4", "axb", "64x48x2", "99999x10"] {
      #expect(PixelSize(parsing: bad) == nil, "\(bad)")
    }
  }
}

@Suite("AtomicFile")
struct AtomicFileTests {
  func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("leamoji-atomic-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("writes, replaces, and leaves no temporary file behind")
  func writeAndReplace() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("a.bin").path
    try AtomicFile.write([1, 2, 3], to: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([1, 2, 3]))
    try AtomicFile.write([4], to: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([4]))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["a.bin"])
  }

  @Test("replace: false keeps an existing file and says so")
  func noReplace() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("keep.txt").path
    try AtomicFile.write(Array("mine".utf8), to: path)
    #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write([0], to: path, replace: false) }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "mine")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["keep.txt"])
  }

  @Test("an unwritable place is an error naming the file")
  func unwritable() {
    let path = "/nonexistent-folder-\(UUID().uuidString)/x.png"
    do {
      try AtomicFile.write([1], to: path)
      Issue.record("expected an error")
    } catch {
      #expect(error.description.hasPrefix(path + ": cannot write"))
    }
  }
}

@Suite("SHA-256")
struct SHA256Tests {
  @Test("FIPS 180-4 test vectors")
  func vectors() {
    #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
      == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
  }
}
