import Foundation
import LeamojiCore
import Testing

@testable import LeamojiTestSupport

/// The cache of ffmpeg-made fixtures kept between test runs (`FixtureCache`, `FFmpegFixtures`):
/// a file comes back byte for byte, a damaged entry is made again, and the key changes with
/// everything that changes the file.
@Suite("FixtureCache: ffmpeg-made fixtures kept between test runs")
struct FixtureCacheTests {
  @Test("made once, then copied; a damaged, cut or foreign entry is made again")
  func madeOnceThenCopied() throws {
    let scratch = try ScratchFolder("fixture-cache")
    defer { scratch.remove() }
    let cache = FixtureCache(folder: scratch.url.appendingPathComponent("cache"))
    let bytes = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 * 7) })
    var made = 0
    func get(_ name: String, key: [String] = ["a key"]) throws -> (Bool, Data) {
      let file = scratch.fileURL(name)
      let cached = try cache.file(file, key: key) {
        made += 1
        try bytes.write(to: file)
      }
      return (cached, try Data(contentsOf: file))
    }
    #expect(try get("one.bin") == (false, bytes) && made == 1)
    #expect(try get("two.bin") == (true, bytes) && made == 1, "copied, not made")
    #expect(try get("three.bin", key: ["another key"]) == (false, bytes) && made == 2)

    let entry = cache.entry(["a key"])
    var record = try Data(contentsOf: entry)
    record[record.count - 10] ^= 0x01
    try record.write(to: entry)
    #expect(try get("four.bin") == (false, bytes) && made == 3, "a changed byte")
    #expect(try get("five.bin") == (true, bytes) && made == 3, "the entry was made again")
    try Data(contentsOf: entry).prefix(500).write(to: entry)
    #expect(try get("six.bin") == (false, bytes) && made == 4, "cut short")
    try bytes.write(to: entry)
    #expect(try get("seven.bin") == (false, bytes) && made == 5, "no header")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: cache.folder.path).sorted()
        == [FixtureCache.entryName(["a key"]), FixtureCache.entryName(["another key"])].sorted(),
      "no temporary file left")

    // A cache that cannot be written makes the file every time.
    let unwritable = FixtureCache(folder: URL(fileURLWithPath: "/proc/leamoji-no-cache"))
    for _ in 0..<2 {
      let file = scratch.fileURL("eight.bin")
      #expect(try unwritable.file(file, key: ["a key"]) { try bytes.write(to: file) } == false)
    }
  }

  @Test("an ffmpeg key: the output by its extension, inputs and standard input by their bytes")
  func ffmpegKey() throws {
    let scratch = try ScratchFolder("fixture-cache-key")
    defer { scratch.remove() }
    func key(_ arguments: [String], output: String, stdin: Data? = nil) -> [String]? {
      FFmpegFixtures.cacheKey(arguments, output: scratch.fileURL(output), stdin: stdin)
    }
    let version = try FFmpegFixtures.versionLine.get()
    #expect(version.hasPrefix("ffmpeg version "))
    let tone = ["-f", "lavfi", "-i", "sine=duration=1"]
    let first = try #require(key(tone + [scratch.file("a.wav")], output: "a.wav"))
    #expect(first.prefix(2) == ["ffmpeg", version])
    #expect(key(tone + [scratch.file("b.wav")], output: "b.wav") == first, "names do not count")
    #expect(key(tone + [scratch.file("a.mp3")], output: "a.mp3") != first, "the muxer does")
    #expect(
      key(["-f", "lavfi", "-i", "sine=duration=2", scratch.file("a.wav")], output: "a.wav")
        != first)
    #expect(
      key(tone + [scratch.file("a.wav")], output: "a.wav", stdin: Data([1]))
        != key(tone + [scratch.file("a.wav")], output: "a.wav", stdin: Data([2])))

    try Data([1, 2, 3]).write(to: scratch.fileURL("in.mp4"))
    let remux = ["-i", scratch.file("in.mp4"), "-c", "copy", scratch.file("out.mkv")]
    let before = try #require(key(remux, output: "out.mkv"))
    #expect(!before.joined().contains(scratch.path), "no scratch path in the key")
    try Data([1, 2, 4]).write(to: scratch.fileURL("in.mp4"))
    #expect(key(remux, output: "out.mkv") != before, "the input's bytes count")

    let missing = scratch.file("missing.mp4")
    #expect(key(["-i", missing, scratch.file("o.mp4")], output: "o.mp4") == nil)
    #expect(key(tone + [scratch.file("%03d.png")], output: "%03d.png") == nil)
    #expect(
      key(["-i", "movie=\(scratch.file("in.mp4"))", scratch.file("o.mp4")], output: "o.mp4")
        == nil)
    #expect(key(tone + [scratch.file("o.wav")], output: "other.wav") == nil)
  }
}
