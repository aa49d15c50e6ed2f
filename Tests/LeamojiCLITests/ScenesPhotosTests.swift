import Foundation
import LeamojiTestSupport
import Testing

/// `leamoji-lab scenes dataset --photos DIR`: photos mixed into the training half only.
@Suite("scenes dataset --photos")
struct ScenesPhotosTests {
  /// A folder of two photos in `root`: PNG frames the generator itself wrote (any decodable
  /// image works).
  func photoFolder(in root: URL) throws -> URL {
    let made = try CLI.lab([
      "scenes", "dataset", "--out", root.path, "--train-per-class", "1", "--test-per-class", "0",
      "--size", "96", "--set", "classic",
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let photos = root.appendingPathComponent("photos")
    try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
    for (mood, name) in [("Happy", "a.png"), ("Neutral", "b.png")] {
      let source = root.appendingPathComponent("Training Data/\(mood)")
      let file = try FileManager.default.contentsOfDirectory(atPath: source.path)[0]
      try FileManager.default.copyItem(
        at: source.appendingPathComponent(file), to: photos.appendingPathComponent(name))
    }
    // Not photos: a subfolder and a hidden file are left alone, as in training folders.
    try FileManager.default.createDirectory(
      at: photos.appendingPathComponent("originals"), withIntermediateDirectories: true)
    try Data("thumbnail cache".utf8).write(to: photos.appendingPathComponent(".thumbs"))
    return photos
  }

  func files(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
  }

  @Test("plain photos go to training's Neutral only; blended scenes differ, testing does not")
  func mixes() throws {
    let source = try ScratchFolder.url("photos-src")
    let plain = try ScratchFolder.url("photos-off")
    let mixed = try ScratchFolder.url("photos-on")
    defer {
      for folder in [source, plain, mixed] { try? FileManager.default.removeItem(at: folder) }
    }
    let photos = try photoFolder(in: source)
    let common = ["--train-per-class", "10", "--test-per-class", "4", "--size", "32"]
    let off = try CLI.lab(["scenes", "dataset", "--out", plain.path] + common)
    let on = try CLI.lab(
      ["scenes", "dataset", "--out", mixed.path, "--photos", photos.path, "--photo-blend", "1"]
        + common)
    try #require(off.status == 0 && on.status == 0, "\(off.stderr)\(on.stderr)")
    #expect(on.stdout.contains("and 5 photos"))
    let neutral = files(mixed.appendingPathComponent("Training Data/Neutral"))
    #expect(neutral.filter { $0.hasPrefix("photo-") }.count == 5)
    #expect(neutral.count == 15)
    for mood in ["Happy", "Scary"] {
      #expect(
        !files(mixed.appendingPathComponent("Training Data/\(mood)")).contains {
          $0.hasPrefix("photo-")
        })
    }
    let scene = "Training Data/Scary/scary-00000.png"
    #expect(
      try Data(contentsOf: plain.appendingPathComponent(scene))
        != Data(contentsOf: mixed.appendingPathComponent(scene)), "blend share 1 mixes each")
    for file in files(plain.appendingPathComponent("Testing Data/Happy")) {
      let path = "Testing Data/Happy/\(file)"
      #expect(
        try Data(contentsOf: plain.appendingPathComponent(path))
          == Data(contentsOf: mixed.appendingPathComponent(path)), "testing scenes unmixed")
    }
  }

  @Test("a missing or empty photo folder and an unreadable photo: one line, non-zero exit")
  func badPhotos() throws {
    let out = try ScratchFolder.url("photos-bad")
    let empty = try ScratchFolder.url("photos-empty")
    let broken = try ScratchFolder.url("photos-broken")
    defer {
      for folder in [out, empty, broken] { try? FileManager.default.removeItem(at: folder) }
    }
    try Data("not a picture".utf8).write(to: broken.appendingPathComponent("x.png"))
    for (folder, status, text) in [
      ("/nonexistent/photos", Int32(66), "not a readable folder"),
      (empty.path, 66, "no photos in the folder"), (broken.path, 65, "x.png"),
    ] {
      let run = try CLI.lab([
        "scenes", "dataset", "--out", out.path, "--train-per-class", "2", "--photos", folder,
      ])
      #expect(run.status == status, "\(folder): \(run.stderr)")
      #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(text))
    }
  }
}
