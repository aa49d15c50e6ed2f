import Foundation
import LeamojiCore
import LeamojiVideo
import Testing

@Suite("Still images in and out")
struct ImageCodecTests {
  /// A smooth picture: horizontal red ramp, vertical green ramp, diagonal blue.
  static func smoothImage(width: Int = 96, height: Int = 64) -> RGBImage {
    var image = RGBImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        image[x, y] = RGB(
          UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)),
          UInt8((x + y) * 255 / (width + height - 2)))
      }
    }
    return image
  }

  /// Odd-sized, with sharp detail: exact round trips must keep every pixel.
  static func detailedImage() -> RGBImage {
    var image = RGBImage(width: 37, height: 23)
    var generator = SplitMix64(seed: 42)
    for y in 0..<image.height {
      for x in 0..<image.width {
        image[x, y] = RGB(
          UInt8.random(in: 0...255, using: &generator), UInt8(x * 7 % 256), UInt8(y * 11 % 256))
      }
    }
    return image
  }

  /// Four flat quadrants, mid-range colours (a colour-range mistake would shift them).
  static let quadrantColours = [
    RGB(200, 40, 40), RGB(40, 180, 60), RGB(50, 60, 200), RGB(128, 128, 128),
  ]

  static func quadrants(width: Int = 64, height: Int = 48) -> RGBImage {
    var image = RGBImage(width: width, height: height)
    for y in 0..<height {
      for x in 0..<width {
        image[x, y] = quadrantColours[(y * 2 / height) * 2 + x * 2 / width]
      }
    }
    return image
  }

  /// Largest channel difference between the centre of each quadrant of `image` and its colour.
  static func quadrantError(_ image: RGBImage) -> Int {
    var worst = 0
    for (i, colour) in quadrantColours.enumerated() {
      let x = image.width * (1 + 2 * (i % 2)) / 4
      let y = image.height * (1 + 2 * (i / 2)) / 4
      let c = image[x, y]
      worst = max(
        worst, abs(Int(c.r) - Int(colour.r)), abs(Int(c.g) - Int(colour.g)),
        abs(Int(c.b) - Int(colour.b)))
    }
    return worst
  }

  func write(_ bytes: [UInt8], _ name: String) throws -> String {
    let url = FixtureStore.shared.scratchURL(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  @Test("PNG: encode, write, decode gives identical pixels")
  func pngRoundTrip() throws {
    for original in [Self.detailedImage(), Self.smoothImage()] {
      let png = try ImageCodec.encodePNG(original)
      #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      let decoded = try ImageCodec.decode(path: try write(png, "roundtrip.png"))
      #expect(decoded.size == original.size)
      #expect(decoded == original, "PNG is lossless")
    }
  }

  @Test(
    "JPEG quality 90: mean error < 3 and max error <= 16 on a smooth image (measured 1.6 and 9)")
  func jpegRoundTrip() throws {
    let original = Self.smoothImage()
    let jpeg = try ImageCodec.encodeJPEG(original, quality: 90)
    #expect(Array(jpeg.prefix(3)) == [0xFF, 0xD8, 0xFF], "JPEG start-of-image marker")
    let decoded = try ImageCodec.decode(path: try write(jpeg, "roundtrip.jpg"))
    try #require(decoded.size == original.size)
    var worst = 0
    for i in original.pixels.indices {
      worst = max(worst, abs(Int(original.pixels[i]) - Int(decoded.pixels[i])))
    }
    let mean = meanAbsoluteDifference(original, decoded)
    #expect(mean < 3, "mean absolute error \(mean)")
    #expect(worst <= 16, "max error \(worst)")
    // Lower quality, smaller file.
    let small = try ImageCodec.encodeJPEG(original, quality: 20)
    #expect(small.count < jpeg.count)
  }

  @Test(
    "PNG, JPEG and BMP files made by the ffmpeg CLI decode to the known pattern",
    arguments: [
      ("png", ["-c:v", "png"], 0), ("jpg", ["-c:v", "mjpeg", "-q:v", "2"], 12),
      ("bmp", ["-c:v", "bmp"], 0),
    ])
  func decodeFilesFromFFmpeg(_ ext: String, _ codec: [String], _ tolerance: Int) throws {
    let picture = Self.quadrants()
    let url = FixtureStore.shared.scratchURL("quadrants.\(ext)")
    try ExternalTools.ffmpegFile(
      [
        "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "64x48", "-i", "-",
        "-frames:v", "1",
      ] + codec + ["-f", "image2", url.path],
      output: url, in: FixtureStore.shared.directory, stdin: Data(picture.pixels))
    let decoded = try ImageCodec.decode(path: url.path)
    #expect(decoded.size == PixelSize(width: 64, height: 48))
    let error = Self.quadrantError(decoded)
    #expect(error <= tolerance, "\(ext): quadrant colours off by \(error)")
    if tolerance == 0 { #expect(decoded == picture, "\(ext) is lossless") }
  }

  @Test(
    "PNG in grey, RGBA, 16-bit RGB and palette decode as ffmpeg decodes them",
    arguments: ["gray", "rgba", "rgb48be", "pal8"])
  func decodePNGPixelFormats(_ pixelFormat: String) throws {
    // Greys survive every one of these formats exactly.
    var picture = RGBImage(width: 64, height: 48)
    let greys: [UInt8] = [30, 90, 160, 230]
    for y in 0..<48 {
      for x in 0..<64 {
        let grey = greys[(y * 2 / 48) * 2 + x * 2 / 64]
        picture[x, y] = RGB(grey, grey, grey)
      }
    }
    let url = FixtureStore.shared.scratchURL("grey-\(pixelFormat).png")
    try ExternalTools.ffmpegFile(
      [
        "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "64x48", "-i", "-",
        "-frames:v", "1", "-c:v", "png", "-pix_fmt", pixelFormat, "-f", "image2", url.path,
      ],
      output: url, in: FixtureStore.shared.directory, stdin: Data(picture.pixels))
    let decoded = try ImageCodec.decode(path: url.path)
    #expect(decoded.size == picture.size)
    // The reference is the file as the ffmpeg CLI decodes it (a palette cannot hold our greys).
    let reference = try ExternalTools.run(
      "ffmpeg", ["-v", "error", "-i", url.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"],
      in: FixtureStore.shared.directory
    ).stdout
    try #require(reference.count == decoded.pixels.count)
    let worst = zip(decoded.pixels, reference).map { abs(Int($0) - Int($1)) }.max() ?? 0
    #expect(worst <= 1, "\(pixelFormat): off by up to \(worst) from ffmpeg's decode")
    if pixelFormat != "pal8" {
      #expect(decoded == picture, "\(pixelFormat) holds these greys exactly")
    }
  }

  @Test("decode(path:size:) scales the whole picture")
  func decodeWithSize() throws {
    let png = try ImageCodec.encodePNG(Self.quadrants(width: 160, height: 120))
    let path = try write(png, "big.png")
    for size in [
      PixelSize(width: 32, height: 24), PixelSize(width: 64, height: 64),
      PixelSize(width: 200, height: 90),
    ] {
      let decoded = try ImageCodec.decode(path: path, size: size)
      #expect(decoded.size == size)
      #expect(Self.quadrantError(decoded) <= 3, "\(size): whole frame, no crop")
    }
  }

  @Test("resize keeps a flat colour flat")
  func resizeFlatColour() throws {
    let colour = RGB(200, 100, 50)
    let flat = RGBImage(width: 50, height: 30, fill: colour)
    for size in [
      PixelSize(width: 17, height: 11), PixelSize(width: 64, height: 64),
      PixelSize(width: 123, height: 45),
    ] {
      let resized = try ImageCodec.resize(flat, to: size)
      #expect(resized.size == size)
      let first = resized[0, 0]
      var allSame = true
      for y in 0..<size.height {
        for x in 0..<size.width where resized[x, y] != first { allSame = false }
      }
      #expect(allSame, "\(size): not flat")
      let error = max(abs(Int(first.r) - 200), abs(Int(first.g) - 100), abs(Int(first.b) - 50))
      #expect(error <= 2, "\(size): colour \(first)")
    }
  }

  @Test("resize keeps the picture: the frame-number pattern survives 160x120 -> 64x64")
  func resizePattern() throws {
    let picture = FrameIndexPattern.render(index: 2024, width: 160, height: 120)
    let small = try ImageCodec.resize(picture, to: PixelSize(width: 64, height: 64))
    #expect(FrameIndexPattern.frameIndex(in: small) == 2024)
    #expect(try ImageCodec.resize(picture, to: picture.size) == picture, "same size: unchanged")
  }

  @Test("ImageCodec.decode reports missing, folder and non-image files by name")
  func imageDecodeErrors() throws {
    let missing = FixtureStore.shared.scratchURL("missing.png").path
    #expect(
      capture { () throws(MediaError) in try ImageCodec.decode(path: missing) }.failure
        == .notFound(path: missing))
    let folder = try BadInput.directory.make()
    #expect(
      capture { () throws(MediaError) in try ImageCodec.decode(path: folder) }.failure
        == .isDirectory(path: folder))
    let text = try BadInput.textNamedMP4.make()
    let error = capture { () throws(MediaError) in try ImageCodec.decode(path: text) }.failure
    #expect(error == .notMedia(path: text))
    #expect(error?.description.contains(text) == true)
  }
}
