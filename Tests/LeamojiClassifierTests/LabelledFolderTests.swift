import Foundation
import LeamojiClassifier
import LeamojiCore
import LeamojiTestSupport
import Testing

/// Builds a folder tree: `files` maps "Label/name" to contents.
func makeTree(_ files: [String: String], folders: [String] = []) throws -> URL {
  let root = try ScratchFolder.url("folders")
  for folder in folders {
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
  }
  for (relative, contents) in files {
    let url = root.appendingPathComponent(relative)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(contents.utf8).write(to: url)
  }
  return root
}

@Suite("Labelled folders")
struct LabelledFolderTests {
  @Test("labels are folder names, lower-cased and sorted; files sorted; hidden entries ignored")
  func scan() throws {
    let root = try makeTree([
      "Scary/b.png": "", "Scary/a.png": "", "Happy/1.png": "", "Neutral/x.jpg": "",
      "Happy/.DS_Store": "",
      ".hidden/z.png": "", "notes.txt": "",
    ])
    defer { try? FileManager.default.removeItem(at: root) }
    let folder = try LabelledFolder(scanning: root.path)
    #expect(folder.labels == ["happy", "neutral", "scary"])
    #expect(
      folder.items.map { ($0.path as NSString).lastPathComponent } == [
        "1.png", "x.jpg", "a.png", "b.png",
      ])
    #expect(folder.items.map(\.label) == [0, 1, 2, 2])
    #expect(folder.countsPerLabel == [1, 1, 2])
  }

  @Test("errors name the folder: missing, a file, too few labels, an empty label, duplicate labels")
  func errors() throws {
    let root = try makeTree(["Happy/a.png": "", "file.txt": ""], folders: ["Scary"])
    defer { try? FileManager.default.removeItem(at: root) }
    #expect(throws: DatasetError.notFound(path: root.path + "/nope")) {
      try LabelledFolder(scanning: root.path + "/nope")
    }
    #expect(throws: DatasetError.notAFolder(path: root.path + "/file.txt")) {
      try LabelledFolder(scanning: root.path + "/file.txt")
    }
    #expect(throws: DatasetError.emptyLabel(path: root.path + "/Scary")) {
      try LabelledFolder(scanning: root.path)
    }
    let single = try makeTree(["Happy/a.png": ""])
    defer { try? FileManager.default.removeItem(at: single) }
    #expect(throws: DatasetError.tooFewLabels(path: single.path, found: ["happy"], needed: 2)) {
      try LabelledFolder(scanning: single.path)
    }
    #expect(try LabelledFolder(scanning: single.path, minimumLabels: 1).labels == ["happy"])
    let twice = try makeTree(["Happy/a.png": "", "happy/b.png": ""])
    defer { try? FileManager.default.removeItem(at: twice) }
    #expect(throws: DatasetError.self) { try LabelledFolder(scanning: twice.path) }
    do {
      _ = try LabelledFolder(scanning: twice.path)
    } catch {
      #expect(error.description.contains("happy") && error.description.contains(twice.path))
    }
  }
}

struct HarnessError: Error {
  let text: String
  init(_ text: String) { self.text = text }
}
