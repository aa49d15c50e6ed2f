import Foundation
import LeamojiAnalysis
import LeamojiClassifier
import LeamojiCore
import LeamojiTestSupport
import Testing

@Suite("ImageFiles: still images decoded, encoded and classified")
struct ImageFilesTests {
  /// A picture whose every pixel differs from its neighbours in all three channels.
  static func pattern(width: Int, height: Int) -> RGBImage {
    var pixels: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        pixels += [
          UInt8((x * 37 + y * 11) % 256), UInt8((x * 5 + y * 53) % 256), UInt8((x ^ y) % 256),
        ]
      }
    }
    return RGBImage(width: width, height: height, pixels: pixels)
  }

  static func write(_ image: RGBImage, to url: URL) throws {
    try Data(try ImageFiles.png(image)).write(to: url)
  }

  @Test("PNG round trip: encoding then decoding gives back the same pixels")
  func pngRoundTrip() throws {
    let folder = try ScratchFolder.url("image-roundtrip")
    defer { try? FileManager.default.removeItem(at: folder) }
    let image = Self.pattern(width: 37, height: 23)
    let bytes = try ImageFiles.png(image)
    #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    let file = folder.appendingPathComponent("pattern.png")
    try Data(bytes).write(to: file)
    let decoded = try ImageFiles.decode(path: file.path, size: nil)
    #expect(decoded.size == image.size)
    #expect(decoded == image)
    #expect(try ImageFiles.decoder(file.path, image.size) == image, "the classifier's decoder too")
  }

  @Test(
    "decoding at a size resizes to exactly that size",
    arguments: [
      PixelSize(width: 16, height: 12), PixelSize(width: 100, height: 30),
      PixelSize(width: 1, height: 1),
    ])
  func decodeAtSize(size: PixelSize) throws {
    let folder = try ScratchFolder.url("image-size")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("big.png")
    try Self.write(Self.pattern(width: 64, height: 48), to: file)
    let decoded = try ImageFiles.decode(path: file.path, size: size)
    #expect(decoded.size == size)
    #expect(decoded.pixels.count == size.width * size.height * 3)
  }

  @Test("decoding a flat colour at a smaller size keeps the colour (JPEG from ffmpeg)")
  func decodeJPEG() throws {
    let folder = try ScratchFolder.url("image-jpeg")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("red.jpg")
    try FFmpegFixtures.run([
      "-f", "lavfi", "-i", "color=c=0xC81E1E:size=80x60", "-frames:v", "1", file.path,
    ])
    let decoded = try ImageFiles.decode(path: file.path, size: PixelSize(width: 8, height: 6))
    #expect(decoded.size == PixelSize(width: 8, height: 6))
    let middle = decoded[4, 3]
    #expect(
      abs(Int(middle.r) - 0xC8) <= 12 && Int(middle.g) <= 0x1E + 16 && Int(middle.b) <= 0x1E + 16)
  }

  /// For each label, one frame of a sample video at a second well inside a shot of it.
  static func clearlyLabelledFrames() throws -> [(video: String, second: Int, label: String)] {
    var chosen: [String: (String, Int)] = [:]
    for name in Repository.sampleNames {
      let truth = try SampleTruth.of(name)
      for second in truth.clearSeconds() where chosen[truth.labels[second]] == nil {
        chosen[truth.labels[second]] = (name, second)
      }
    }
    return chosen.sorted { $0.key < $1.key }.map { ($0.value.0, $0.value.1, $0.key) }
  }

  @Test("a frame from a clearly labelled second of a sample is classified as its truth says")
  func classifySampleFrames() throws {
    let folder = try ScratchFolder.url("image-classify")
    defer { try? FileManager.default.removeItem(at: folder) }
    let classifier = Repository.shippedClassifier
    let frames = try Self.clearlyLabelledFrames()
    #expect(Set(frames.map(\.label)) == Set(classifier.labelNames), "every label has a clear shot")
    for (video, second, label) in frames {
      let file = folder.appendingPathComponent("\(video)-\(second).png")
      // The frame on screen half a second into that second, well away from the cuts.
      try FFmpegFixtures.run([
        "-ss", "\(Double(second) + 0.5)", "-i", Repository.sampleVideo(video), "-frames:v", "1",
        file.path,
      ])
      let prediction = try ImageFiles.classify(path: file.path, with: classifier)
      #expect(prediction.label.name == label, "\(video) at \(second) s")
      #expect(prediction.probabilities.count == classifier.labels.count)
      #expect(abs(prediction.probabilities.reduce(0, +) - 1) < 1e-3)
    }
  }

  @Test("a missing file is no input, named in one line, for decode and classify")
  func missingFile() throws {
    let folder = try ScratchFolder.url("image-missing")
    defer { try? FileManager.default.removeItem(at: folder) }
    let missing = folder.appendingPathComponent("gone.png").path
    #expect {
      _ = try ImageFiles.decode(path: missing, size: nil)
    } throws: { error in
      Self.isOneLine(error, kind: .noInput, naming: missing)
    }
    #expect {
      _ = try ImageFiles.classify(path: missing, with: Repository.shippedClassifier)
    } throws: { error in
      Self.isOneLine(error, kind: .noInput, naming: missing)
    }
  }

  @Test("a text file is bad input, named in one line, for decode and classify")
  func textFile() throws {
    let folder = try ScratchFolder.url("image-text")
    defer { try? FileManager.default.removeItem(at: folder) }
    let text = folder.appendingPathComponent("notes.png")
    try Data("these are notes,\nnot a picture\n".utf8).write(to: text)
    #expect {
      _ = try ImageFiles.decode(path: text.path, size: PixelSize(width: 8, height: 8))
    } throws: { error in
      Self.isOneLine(error, kind: .badInput, naming: text.path)
    }
    #expect {
      _ = try ImageFiles.classify(path: text.path, with: Repository.shippedClassifier)
    } throws: { error in
      Self.isOneLine(error, kind: .badInput, naming: text.path)
    }
  }

  static func isOneLine(_ error: any Error, kind: ProblemKind, naming path: String) -> Bool {
    guard let problem = error as? LeamojiError else { return false }
    return problem.kind == kind && problem.message.hasPrefix(path + ": ")
      && !problem.message.contains("\n") && problem.description == problem.message
  }
}
