import Foundation
import LeamojiCore
import LeamojiTestSupport
import Testing

@Suite("FolderListing: the files a folder offers as inputs")
struct FolderListingTests {
  @Test(
    "visible regular files in name order; subfolders and hidden entries left out; links as their target"
  )
  func visibleFiles() throws {
    let scratch = try ScratchFolder("listing")
    defer { scratch.remove() }
    for name in ["b.png", "a.png", ".hidden.png", "c"] { try scratch.write(name, to: name) }
    try FileManager.default.createDirectory(
      atPath: scratch.file("sub"), withIntermediateDirectories: false)
    try FileManager.default.createDirectory(
      atPath: scratch.file(".git"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: scratch.file("link-to-a.png"), withDestinationPath: scratch.file("a.png"))
    try FileManager.default.createSymbolicLink(
      atPath: scratch.file("link-to-sub"), withDestinationPath: scratch.file("sub"))
    #expect(
      try FolderListing.visibleFileNames(in: scratch.path) == [
        "a.png", "b.png", "c", "link-to-a.png",
      ])
  }

  @Test("a folder that cannot be listed throws")
  func missingFolder() {
    #expect(throws: (any Error).self) {
      try FolderListing.visibleFileNames(in: "/nonexistent-leamoji-folder")
    }
  }
}
