/// Path arithmetic on strings, as the commands use it (the last component, its folder, a name
/// inside a folder), without Foundation's `NSString`: leamoji links only FoundationEssentials,
/// which keeps about 7 MB of libraries out of every process (a memory goal).
///
/// The rules follow `NSString`'s for the paths leamoji meets: trailing slashes are ignored,
/// "/" is its own last component and folder, a bare name has the folder "" (where this
/// toolchain's `NSString.deletingLastPathComponent` traps on some bare names, such as
/// `MovieData.json`).
public enum PathText {
  /// The path without trailing slashes ("/" stays "/").
  private static func trimmed(_ path: String) -> Substring {
    var text = Substring(path)
    while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
    return text
  }

  /// The last component: `"a/b.mp4"` → `"b.mp4"`, `"a/b/"` → `"b"`, `"/"` → `"/"`.
  public static func lastComponent(_ path: String) -> String {
    let text = trimmed(path)
    if text == "/" { return "/" }
    guard let slash = text.lastIndex(of: "/") else { return String(text) }
    return String(text[text.index(after: slash)...])
  }

  /// The folder part: `"a/b.mp4"` → `"a"`, `"/b"` → `"/"`, `"b"` → `""`, `"/"` → `"/"`.
  public static func deletingLastComponent(_ path: String) -> String {
    let text = trimmed(path)
    if text == "/" { return "/" }
    guard let slash = text.lastIndex(of: "/") else { return "" }
    var folder = text[..<slash]
    while folder.hasSuffix("/") { folder = folder.dropLast() }
    return folder.isEmpty ? "/" : String(folder)
  }

  /// `name` inside `folder`: `("a", "b")` → `"a/b"`, `("a/", "b")` → `"a/b"`, `("", "b")` → `"b"`.
  public static func appending(_ name: String, to folder: String) -> String {
    if folder.isEmpty { return name }
    return folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }

  /// The file extension without its dot (`"a/b.MP4"` → `"MP4"`), or "" when there is none.
  public static func pathExtension(_ path: String) -> String {
    let name = lastComponent(path)
    guard let dot = extensionDot(name) else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// The path without its extension (`"a/b.mp4"` → `"a/b"`).
  public static func deletingExtension(_ path: String) -> String {
    let text = trimmed(path)
    let name = lastComponent(path)
    guard let dot = extensionDot(name) else { return String(text) }
    let dropped = name.distance(from: dot, to: name.endIndex)
    return String(text.dropLast(dropped))
  }

  /// Where the extension of a file name starts: its last dot, unless that is the first
  /// character (`.hidden`) or the name is `..`.
  private static func extensionDot(_ name: String) -> String.Index? {
    guard name != "..", let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return nil
    }
    return dot
  }
}
