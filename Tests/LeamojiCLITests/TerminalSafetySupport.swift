import Foundation
import LeamojiTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Text from files leamoji does not control: a title with an OSC (retitle the window) and a
/// clear-screen sequence, a description with line breaks and a C1 CSI, file names with ESC,
/// newline, C1 and a bidi override.
enum Hostile {
  static let title = "\u{1B}]0;owned\u{07}\u{1B}[2J Title \u{9B}31m red \u{202E}evil"
  /// How `title` reads once neutralised (each unsafe character replaced by `?`).
  static let titleShown = "?]0;owned??[2J Title ?31m red ?evil"
  static let description = "line one\nline two\r\u{1B}[31m\u{9B}2J\u{7F}\u{85}\u{2028}end\u{2066}"
  static let fileName = "ev\u{1B}[31mil\nname\u{9B}2J\u{202E}4pm.mp4"
  static let fileNameShown = "ev?[31mil?name?2J?4pm.mp4"

  /// A copy named `name` in `folder` of a 3-second clip with `title` and `description` as its
  /// title and comment metadata (made once per run by `FFmpegFixtures`).
  static func clip(named name: String, in folder: URL) throws -> URL {
    let url = folder.appendingPathComponent(name)
    try FFmpegFixtures.makeVideo(
      at: url, seconds: 3, size: "96x54",
      extra: ["-metadata", "title=\(title)", "-metadata", "comment=\(description)"])
    return url
  }
}

/// A run of `leamoji` with its output as raw bytes (`ProcessResult.stdout` is decoded text,
/// which would hide invalid UTF-8).
struct RawRun {
  let status: Int32
  let stdout: [UInt8]
  let stderr: [UInt8]
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
  var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs `program` (default: the built leamoji) in `directory`.
func runRaw(_ arguments: [String], program: String = CLI.binary, in directory: URL) throws
  -> RawRun
{
  let run = try ProcessRunner.run(program, arguments, in: directory)
  return RawRun(
    status: run.status, stdout: [UInt8](run.stdoutData), stderr: [UInt8](run.stderrData))
}

/// Scalars that must never reach a terminal from outside text: C0 controls but the line feed
/// that ends each line, DEL, C1 controls, the line/paragraph separators and the bidi
/// embedding/override/isolate controls. (Written out here, independently of the code under test.)
func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x0A: return false
  case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
  default: return false
  }
}

/// Checks that `bytes` are valid UTF-8 without a forbidden scalar (no ESC 0x1B, BEL 0x07, CR
/// 0x0D, DEL, no C1 such as C2 9B, no U+202E) and, given `lines`, exactly that many lines, each
/// ended by a line feed.
func expectTerminalSafe(
  _ bytes: [UInt8], lines: Int?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  guard let text = String(validating: bytes, as: UTF8.self) else {
    Issue.record("\(what): not valid UTF-8: \(bytes)", sourceLocation: sourceLocation)
    return
  }
  let bad = text.unicodeScalars.filter(isForbidden)
  #expect(
    bad.isEmpty,
    "\(what): control characters \(bad.map { String($0.value, radix: 16) }) in \(text.debugDescription)",
    sourceLocation: sourceLocation)
  for byte: UInt8 in [0x1B, 0x07, 0x0D, 0x7F] {
    #expect(
      !bytes.contains(byte), "\(what): byte \(byte) in \(text.debugDescription)",
      sourceLocation: sourceLocation)
  }
  let c1 = zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }
  #expect(
    !c1, "\(what): a UTF-8 encoded C1 control in \(text.debugDescription)",
    sourceLocation: sourceLocation)
  if let lines {
    #expect(
      bytes.filter { $0 == 0x0A }.count == lines,
      "\(what): \(lines) line(s) expected: \(text.debugDescription)",
      sourceLocation: sourceLocation)
    if lines > 0 {
      #expect(bytes.last == 0x0A, "\(what): ends with a line feed", sourceLocation: sourceLocation)
    }
  }
}

/// The JSON object of one line of output.
func jsonObject(_ line: [UInt8]) throws -> [String: Any] {
  try #require(JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
}

/// The entries of a MovieData.json.
func storedMovies(_ url: URL) throws -> [[String: Any]] {
  try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
}

func writeEditedData(to url: URL, id: String) throws {
  let entry: [String: Any] = [
    "id": id, "title": Hostile.title, "description": Hostile.description, "duration": 3,
    "seekAhead": 5,
    "model": ["labels": ["happy", "neutral", "scary"], "sha256": "0"],
    "markers": [
      [
        "second": 0, "cueAt": 0, "label": "hap\u{1B}[2Jpy", "emoji": "\u{1B}]0;badge\u{07}",
        "confidence": 1,
      ],
      ["second": 2, "cueAt": 0, "label": "sc\u{9B}2Jary", "emoji": "😱\u{202E}", "confidence": 0.9],
    ],
  ]
  try JSONSerialization.data(withJSONObject: [entry], options: [.sortedKeys]).write(to: url)
}

/// `leamoji play` in tmux, with every byte it writes to the terminal recorded by `pipe-pane`.
