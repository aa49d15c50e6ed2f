import FoundationEssentials

/// The files a folder offers as inputs (images to label, training images, photos): its regular
/// files, not its subfolders or hidden entries (names starting with "."), in name order so that
/// every run sees them the same way.
public enum FolderListing {
  /// The names of the visible files directly in `folder`, sorted. A link counts as what it
  /// points to.
  /// - Throws: Foundation's error when the folder cannot be listed.
  public static func visibleFileNames(in folder: String) throws -> [String] {
    let fm = FileManager.default
    return try fm.contentsOfDirectory(atPath: folder).sorted().filter { name in
      guard !name.hasPrefix(".") else { return false }
      var isFolder = false
      let path = PathText.appending(name, to: folder)
      return fm.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder
    }
  }
}
