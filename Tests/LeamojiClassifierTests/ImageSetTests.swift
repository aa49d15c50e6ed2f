import Foundation
import LeamojiClassifier
import LeamojiCore
import Testing

@Suite("Image sets")
struct ImageSetTests {
  @Test("loading skips undecodable files, keeps order for any thread count, maps labels")
  func load() throws {
    let root = try makeTree([
      "Happy/1.png": "10", "Happy/2.png": "bad", "Scary/3.png": "200", "Scary/4.png": "30",
    ])
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = try LabelledFolder(scanning: root.path)
    // A test double for the video module's decoder: the file holds a grey level.
    let decode: ImageDecoder = { path, size in
      let text = try String(contentsOfFile: path, encoding: .utf8)
      guard let level = UInt8(text) else { throw HarnessError("not an image") }
      return RGBImage(width: size.width, height: size.height, fill: RGB(level, level, level))
    }
    let size = PixelSize(width: 2, height: 2)
    let (one, skippedOne) = try ImageSet.load(folder, size: size, threads: 1, decode: decode)
    let (two, skippedTwo) = try ImageSet.load(folder, size: size, threads: 2, decode: decode)
    #expect(one.count == 3 && one.labels == [0, 1, 1])
    #expect(one.pixels == two.pixels && one.labels == two.labels && one.paths == two.paths)
    #expect(skippedOne.map { ($0.path as NSString).lastPathComponent } == ["2.png"])
    #expect(skippedTwo.count == 1)
    #expect(one.image(1).first == 200)

    let remapped = try ImageSet.load(
      folder, size: size, labelNames: ["angry", "happy", "scary"], decode: decode
    ).images
    #expect(remapped.labels == [1, 2, 2])
    #expect(throws: DatasetError.self) {
      try ImageSet.load(folder, size: size, labelNames: ["happy", "neutral"], decode: decode)
    }
  }

  @Test("subsets keep images, labels and paths in the order asked")
  func subset() {
    var set = ImageSet(size: PixelSize(width: 1, height: 1), labelNames: ["a", "b"])
    for i in 0..<4 {
      set.append(
        RGBImage(width: 1, height: 1, fill: RGB(UInt8(i), 0, 0)), label: i % 2, path: "\(i)")
    }
    let picked = set.subset([3, 0])
    #expect(picked.count == 2 && picked.labels == [1, 0] && picked.paths == ["3", "0"])
    #expect(Array(picked.image(0)) == [3, 0, 0] && picked.pixels == [3, 0, 0, 0, 0, 0])
    #expect(picked.labelNames == ["a", "b"] && picked.imageBytes == 3)
  }
}
