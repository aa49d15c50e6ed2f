import Foundation
import LeamojiTestSupport

/// Debian's `chromium`, run headless on the report's pages (`make test-deps` installs it).
enum Chromium {
  /// The browser, or nil when it is not installed (the browser tests are then skipped).
  static let path: String? = {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")
      .split(separator: ":").map(String.init)
    for folder in folders + ["/usr/bin"] {
      for name in ["chromium", "chromium-browser"] {
        let candidate = folder + "/" + name
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      }
    }
    return nil
  }()

  /// What a run printed: the page's DOM (with `--dump-dom`) and the browser's log, whose
  /// `CONSOLE` lines are the page's console messages (errors, CSP violations among them).
  struct Run {
    let stdout: String
    let stderr: String
    var consoleLines: [String] {
      stderr.split(separator: "\n").map(String.init).filter { $0.contains(":CONSOLE") }
    }
  }

  /// Loads `url` headless (as root it needs `--no-sandbox`), lets the page run for
  /// `budget` ms of virtual time, then dumps the DOM or takes a screenshot.
  static func run(
    _ url: URL, fragment: String = "", screenshot: URL? = nil, budget: Int = 4000,
    size: String = "1100,1400"
  ) throws -> Run {
    guard let path else { throw CocoaError(.fileNoSuchFile) }
    let profile = try ScratchFolder("chromium")
    defer { profile.remove() }
    var arguments = [
      "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
      "--no-first-run", "--no-default-browser-check", "--disable-extensions",
      "--user-data-dir=\(profile.path)", "--enable-logging=stderr", "--v=0",
      "--virtual-time-budget=\(budget)", "--window-size=\(size)",
    ]
    if let screenshot {
      arguments.append("--screenshot=\(screenshot.path)")
    } else {
      arguments.append("--dump-dom")
    }
    arguments.append(url.absoluteString + fragment)
    // Killed after 90 s; the output goes to files, which helpers it leaves cannot hold open.
    let run = try ProcessRunner.run(path, arguments, timeout: 90)
    return Run(stdout: run.stdout, stderr: run.stderr)
  }

  /// The text of the element with `id` in a dumped DOM (tags inside it removed, the DOM's
  /// escapes `&amp;`, `&lt;`, `&gt;`, `&nbsp;` decoded); nil when there is none.
  static func text(ofID id: String, in dom: String) -> String? {
    guard let start = dom.range(of: "id=\"\(id)\"") else { return nil }
    guard let open = dom[start.upperBound...].firstIndex(of: ">") else { return nil }
    let rest = dom[dom.index(after: open)...]
    // The element ends at the closing tag that matches it (counting nested ones).
    let tagStart = dom[..<start.lowerBound].lastIndex(of: "<")!
    let tag = dom[dom.index(after: tagStart)...].prefix { $0.isLetter || $0.isNumber }
    var depth = 1
    var cursor = rest.startIndex
    var endIndex: String.Index? = nil
    while let next = rest[cursor...].range(of: "<") {
      let after = rest[next.upperBound...]
      if after.hasPrefix("/\(tag)>") {
        depth -= 1
        if depth == 0 {
          endIndex = next.lowerBound
          break
        }
      } else if after.hasPrefix(tag) {
        depth += 1
      }
      cursor = next.upperBound
    }
    guard let endIndex else { return nil }
    let end = endIndex..<endIndex
    var text = String(rest[..<end.lowerBound])
    while let a = text.range(of: "<"), let b = text[a.lowerBound...].range(of: ">") {
      text.removeSubrange(a.lowerBound..<b.upperBound)
    }
    return text.replacingOccurrences(of: "&lt;", with: "<")
      .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&nbsp;", with: " ")
      .replacingOccurrences(of: "&amp;", with: "&")
  }

  /// Whether the element with `id` has the `hidden` attribute in a dumped DOM.
  static func isHidden(_ id: String, in dom: String) -> Bool {
    guard let start = dom.range(of: "id=\"\(id)\"") else { return true }
    let tagStart = dom[..<start.lowerBound].lastIndex(of: "<")!
    let tagEnd = dom[start.upperBound...].firstIndex(of: ">")!
    return dom[tagStart..<tagEnd].contains(" hidden")
  }
}
