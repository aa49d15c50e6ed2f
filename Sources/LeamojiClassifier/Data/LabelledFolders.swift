import FoundationEssentials
import LeamojiCore

/// A folder of labelled images laid out as Create ML expects: one subfolder per label
/// (`Happy/`, `Neutral/`, `Scary/`), each holding that label's images. Labels are the folder
/// names lower-cased, in sorted order; files are taken in sorted order so that everything
/// built from a folder is reproducible.
public struct LabelledFolder: Sendable {
  /// One image file and its label's index in `labels`.
  public struct Item: Equatable, Sendable {
    public let path: String
    public let label: Int
  }

  /// The folder scanned.
  public let root: String
  /// Label names, lower-cased and sorted.
  public let labels: [String]
  /// Every candidate image file, grouped by label, sorted by path within a label.
  public let items: [Item]

  /// Scans `root`. Hidden files and folders are ignored; every other file is a candidate
  /// image (files that turn out not to be images are skipped and counted when loaded).
  /// - Parameter minimumLabels: how many labels the folder must have (2 to train, 1 to test).
  /// - Throws: `DatasetError` naming the folder.
  public init(scanning root: String, minimumLabels: Int = 2) throws(DatasetError) {
    let fm = FileManager.default
    var isDirectory = false
    guard fm.fileExists(atPath: root, isDirectory: &isDirectory) else {
      throw .notFound(path: root)
    }
    guard isDirectory else { throw .notAFolder(path: root) }
    let entries: [String]
    do {
      entries = try fm.contentsOfDirectory(atPath: root)
    } catch {
      throw .unreadable(path: root, reason: ErrorText.describe(error))
    }
    var folders: [(label: String, path: String)] = []
    for name in entries.sorted() where !name.hasPrefix(".") {
      let path = PathText.appending(name, to: root)
      var sub = false
      if fm.fileExists(atPath: path, isDirectory: &sub), sub {
        folders.append((name.lowercased(), path))
      }
    }
    var seen: [String: String] = [:]
    for folder in folders {
      if let other = seen[folder.label] {
        throw .duplicateLabel(label: folder.label, first: other, second: folder.path)
      }
      seen[folder.label] = folder.path
    }
    folders.sort { $0.label < $1.label }
    guard folders.count >= minimumLabels else {
      throw .tooFewLabels(path: root, found: folders.map(\.label), needed: minimumLabels)
    }
    var items: [Item] = []
    for (index, folder) in folders.enumerated() {
      let files = (try? FolderListing.visibleFileNames(in: folder.path)) ?? []
      if files.isEmpty { throw .emptyLabel(path: folder.path) }
      items += files.map {
        Item(path: PathText.appending($0, to: folder.path), label: index)
      }
    }
    self.root = root
    self.labels = folders.map(\.label)
    self.items = items
  }

  /// How many items each label has, in label order.
  public var countsPerLabel: [Int] {
    var counts = [Int](repeating: 0, count: labels.count)
    for item in items { counts[item.label] += 1 }
    return counts
  }
}

/// Why a labelled folder cannot be used; one line naming the folder.
public enum DatasetError: Error, Equatable, CustomStringConvertible, Sendable {
  case notFound(path: String)
  case notAFolder(path: String)
  case unreadable(path: String, reason: String)
  case tooFewLabels(path: String, found: [String], needed: Int)
  case emptyLabel(path: String)
  case duplicateLabel(label: String, first: String, second: String)
  case unknownLabel(path: String, label: String, known: [String])
  case noUsableImages(path: String)

  /// No input when there is no folder to read (missing, a file, unreadable), bad input when
  /// the folder is not a usable data set.
  public var kind: ProblemKind {
    switch self {
    case .notFound, .notAFolder, .unreadable: .noInput
    default: .badInput
    }
  }

  public var description: String {
    switch self {
    case .notFound(let path): return "\(path): no such folder"
    case .notAFolder(let path):
      return "\(path): is a file; expected a folder with one subfolder per label"
    case .unreadable(let path, let reason): return "\(path): cannot be read (\(reason))"
    case .tooFewLabels(let path, let found, let needed):
      let list = found.isEmpty ? "none" : found.joined(separator: ", ")
      return
        "\(path): needs at least \(needed) label subfolders (e.g. Happy/, Neutral/, Scary/), found \(list)"
    case .emptyLabel(let path): return "\(path): label folder has no images"
    case .duplicateLabel(let label, let first, let second):
      return "\(second): label '\(label)' is already given by \(first) (labels are lower-cased)"
    case .unknownLabel(let path, let label, let known):
      return
        "\(path): label '\(label)' is not one the model knows (\(known.joined(separator: ", ")))"
    case .noUsableImages(let path): return "\(path): none of the images could be read"
    }
  }
}
